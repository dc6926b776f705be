/* minipulumi watch: updates the stack whenever the project changes, as
 * `pulumi watch` does. The project folder (or each --path) is watched with
 * inotify, recursively, leaving out node_modules and dot folders; each
 * update is a child `minipulumi up --yes --skip-preview` (so that a failed
 * or crashed update never stops the watch), runs one at a time, and a
 * change seen while one runs starts one more after it. A first update runs
 * at start. Ctrl-C (or SIGTERM) is passed to a running update, then the
 * watch ends. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

extern char **environ;

/* Changes closer together than this make one update. */
#define SETTLE_MS 300

static const mp_cmd_help help = {
    "minipulumi watch [flags]",
    "Continuously update the resources in a stack.\n\n"
    "Watches the project's folder (or each --path) and updates the current "
    "stack\nwhenever a file changes, one update at a time; a first update "
    "runs at start.\nnode_modules and folders whose names start with a dot "
    "are not watched.\nCtrl-C ends it."};

static int skipped_dir(const char *name) {
  return name[0] == '.' || !strcmp(name, "node_modules");
}

/* Watches |path| and, for a folder, every folder below it. */
static void watch_tree(int fd, const char *path) {
  const uint32_t mask = IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
                        IN_MOVED_TO | IN_ATTRIB;
  if (inotify_add_watch(fd, path, mask) < 0) return;
  DIR *d = opendir(path);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
        skipped_dir(e->d_name))
      continue;
    char *sub = mp_xasprintf("%s/%s", path, e->d_name);
    struct stat st;
    if (!lstat(sub, &st) && S_ISDIR(st.st_mode)) watch_tree(fd, sub);
    free(sub);
  }
  closedir(d);
}

/* Reads the pending events; returns 1 if any names a change that counts.
 * When a folder appears, the trees are watched again from |roots| (adding
 * a watch twice is harmless), so that folders made inside new folders are
 * seen too. */
static int drain(int fd, const mp_strv *roots) {
  char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
  int changed = 0, new_dir = 0;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n <= 0) break;
    for (char *p = buf; p < buf + n;) {
      struct inotify_event *ev = (struct inotify_event *)p;
      const char *name = ev->len ? ev->name : "";
      int ignored = (ev->mask & IN_ISDIR) && skipped_dir(name);
      if (!ignored && ev->mask != IN_IGNORED) changed = 1;
      if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO)) &&
          !ignored)
        new_dir = 1;
      p += sizeof(*ev) + ev->len;
    }
  }
  if (new_dir)
    for (size_t i = 0; i < roots->len; i++) watch_tree(fd, roots->items[i]);
  return changed;
}

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) && errno == EINTR) {
  }
}

/* Runs one update as a child; returns its exit status (128+signal when it
 * was killed). A cancel asked of the watch is passed on. */
