#ifndef MP_CLI_MALLOC_SETUP_H
#define MP_CLI_MALLOC_SETUP_H

/* Sets malloc up for the whole process (one arena, huge pages for the
 * heap): first thing in main, before any thread or allocation that
 * matters. */
void mp_cli_malloc_setup(void);

#endif
