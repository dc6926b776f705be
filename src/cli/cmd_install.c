/* minipulumi install: the project's dependencies. A Node.js project gets
 * `npm install` in its program's folder (Pulumi's nodejs host does the
 * same); a YAML project has none. Plugins are acquired when a deployment
 * needs them (docs/plugins.md), so there is nothing to fetch ahead. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi install [flags]",
    "Install the project's dependencies: `npm install` for a Node.js "
    "project, nothing for a YAML one."};

int mp_cli_npm_install(mp_ctx *ctx, const char *dir) {
  fflush(ctx->out);
  fflush(ctx->err);
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir) == 0) execlp("npm", "npm", "install", (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot run npm install: %m");
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "`npm install` in '%s' failed (status %d)%s", dir,
                        WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                        WIFEXITED(st) && WEXITSTATUS(st) == 127
                            ? "; is npm on PATH?"
                            : "");
  return 0;
}

int mp_cmd_install(int argc, const char **argv, mp_ctx *ctx) {
  int tools = 0, no_plugins = 0, no_deps = 0, reinstall = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "use-language-version-tools", &tools, "accepted; minipulumi uses the node on PATH"),
      MP_OPT_BOOL_(0, "no-plugins", &no_plugins, "accepted; plugins are acquired when a deployment needs them"),
      MP_OPT_BOOL_(0, "no-dependencies", &no_deps, "skip the language's dependencies"),
      MP_OPT_BOOL_(0, "reinstall", &reinstall, "accepted; npm install decides what to fetch again"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  int status = mp_cli_load_project(ctx);
  if (status) return status;
  const char *rt = ctx->project->runtime ? ctx->project->runtime : "";
  if (no_deps || strcmp(rt, "nodejs") != 0) {
    fprintf(ctx->out, "Nothing to install: %s\n",
            no_deps ? "--no-dependencies was given"
                    : "the project's runtime has no dependencies to install");
    return 0;
  }
  /* `main` may name the program's file rather than its folder */
  struct stat st;
  const char *dir = stat(ctx->project->program_dir, &st) == 0 &&
                            S_ISDIR(st.st_mode)
                        ? ctx->project->program_dir
                        : ctx->project->dir;
  fprintf(ctx->out, "Installing dependencies...\n\n");
  if ((status = mp_cli_npm_install(ctx, dir))) return status;
  fprintf(ctx->out, "Finished installing dependencies\n");
  return 0;
}
