#ifndef MP_ENGINE_PROG_NAME_H
#define MP_ENGINE_PROG_NAME_H
/* The name the user typed to run the binary (the basename of argv[0]:
 * "minipulumi", or "pulumi" through the installed link), so that a message
 * telling them what to run next names a command they have. */

/* Sets the name from argv[0]; called once by main before any thread. */
void mp_prog_name_set(const char *argv0);

/* The name set, or "minipulumi" when none was. */
const char *mp_prog_name(void);

#endif
