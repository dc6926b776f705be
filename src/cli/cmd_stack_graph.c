/* minipulumi stack graph FILE: the stack's resources, their dependencies
 * and their parents as a Graphviz picture. DOT is written as Pulumi writes
 * it; --format svg|png renders it with Graphviz's `dot` command, which
 * lays the graph out (a child process: the layout engine is Graphviz's,
 * not ours). */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "engine/graph_dot.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

extern char **environ;

static const mp_cmd_help help = {
    "minipulumi stack graph <filename> [flags]",
    "Export a stack's dependency graph to a file.\n\n"
    "The graph of the stack's most recent deployment, in the DOT format: a "
    "node per\nresource, an edge from each dependency to its dependent "
    "(labelled with the\nproperties that carry it) and from each child to "
    "its parent. --format svg or\npng renders it with Graphviz's `dot` "
    "command (Debian's graphviz package)."};

static int write_file(mp_ctx *ctx, const char *path, const mp_buf *b) {
  FILE *f = fopen(path, "w");
  if (!f)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write %s: %s", path,
                        strerror(errno));
  size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
  int bad = n != b->len;
  if (fclose(f) || bad)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write %s: %s", path,
                        strerror(errno));
  return 0;
}

/* |path| as `dot` reads it as a file, never as an option: a relative
 * name that starts with '-' gets a leading "./". Owned. */
static char *file_arg(const char *path) {
  return mp_xasprintf("%s%s", path[0] == '-' ? "./" : "", path);
}

/* Runs `dot -T<format> -o<path> <dotfile>`, naming what to install when
 * Graphviz is missing. The output name is glued to -o, which takes the
 * rest of its argument whatever it is. */
static int render(mp_ctx *ctx, const char *format, const char *dotfile,
                  const char *path) {
  char *t = mp_xasprintf("-T%s", format);
  char *o = mp_xasprintf("-o%s", path);
  char *in = file_arg(dotfile);
  char *argv[] = {"dot", t, o, in, NULL};
  pid_t pid;
  int rc = posix_spawnp(&pid, "dot", NULL, NULL, argv, environ);
  free(t);
  free(o);
  free(in);
  if (rc == ENOENT)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "rendering --format %s needs Graphviz's `dot` command, "
                        "which is not on PATH; install Graphviz (Debian: "
                        "apt-get install graphviz), or leave out --format to "
                        "write DOT",
                        format);
  if (rc)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot start Graphviz's `dot`: %s",
                        strerror(rc));
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st))
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "Graphviz's `dot` could not render %s as %s (its "
                        "message is above)",
                        path, format);
  return 0;
}

static int render_via_temp(mp_ctx *ctx, const char *format, const char *path,
                           const mp_buf *dot) {
  char *tmp = mp_xasprintf("%s.dot-XXXXXX", path);
  int fd = mkstemp(tmp);
  int status;
  if (fd < 0) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write beside %s: %s",
                          path, strerror(errno));
  } else {
    close(fd);
    status = write_file(ctx, tmp, dot);
    if (!status) status = render(ctx, format, tmp, path);
    unlink(tmp);
  }
  free(tmp);
  return status;
}

int mp_cmd_stack_graph(int argc, const char **argv, mp_ctx *ctx) {
  mp_graph_opts o = {0};
  const char *format = "dot";
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "ignore-parent-edges", &o.ignore_parent_edges,
                   "Ignores edges introduced by parent/child resource "
                   "relationships"),
      MP_OPT_BOOL_(0, "ignore-dependency-edges", &o.ignore_dependency_edges,
                   "Ignores edges introduced by dependency resource "
                   "relationships"),
      MP_OPT_STR_(0, "dependency-edge-color", &o.dependency_color, "color",
                  "Sets the color of dependency edges in the graph (default "
                  "#246C60)"),
      MP_OPT_STR_(0, "parent-edge-color", &o.parent_color, "color",
                  "Sets the color of parent edges in the graph (default "
                  "#AA6639)"),
      MP_OPT_BOOL_(0, "short-node-name", &o.short_node_name,
                   "Sets the resource name as the node label for each node "
                   "of the graph"),
      MP_OPT_STR_(0, "dot-fragment", &o.dot_fragment, "dot",
                  "A DOT fragment inserted at the top of the digraph"),
      MP_OPT_STR_(0, "format", &format, "dot|svg|png",
                  "The file's format: DOT (default), or a picture rendered "
                  "by Graphviz"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) {
    mp_strv_destroy(&pos);
    return mp_args_exit_status(rc);
  }
  int status = 0;
  if (strcmp(format, "dot") && strcmp(format, "svg") && strcmp(format, "png"))
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "unknown --format \"%s\": expected dot, svg or png",
                          format);
  char *stack = NULL;
  mp_snapshot *snap = NULL;
  mp_crypter c;
  int has_c = 0;
  if (!status) status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status) status = mp_cli_load_snapshot(ctx, stack, &snap, &c, &has_c);
  if (!status) {
    mp_buf dot;
    mp_buf_init(&dot);
    mp_graph_dot(snap, &o, &dot);
    const char *path = pos.items[0];
    status = !strcmp(format, "dot") ? write_file(ctx, path, &dot)
                                    : render_via_temp(ctx, format, path, &dot);
    mp_buf_destroy(&dot);
    if (!status)
      fprintf(ctx->out, "%sWrote stack dependency graph to `%s`\n",
              ctx->emoji ? "\xf0\x9f\x94\x8d " : "", path);
  }
  mp_snapshot_free(snap);
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