static int run_update(mp_ctx *ctx, const mp_strv *args) {
  const char **argv = mp_xcalloc(args->len + 1, sizeof(*argv));
  for (size_t i = 0; i < args->len; i++) argv[i] = args->items[i];
  pid_t pid;
  int rc = posix_spawn(&pid, "/proc/self/exe", NULL, NULL, (char **)argv,
                       environ);
  free(argv);
  if (rc) {
    fprintf(ctx->err, "error: cannot start an update: %s\n", strerror(rc));
    return 1;
  }
  int st, told = 0;
  for (;;) {
    pid_t w = waitpid(pid, &st, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return 1;
    if (ctx->interrupt && !told) {
      kill(pid, ctx->interrupt_signal ? ctx->interrupt_signal : SIGINT);
      told = 1;
    }
    sleep_ms(50);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void stamp(mp_ctx *ctx, const char *what) {
  time_t now = time(NULL);
  struct tm tm;
  char when[16];
  localtime_r(&now, &tm);
  strftime(when, sizeof(when), "%H:%M:%S", &tm);
  fprintf(ctx->out, "%s [watch] %s\n", when, what);
  fflush(ctx->out);
}

int mp_cmd_watch(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv paths, config, pos;
  mp_strv_init(&paths);
  mp_strv_init(&config);
  mp_strv_init(&pos);
  const char *message = NULL, *parallel = NULL;
  int refresh = 0, show_sames = 0, show_replacement_steps = 0;
  const mp_opt opts[] = {
      MP_OPT_LIST_(0, "path", &paths, "path", "A folder or file to watch (repeatable); defaults to the project's folder"),
      MP_OPT_LIST_('c', "config", &config, "key=value", "Config to use during the update (repeatable)"),
      MP_OPT_STR_('m', "message", &message, "text", "Optional message to associate with each update operation"),
      MP_OPT_STR_('p', "parallel", &parallel, "n", "Allow P resource operations to run in parallel at once"),
      MP_OPT_BOOL_('r', "refresh", &refresh, "Refresh the state of the stack's resources before each update"),
      MP_OPT_BOOL_(0, "show-sames", &show_sames, "Show resources that don't need be updated"),
      MP_OPT_BOOL_(0, "show-replacement-steps", &show_replacement_steps, "Show detailed resource replacement creates and deletes"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  int status = rc ? mp_args_exit_status(rc) : 0;
  char *dir = status ? NULL : mp_cli_project_dir_find(ctx);
  if (!status && !dir)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "no Pulumi.yaml project file found (searching "
                          "upwards from %s)",
                          ctx->cwd ? ctx->cwd : ".");
  int fd = -1;
  if (!status && (fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot watch files: %s",
                          strerror(errno));
  mp_strv roots, args;
  mp_strv_init(&roots);
  mp_strv_init(&args);
  if (!status) {
    for (size_t i = 0; i < paths.len; i++) {
      const char *p = paths.items[i];
      char *full = p[0] == '/' || !ctx->cwd ? mp_xstrdup(p)
                                            : mp_xasprintf("%s/%s", ctx->cwd, p);
      if (access(full, F_OK))
        status = mp_cli_error(ctx, MP_EXIT_CONFIG, "cannot watch %s: %s", full,
                              strerror(errno));
      mp_strv_push_take(&roots, full);
    }
    if (!paths.len) mp_strv_push(&roots, dir);
    for (size_t i = 0; i < roots.len; i++) watch_tree(fd, roots.items[i]);
  }
  if (!status) {
    const char *fixed[] = {"minipulumi", "up", "--yes", "--skip-preview",
                           "--suppress-outputs", "--suppress-progress"};
    for (size_t i = 0; i < MP_ARRAY_LEN(fixed); i++) mp_strv_push(&args, fixed[i]);
    const char *pairs[][2] = {{"--cwd", ctx->cwd}, {"--stack", ctx->stack},
                              {"--backend", ctx->backend},
                              {"--color", ctx->color}, {"--message", message},
                              {"--parallel", parallel}};
    for (size_t i = 0; i < MP_ARRAY_LEN(pairs); i++)
      if (pairs[i][1]) {
        mp_strv_push(&args, pairs[i][0]);
        mp_strv_push(&args, pairs[i][1]);
      }
    for (size_t i = 0; i < config.len; i++) {
      mp_strv_push(&args, "--config");
      mp_strv_push(&args, config.items[i]);
    }
    if (refresh) mp_strv_push(&args, "--refresh");
    if (show_sames) mp_strv_push(&args, "--show-sames");
    if (show_replacement_steps) mp_strv_push(&args, "--show-replacement-steps");
    if (ctx->non_interactive) mp_strv_push(&args, "--non-interactive");

    stamp(ctx, "updating the stack");
    for (;;) {
      int result = run_update(ctx, &args);
      if (ctx->interrupt) break;
      stamp(ctx, result == 0 ? "update succeeded; watching for changes"
                             : "update failed; watching for changes");
      /* Wait for a change, then for the changes to settle. */
      int changed = drain(fd, &roots);
      while (!changed && !ctx->interrupt) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 200) > 0) changed = drain(fd, &roots);
      }
      while (changed && !ctx->interrupt) {
        sleep_ms(SETTLE_MS);
        if (!drain(fd, &roots)) break;
      }
      if (ctx->interrupt) break;
      stamp(ctx, "change detected; updating the stack");
    }
    stamp(ctx, "stopped");
  }
  if (fd >= 0) close(fd);
  mp_strv_destroy(&roots);
  mp_strv_destroy(&args);
  free(dir);
  mp_strv_destroy(&paths);
  mp_strv_destroy(&config);
  mp_strv_destroy(&pos);
  return status;
}
