#include "cli/command_table.h"

#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "engine/prog_name.h"

static int answers_to(const mp_command *c, const char *name) {
  if (!strcmp(c->name, name)) return 1;
  for (size_t k = 0; k < MP_ARRAY_LEN(c->aliases); k++)
    if (c->aliases[k] && !strcmp(c->aliases[k], name)) return 1;
  return 0;
}

const mp_command *mp_command_find(const mp_command *table, size_t n,
                                  const char *name) {
  for (size_t i = 0; i < n; i++)
    if (answers_to(&table[i], name)) return &table[i];
  return NULL;
}

static void print_subs(mp_ctx *ctx, const mp_cmd_group *g) {
  fprintf(ctx->out, "\nSubcommands:\n");
  for (size_t i = 0; i < g->nsubs; i++)
    fprintf(ctx->out, "  %-10s %s\n", g->subs[i].name, g->subs[i].summary);
}

static int unknown(mp_ctx *ctx, const mp_cmd_group *g, const char *name) {
  mp_buf names;
  mp_buf_init(&names);
  for (size_t i = 0; i < g->nsubs; i++)
    mp_buf_printf(&names, "%s%s",
                  i == 0 ? "" : i + 1 == g->nsubs ? " or " : ", ",
                  g->subs[i].name);
  mp_cli_error(ctx, MP_EXIT_CONFIG,
               "unknown command \"%s\" for \"%s %s\"; expected %s%s", name,
               mp_prog_name(), g->path, g->nsubs > 1 ? "one of " : "",
               names.data ? names.data : "");
  fprintf(ctx->err, "Run '%s %s --help' for usage.\n", mp_prog_name(),
          g->path);
  mp_buf_destroy(&names);
  return MP_EXIT_CONFIG;
}

/* The group without a subcommand and without a |bare| of its own: its
 * page, after the global flags given (if any) are read; exit status 2
 * unless --help asked for it. */
static int page(mp_ctx *ctx, const mp_cmd_group *g, int argc,
                const char **argv) {
  static const mp_opt none[] = {MP_OPT_END_};
  mp_strv pos;
  mp_strv_init(&pos);
  int rc = mp_args_parse(ctx, &g->help, none, argc, argv, &pos);
  mp_strv_destroy(&pos);
  if (rc == MP_ARGS_ERROR) return mp_args_exit_status(rc);
  if (rc == MP_ARGS_OK) mp_args_print_usage(ctx, &g->help, NULL);
  print_subs(ctx, g);
  return rc == MP_ARGS_OK ? MP_EXIT_CONFIG : mp_args_exit_status(rc);
}

int mp_cmd_group_run(mp_ctx *ctx, const mp_cmd_group *g, int argc,
                     const char **argv) {
  int at = mp_args_first_positional(ctx, argc, argv);
  if (at >= argc) {
    if (!g->bare) return page(ctx, g, argc, argv);
    int status = g->bare(argc, argv, ctx);
    if (status == MP_EXIT_HELP_SHOWN) print_subs(ctx, g);
    return status;
  }
  const mp_command *c = mp_command_find(g->subs, g->nsubs, argv[at]);
  if (!c) return unknown(ctx, g, argv[at]);
  char *path = mp_xasprintf("%s %s", g->path, c->name);
  const char **args = mp_xcalloc((size_t)argc, sizeof(*args));
  args[0] = path;
  for (int a = 1, k = 1; a < argc; a++)
    if (a != at) args[k++] = argv[a];
  int status = c->fn(argc - 1, args, ctx);
  free(args);
  free(path);
  return status;
}
