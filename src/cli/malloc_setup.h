#ifndef MP_CLI_MALLOC_SETUP_H
#define MP_CLI_MALLOC_SETUP_H

/* Sets malloc up for the whole process: in main, before any thread, any
 * allocation that matters and any side effect. When |large_heap| (the
 * command may hold a whole stack's state), may run the binary again
 * (execv of /proc/self/exe with |argv|) to give its heap huge pages; the
 * process's environment is as it was when this returns. */
void mp_cli_malloc_setup(char **argv, int large_heap);

#endif
