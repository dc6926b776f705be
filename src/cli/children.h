/* The process groups this process started (children.c): the command
 * provider's commands, ended on an interrupt. */
#ifndef MP_CLI_CHILDREN_H
#define MP_CLI_CHILDREN_H

#include <stddef.h>
#include <sys/types.h>

/* Fills |out| with up to |max| process groups this process started: its
 * children that lead their own group (the command provider's commands).
 * Async-signal-safe. Returns the count. */
size_t mp_cli_child_groups(pid_t *out, size_t max);
/* Sends |sig| to each of those groups. Async-signal-safe. */
void mp_cli_signal_child_groups(int sig);
/* Ends those groups: SIGTERM now, and SIGKILL after |grace_ms| from a
 * forked helper (so the caller may exit at once). Async-signal-safe. */
void mp_cli_end_child_groups(int grace_ms);

#endif
