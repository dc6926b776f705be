/* The commands (one file each, cmd_*.c), registered in main.c's one
 * table. What they share is in the headers beside this one, each with one
 * job: messages.h (exit statuses, errors, prompts), workspace.h (project,
 * store, stack reference), backend.h (backend and logins), secrets.h,
 * config_values.h, stack_create.h, render.h (display), operation.h,
 * providers.h, plugins.h, children.h. */
#ifndef MP_CLI_CLI_H
#define MP_CLI_CLI_H

#include "cli/ctx.h"

/* ---- commands (one file each) ---- */
int mp_cmd_version(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_install(int argc, const char **argv, mp_ctx *ctx);
/* What `version` and `--version` print (cmd_version.c), and the same
 * without the "v" and the newline, into |buf|. */
void mp_cli_print_version(mp_ctx *ctx);
void mp_cli_version_text(char *buf, size_t n);
int mp_cmd_about(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_up(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_preview(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_refresh(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_import(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_destroy(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_new(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_watch(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_cancel(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_login(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_logout(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_whoami(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_console(int argc, const char **argv, mp_ctx *ctx);

/* stack subcommands (cmd_stack_*.c), dispatched by cmd_stack.c */
int mp_cmd_stack_init(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_ls(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_select(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_rm(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_rename(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_output(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_export(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_import(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_history(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_graph(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_unselect(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_stack_change_secrets_provider(int argc, const char **argv,
                                         mp_ctx *ctx);
int mp_cmd_stack_tag(int argc, const char **argv, mp_ctx *ctx);

/* config subcommands (cmd_config_*.c), dispatched by cmd_config.c */
int mp_cmd_config_set(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_get(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_rm(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_set_all(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_rm_all(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_cp(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_config_refresh(int argc, const char **argv, mp_ctx *ctx);

/* `state` and its subcommands (cmd_state*.c) */
int mp_cmd_state(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_ls(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_rm(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_run(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_plugin_install(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_delete(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_unprotect(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_rename(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_repair(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_move(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_edit(int argc, const char **argv, mp_ctx *ctx);

int mp_cmd_state_protect(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_taint(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_untaint(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_state_upgrade(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_gen_completion(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_package(int argc, const char **argv, mp_ctx *ctx);
int mp_cmd_schema(int argc, const char **argv, mp_ctx *ctx);

#endif
