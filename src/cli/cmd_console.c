/* minipulumi console: serves a read-only web console of every stack of the
 * backend (src/console/, docs/console.md) until Ctrl-C. */
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cjson/cJSON.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "console/console.h"
#include "console/guard.h"
#include "engine/crypto.h"

extern char **environ;

static const mp_cmd_help help = {
    "minipulumi console [flags]",
    "Serve a web console of the backend's stacks on this machine.\n\n"
    "Shows every stack of the backend that `login` chose (or --backend):\n"
    "its resources, outputs, config and history, and each resource's\n"
    "inputs, outputs and links. It prints a URL with a random token and\n"
    "serves until Ctrl-C. It listens on 127.0.0.1 unless --host says\n"
    "otherwise, answers only requests addressed to this machine, and\n"
    "changes nothing. Secrets are shown as [secret] unless --show-secrets.\n"
    "With --stack, the URL opens that stack's page."};

/* --show-secrets: the stack's passphrase crypter (the salt in the store,
 * the passphrase from PULUMI_CONFIG_PASSPHRASE(_FILE)). A stack with no
 * secrets manager gets none (decrypt NULL): it has no secrets to show. */
static int crypter_for(void *arg, mp_stack_ref st, mp_crypter *out,
                       mp_err *err) {
  mp_ctx *ctx = arg;
  char *type = NULL, *state = NULL, *salt = NULL;
  memset(out, 0, sizeof(*out));
  int rc = mp_store_secrets_get(ctx->store, st, &type, &state, err);
  if (rc == 0 && state) {
    cJSON *j = cJSON_Parse(state);
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "salt");
    if (cJSON_IsString(s))
      salt = mp_xstrdup(s->valuestring);
    cJSON_Delete(j);
  }
  mp_passphrase *pp = NULL;
  if (rc == 0 && salt)
    rc = mp_cli_passphrase_for_salt(ctx, salt, &pp, err);
  if (rc == 0 && pp)
    *out = mp_passphrase_crypter(pp);
  free(type);
  free(state);
  free(salt);
  return rc;
}

/* --open: the desktop's browser, through xdg-open found on PATH. */
static void open_browser(mp_ctx *ctx, const char *url, pid_t *pid) {
  char *argv[] = {"xdg-open", (char *)url, NULL};
  if (posix_spawnp(pid, "xdg-open", NULL, NULL, argv, environ) != 0) {
    *pid = 0;
    mp_cli_warn(ctx, "cannot start a browser (xdg-open was not found): "
                     "open the URL above yourself");
  }
}

int mp_cmd_console(int argc, const char **argv, mp_ctx *ctx) {
  int port = 0, show = 0, open = 0;
  const char *host = NULL;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_INT_(0, "port", &port, "N",
                  "the port to listen on (default: a free one)"),
      MP_OPT_STR_(0, "host", &host, "ADDR",
                  "the address to listen on (default: 127.0.0.1)"),
      MP_OPT_BOOL_(0, "show-secrets", &show,
                   "show secret values (needs the stacks' passphrase)"),
      MP_OPT_BOOL_(0, "open", &open, "open the console in the browser"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  if (port < 0 || port > 65535)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "--port %d is not a port: give 1 to 65535, or 0 "
                        "for a free one",
                        port);
  char *stack = NULL;
  int status;
  if (ctx->stack) {
    ctx->project_optional = 1;
    status = mp_cli_stack(ctx, NULL, 1, &stack);
  } else {
    status = mp_cli_store(ctx);
  }
  if (status)
    return status;
  mp_console_opts o;
  memset(&o, 0, sizeof(o));
  o.src.store = ctx->store;
  o.src.show_secrets = show;
  o.src.crypter_for = crypter_for;
  o.src.crypter_arg = ctx;
  o.host = host;
  o.port = (unsigned)port;
  o.interrupt = &ctx->interrupt;
  if (host && !mp_console_is_loopback(host))
    mp_cli_warn(ctx,
                "the console listens on '%s', which is not a loopback "
                "address: anyone who can reach it and has its URL can "
                "read every stack of %s",
                host, mp_store_location(ctx->store));
  mp_console *c = NULL;
  mp_err err;
  mp_err_clear(&err);
  if (mp_console_start(&o, &c, &err)) {
    free(stack);
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  char *path = NULL;
  if (stack) {
    mp_stack_ref st = mp_cli_ref(ctx, stack);
    path = mp_console_stack_path(st.project, st.name);
  }
  char *url = mp_console_url(c, path ? path : "/");
  fprintf(ctx->out,
          "Serving the console of %s at\n  %s\nPress Ctrl-C to stop.\n",
          mp_store_location(ctx->store), url);
  fflush(ctx->out);
  pid_t browser = 0;
  if (open)
    open_browser(ctx, url, &browser);
  /* Ctrl-C ends the console; the handler's cancelling line is not ours. */
  ctx->cancel_told = 1;
  mp_console_run(c);
  mp_console_free(c);
  if (browser > 0)
    waitpid(browser, NULL, WNOHANG);
  fprintf(ctx->err, "The console stopped.\n");
  free(url);
  free(path);
  free(stack);
  return MP_EXIT_OK;
}
