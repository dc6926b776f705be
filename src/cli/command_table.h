/* The command tables, git-style: main.c's table of commands and each
 * group's table of subcommands (`stack`, `stack tag`, `config`, `state`,
 * `plugin`, `package`, `schema`) are rows of the same type, and one
 * function runs a group: finds the subcommand its argv names, or runs the
 * group itself, or prints the one "unknown command" error. */
#ifndef MP_CLI_COMMAND_TABLE_H
#define MP_CLI_COMMAND_TABLE_H

#include "cli/args.h"
#include "cli/ctx.h"

/* argv[0] is the command's path as typed ("stack tag ls"); returns the
 * exit status. */
typedef int (*mp_cmd_fn)(int argc, const char **argv, mp_ctx *ctx);

/* One row of a command table. */
typedef struct mp_command {
  const char *name;
  mp_cmd_fn fn;
  const char *summary;    /* the row of the table in --help */
  const char *aliases[2]; /* other names it answers to; NULL: none */
} mp_command;

/* A command made of subcommands. */
typedef struct mp_cmd_group {
  const char *path;  /* "stack tag": the words that name the group */
  mp_cmd_help help;  /* its page when it has no |bare| */
  const mp_command *subs;
  size_t nsubs;
  /* Runs the group named without a subcommand (`stack` shows the current
   * stack, `config` lists the values); it parses its own flags and prints
   * its own page for --help. NULL: the page, with exit status 2 unless
   * --help asked for it. */
  mp_cmd_fn bare;
} mp_cmd_group;

/* The row of |table| that |name| names, by its name or an alias; NULL. */
const mp_command *mp_command_find(const mp_command *table, size_t n,
                                  const char *name);

/* Runs the group |g|; argv[0] is its path. The subcommand is the first
 * argument that is neither a flag nor a global flag's value, so flags may
 * come before it (`config -s dev get k`, as cobra's persistent flags);
 * it runs with argv[0] "<path> <name>" and the other arguments in their
 * order. Without one, |bare| runs, or the group's page is printed; after
 * any page of the group, the table of its subcommands. A name the table
 * lacks: "unknown command", with the names it has, exit 2. */
int mp_cmd_group_run(mp_ctx *ctx, const mp_cmd_group *g, int argc,
                     const char **argv);

#endif
