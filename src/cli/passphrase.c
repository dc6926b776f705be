/* Where a stack's passphrase comes from, as with Pulumi: the environment
 * (PULUMI_CONFIG_PASSPHRASE, else the file PULUMI_CONFIG_PASSPHRASE_FILE),
 * else a prompt without echo on a terminal, else an error at once. */
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/messages.h"
#include "cli/secrets.h"

#define MP_PASSPHRASE_MAX 1024

int mp_cli_passphrase_given(void) {
  const char *file = getenv(MP_PASSPHRASE_FILE_VAR);
  return getenv(MP_PASSPHRASE_VAR) != NULL || (file && *file);
}

int mp_cli_passphrase_env(char **out, mp_err *err) {
  return mp_passphrase_resolve(getenv(MP_PASSPHRASE_VAR),
                               getenv(MP_PASSPHRASE_FILE_VAR), out, err);
}

int mp_cli_prompt_secret(mp_ctx *ctx, const char *question, char *answer,
                         size_t size) {
  struct termios old, quiet;
  int tty = tcgetattr(STDIN_FILENO, &old) == 0;
  fprintf(ctx->out, "%s: ", question);
  fflush(ctx->out);
  if (tty) {
    quiet = old;
    quiet.c_lflag &= ~(tcflag_t)ECHO;
    quiet.c_lflag |= ECHONL; /* the newline of Enter still shows */
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  char *got = fgets(answer, (int)size, stdin);
  if (tty) tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
  if (!got || ctx->interrupt) {
    if (tty) fputc('\n', ctx->out);
    return -1;
  }
  answer[strcspn(answer, "\r\n")] = 0;
  return 0;
}

/* Pulumi's words when neither variable is set and nobody can be asked. */
static int no_passphrase(mp_err *err) {
  return mp_err_set(err, MP_ENOENT,
                    "passphrase must be set with PULUMI_CONFIG_PASSPHRASE or "
                    "PULUMI_CONFIG_PASSPHRASE_FILE environment variables");
}

static int cancelled(mp_err *err) {
  return mp_err_set(err, MP_ECANCELED, "no passphrase given: cancelled");
}

int mp_cli_passphrase_new(mp_ctx *ctx, char **out, mp_err *err) {
  *out = NULL;
  if (mp_cli_passphrase_given()) return mp_cli_passphrase_env(out, err);
  if (!mp_cli_interactive(ctx)) return no_passphrase(err);
  char first[MP_PASSPHRASE_MAX], second[MP_PASSPHRASE_MAX];
  int rc = 0;
  for (;;) {
    if (mp_cli_prompt_secret(ctx, "Enter your passphrase to protect "
                                  "config/secrets",
                             first, sizeof(first)) ||
        mp_cli_prompt_secret(ctx, "Re-enter your passphrase to confirm",
                             second, sizeof(second))) {
      rc = cancelled(err);
      break;
    }
    if (!strcmp(first, second)) {
      *out = mp_xstrdup(first);
      break;
    }
    fprintf(ctx->err, "error: passphrases do not match\n");
  }
  memset(first, 0, sizeof(first));
  memset(second, 0, sizeof(second));
  return rc;
}

int mp_cli_passphrase_unlock(mp_ctx *ctx, const char *salt,
                             const char *stack, mp_passphrase **out,
                             mp_err *err) {
  *out = NULL;
  if (mp_cli_passphrase_given()) {
    char *pass = NULL;
    int rc = mp_cli_passphrase_env(&pass, err);
    if (rc == 0) rc = mp_passphrase_open(salt, pass, out, err);
    free(pass);
    return rc;
  }
  if (!mp_cli_interactive(ctx)) return no_passphrase(err);
  char *question = mp_xasprintf(
      "Enter your passphrase to unlock config/secrets for stack %s\n"
      "    (set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE to "
      "remember)",
      stack);
  char line[MP_PASSPHRASE_MAX];
  int rc;
  for (;;) {
    if (mp_cli_prompt_secret(ctx, question, line, sizeof(line))) {
      rc = cancelled(err);
      break;
    }
    rc = mp_passphrase_open(salt, line, out, err);
    if (rc == 0 && (rc = mp_passphrase_verify(*out, err)) == 0) break;
    mp_passphrase_free(*out);
    *out = NULL;
    if (rc != MP_EINVAL) break;
    fprintf(ctx->err, "error: incorrect passphrase\n");
  }
  memset(line, 0, sizeof(line));
  free(question);
  return rc;
}
