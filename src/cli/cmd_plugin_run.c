/* minipulumi plugin run [--kind KIND] NAME[@VERSION] [ARGS...]: runs an
 * installed plugin's binary with ARGS, as `pulumi plugin run` does
 * (pkg/cmd/pulumi/plugin/plugin_run.go): the newest installed version
 * unless VERSION is given; its exit status is the command's. Flags meant
 * for the plugin follow `--`. Pulumi installs a missing plugin first;
 * minipulumi says to run `minipulumi plugin install`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "plugin/cache.h"

static const mp_cmd_help help = {
    "minipulumi plugin run NAME[@VERSION] [-- ARGS...] [flags]",
    "Run a command on a plugin binary\n\nDirectly executes a plugin binary; "
    "if VERSION is not specified the latest installed\nplugin will be used. "
    "Give the plugin's own flags after `--`."};

static const char *const kinds[] = {"analyzer", "language", "resource",
                                    "converter", "tool"};

static int known_kind(const char *k) {
  for (size_t i = 0; i < MP_ARRAY_LEN(kinds); i++)
    if (!strcmp(k, kinds[i])) return 1;
  return 0;
}

/* Runs |path| with |pos| items from 1 on as its arguments; returns its
 * exit status (128 + the signal that ended it). */
static int run_binary(mp_ctx *ctx, const char *path, const mp_strv *pos,
                      const char *desc) {
  const char **args = mp_xcalloc(pos->len + 1, sizeof(*args));
  args[0] = path;
  for (size_t i = 1; i < pos->len; i++) args[i] = pos->items[i];
  fflush(ctx->out);
  fflush(ctx->err);
  pid_t pid = fork();
  if (pid == 0) {
    execv(path, (char *const *)args);
    _exit(127);
  }
  free(args);
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "could not execute plugin %s (%s): %s",
                        desc, path, strerror(errno));
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && access(path, X_OK) != 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "could not find execute plugin %s, binary not found "
                        "at %s",
                        desc, path);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int mp_cmd_plugin_run(int argc, const char **argv, mp_ctx *ctx) {
  const char *kind = "tool";
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "kind", &kind, "kind", "The plugin kind"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, -1, &pos);
  if (rc) return mp_args_exit_status(rc);
  int status = 0;
  char *name = mp_xstrdup(pos.items[0]), *at = strchr(name, '@');
  mp_semver want;
  mp_err err;
  mp_err_clear(&err);
  if (!known_kind(kind))
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "unrecognized plugin kind: %s",
                          kind);
  if (!status && at) {
    *at = 0;
    if (mp_semver_parse(at + 1, &want, &err))
      status = mp_cli_error(ctx, MP_EXIT_ERROR,
                            "invalid plugin version \"%s\": %s", at + 1,
                            err.msg);
  }
  mp_plugin_list l = {0};
  if (!status && mp_cli_plugins_installed(0, &l, &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  const mp_plugin_info *best = NULL;
  for (size_t i = 0; !status && i < l.len; i++) {
    const mp_plugin_info *p = &l.items[i];
    if (strcmp(p->kind, kind) || strcmp(p->name, name)) continue;
    if (at ? !mp_semver_cmp(&p->version, &want)
           : (!best || mp_semver_cmp(&p->version, &best->version) > 0))
      best = p;
  }
  char *desc = mp_xasprintf("%s %s%s%s", kind, name, at ? "@" : "",
                            at ? at + 1 : "");
  if (!status && !best)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "could not get plugin path: no %s plugin is "
                          "installed; install it with `minipulumi plugin "
                          "install %s %s%s%s`",
                          desc, kind, name, at ? " " : "", at ? at + 1 : "");
  if (!status) {
    char *path = mp_xasprintf("%s/pulumi-%s-%s", best->path, kind, name);
    status = run_binary(ctx, path, &pos, desc);
    free(path);
  }
  free(desc);
  free(name);
  mp_plugin_list_destroy(&l);
  mp_strv_destroy(&pos);
  return status;
}
