/* Running local commands for the `command` provider (command_run.c). */
#ifndef MP_PROVIDERS_COMMAND_INT_H
#define MP_PROVIDERS_COMMAND_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/mem.h"

typedef struct mp__cmd_spec {
  char *const *argv;      /* argv[0] is looked up on PATH; NULL-terminated */
  const char *dir;        /* working directory, or NULL for ours */
  mp_strv env;            /* "NAME=value" entries added to our environment */
  const char *stdin_data; /* may be NULL when stdin_len is 0 */
  size_t stdin_len;
  int64_t timeout_ms; /* 0 = none; the child is killed after it */
} mp__cmd_spec;

typedef struct mp__cmd_result {
  mp_buf out, err; /* everything the command wrote */
  int status;      /* exit status, when it exited */
  int signal;      /* the signal that killed it, or 0 */
} mp__cmd_result;

void mp__cmd_result_init(mp__cmd_result *res);
void mp__cmd_result_destroy(mp__cmd_result *res);

/* Runs |s| to completion, any thread. Returns 0 when the command ran
 * (whatever its status: see |res|), MP_EPLUGIN when it could not be started
 * or timed out, MP_EIO when pipes or waiting failed. */
int mp__cmd_run(const mp__cmd_spec *s, mp__cmd_result *res, mp_err *err);

#endif
