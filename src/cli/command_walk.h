/* The command tree, read from the commands themselves: main.c's table
 * (ctx->commands) gives the top level, and each command's own --help page
 * (printed by the same tables that parse its flags) gives its
 * subcommands and flags. So whatever walks it (gen-completion) cannot
 * drift from the commands. */
#ifndef MP_CLI_COMMAND_WALK_H
#define MP_CLI_COMMAND_WALK_H

#include "cli/ctx.h"
#include "engine/mem.h"

typedef struct mp_cmd_node {
  char *path;    /* "stack ls" */
  mp_strv subs;  /* the subcommands' names */
  mp_strv flags; /* "--json", "-j", ... (the global flags included) */
} mp_cmd_node;

typedef struct mp_cmd_tree {
  mp_cmd_node *nodes; /* parents before their children */
  size_t len;
} mp_cmd_tree;

/* Walks every command (help pages only: nothing runs). */
void mp_cli_command_tree(mp_ctx *ctx, mp_cmd_tree *out);
void mp_cli_command_tree_destroy(mp_cmd_tree *t);

#endif
