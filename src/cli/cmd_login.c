/* minipulumi login [URL]: choose the state backend, as `pulumi login`
 * does. The URL is checked by opening the store (connecting and bringing
 * its schema up to date), then remembered for the commands that run
 * without --backend or MINIPULUMI_BACKEND_URL: a file:// folder, which the
 * Pulumi CLI reads the same way, in Pulumi's own credentials file (so
 * `pulumi` and the Automation API see the same backend); a SQLite file or
 * PostgreSQL database, which only minipulumi can use, in
 * ~/.minipulumi/credentials.json (docs/state-backends.md says why).
 * `--local` chooses the folder ~ in Pulumi's DIY layout (file://~), as
 * Pulumi's `login --local` does. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/messages.h"

static const mp_cmd_help help = {
    "minipulumi login [<url>] [flags]",
    "Log in to a minipulumi state backend.\n\n"
    "With no arguments, this command logs in to the backend chosen by\n"
    "--backend, MINIPULUMI_BACKEND_URL or an earlier login (minipulumi's\n"
    "or the Pulumi CLI's), else to the local SQLite file\n"
    "~/.minipulumi/state.db. To choose another, pass its URL:\n\n"
    "    $ minipulumi login /var/lib/minipulumi/state.db           # SQLite\n"
    "    $ minipulumi login sqlite:///var/lib/minipulumi/state.db\n"
    "    $ minipulumi login postgres://user@host:5432/database     # "
    "PostgreSQL\n"
    "    $ minipulumi login file://~/state     # a folder in Pulumi's DIY "
    "layout\n\n"
    "A PostgreSQL password may be in the URL (user:password@host), in\n"
    "PGPASSWORD or in ~/.pgpass; it is never shown. `--local` is a shortcut\n"
    "for file://~, as with Pulumi.\n\n"
    "A file:// login is shared with the Pulumi CLI: it is written to\n"
    "Pulumi's credentials file ($PULUMI_HOME/credentials.json, by default\n"
    "~/.pulumi/credentials.json). Other backends, which only minipulumi can\n"
    "use, are remembered in ~/.minipulumi/credentials.json."};

static void warn_env_conflict(mp_ctx *ctx, const char *url) {
  const char *name, *env;
  if (!mp_cli_env_backend(&name, &env) || !strcmp(env, url))
    return;
  char *shown_env = mp_store_url_redact(env), *shown = mp_store_url_redact(url);
  mp_cli_warn(ctx,
              "The %s environment variable is set to '%s', which conflicts "
              "with the login URL '%s'",
              name, shown_env, shown);
  free(shown_env);
  free(shown);
}

static int login(mp_ctx *ctx, const char *url) {
  mp_store_opts o;
  int status = mp_cli_store_opts(ctx, &o);
  if (status)
    return status;
  mp_store *s = NULL;
  mp_err err;
  mp_err_clear(&err);
  char *shown = mp_store_url_redact(url);
  if (mp_store_open_with(url, &o, &s, &err) != 0) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "could not log in to the state backend '%s': %s",
                          shown, err.msg);
  } else {
    mp_store_close(s);
    if (mp_cli_url_pulumi_shared(url)) {
      status = mp_cli_pulumi_creds_update(ctx, MP_CREDS_LOGIN, url);
      if (!status) /* minipulumi's own login would hide it */
        status = mp_cli_credentials_update(ctx, MP_CREDS_CLEAR_CURRENT, url);
    } else {
      status = mp_cli_credentials_update(ctx, MP_CREDS_LOGIN, url);
    }
  }
  if (!status) {
    char host[256] = "localhost";
    gethostname(host, sizeof(host) - 1);
    fprintf(ctx->out, "Logged in to %s as %s (%s)\n", host, mp_cli_user_name(),
            shown);
  }
  free(shown);
  return status;
}

int mp_cmd_login(int argc, const char **argv, mp_ctx *ctx) {
  const char *cloud_url = NULL;
  int local = 0, insecure = 0, interactive = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_('c', "cloud-url", &cloud_url, "url",
                  "the URL of the state backend to log in to"),
      MP_OPT_BOOL_('l', "local", &local,
                   "use the home folder in Pulumi's DIY layout (file://~)"),
      MP_OPT_BOOL_(0, "insecure", &insecure,
                   "no effect: Pulumi's is for an HTTPS Pulumi Cloud API; "
                   "minipulumi's stores are files and PostgreSQL (give "
                   "sslmode= in a postgres:// URL)"),
      MP_OPT_BOOL_(0, "interactive", &interactive,
                   "no effect: Pulumi's chooses among the Pulumi Cloud "
                   "accounts it has logged in to; minipulumi keeps no "
                   "accounts"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK)
    rc = mp_args_check_count(ctx, "login", &pos, 0, 1);
  char *url = NULL;
  int status = rc ? mp_args_exit_status(rc) : 0;
  if (!status && pos.len && cloud_url)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "only one of --cloud-url or argument URL may be "
                          "specified, not both");
  if (!status)
    status = mp_cli_login_url(ctx, &pos, cloud_url, local, &url);
  if (!status && (pos.len || cloud_url || local))
    warn_env_conflict(ctx, url);
  if (!status)
    status = login(ctx, url);
  free(url);
  mp_strv_destroy(&pos);
  return status;
}
