/* minipulumi logout [URL]: forget a login remembered by `minipulumi login`
 * (the current one by default, or every one with --all), as `pulumi
 * logout` does, in minipulumi's credentials file and, for the file://
 * logins it shares, in the Pulumi CLI's. The state itself is left alone. */
#include <stdlib.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/messages.h"

static const mp_cmd_help help = {
    "minipulumi logout [<url>] [flags]",
    "Log out of a minipulumi state backend.\n\n"
    "This command forgets the login remembered on this machine for one\n"
    "backend. With no arguments, it logs you out of the current backend:\n\n"
    "    $ minipulumi logout\n\n"
    "To choose one, pass its URL, written the same way you wrote it when\n"
    "logging in. To log out of every backend at once, pass `--all`.\n"
    "`--local` is a shortcut for file://~, matching\n"
    "`minipulumi login --local`.\n\n"
    "A file:// login is also forgotten in the Pulumi CLI's credentials\n"
    "file, as `pulumi logout` does; `--all` forgets every file:// login\n"
    "there but leaves Pulumi Cloud logins alone."};

int mp_cmd_logout(int argc, const char **argv, mp_ctx *ctx) {
  const char *cloud_url = NULL;
  int local = 0, all = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "all", &all, "log out of all backends"),
      MP_OPT_STR_('c', "cloud-url", &cloud_url, "url",
                  "the URL of the backend to log out of (defaults to the "
                  "current backend)"),
      MP_OPT_BOOL_('l', "local", &local,
                   "log out of the local SQLite file ~/.minipulumi/state.db"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK)
    rc = mp_args_check_count(ctx, "logout", &pos, 0, 1);
  char *url = NULL;
  int status = rc ? mp_args_exit_status(rc) : 0;
  if (!status && pos.len && (cloud_url || all))
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "only one of --all, --cloud-url or argument URL may "
                          "be specified, not both");
  if (!status && !all)
    status = mp_cli_login_url(ctx, &pos, cloud_url, local, &url);
  enum mp_cli_creds_op op = all ? MP_CREDS_LOGOUT_ALL : MP_CREDS_LOGOUT;
  if (!status)
    status = mp_cli_credentials_update(ctx, op, url);
  if (!status && (all || mp_cli_url_pulumi_shared(url)))
    status = mp_cli_pulumi_creds_update(ctx, op, url);
  if (!status && all) {
    fprintf(ctx->out, "Logged out of everything\n");
  } else if (!status) {
    char *shown = mp_store_url_redact(url);
    fprintf(ctx->out, "Logged out of %s\n", shown);
    free(shown);
  }
  free(url);
  mp_strv_destroy(&pos);
  return status;
}
