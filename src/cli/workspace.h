/* The workspace (workspace.c): the project (Pulumi.yaml), the state store
 * and the stack reference. The bottom of the workspace helpers: the
 * secrets (secrets.h) and stack creation (stack_create.h) sit above it. */
#ifndef MP_CLI_WORKSPACE_H
#define MP_CLI_WORKSPACE_H

#include "cli/ctx.h"
#include "state/store.h"

/* Loads Pulumi.yaml, searching upwards from --cwd (or the current folder).
 * Sets ctx->project. Returns an exit status. */
int mp_cli_load_project(mp_ctx *ctx);
/* Opens the state store at mp_cli_backend_url with mp_cli_store_opts. Sets
 * ctx->store and ctx->backend_url. Returns an exit status. */
int mp_cli_store(mp_ctx *ctx);
/* The folder of the Pulumi.yaml that mp_cli_load_project would load
 * (owned), or NULL; prints nothing. */
char *mp_cli_project_dir_find(const mp_ctx *ctx);
/* Runs `npm install` in |dir|, its output going to ours (cmd_install.c;
 * `install` and `new` use it). Exit status. */
int mp_cli_npm_install(mp_ctx *ctx, const char *dir);
/* mp_cli_store for a head start: only a backend given by --backend or the
 * environment that exists already, and no message on any failure (-1):
 * mp_cli_store then tries again and reports it. Returns 0 or -1. */
int mp_cli_store_quiet(mp_ctx *ctx);

/* Resolves the stack to work on: |name| if given (any form
 * mp_cli_stack_parse accepts), else --stack, else the project's selected
 * stack. With |must_exist| a missing stack is `no stack named '<x>' found` (exit 6).
 * Needs the project and the store (opened here); with
 * ctx->project_optional, a fully qualified name outside a project folder
 * names its project (its config path is then NULL). *out: owned name. */
int mp_cli_stack(mp_ctx *ctx, const char *name, int must_exist, char **out);
/* Parses the stack reference |ref| — `<stack>`, `organization/<stack>` or
 * `organization/<project>/<stack>`, as Pulumi's diy backends do — into
 * the stack's name in *out (owned). Refuses another organization, a
 * project other than the current one (Pulumi's `provided project name
 * "<p>" doesn't match Pulumi.yaml`, exit 1) and an invalid name (exit
 * 2). Loads the project. Returns an exit status. */
int mp_cli_stack_parse(mp_ctx *ctx, const char *ref, char **out);
/* The path of Pulumi.<stack>.yaml beside the project. Owned. */
char *mp_cli_stack_config_path(const mp_ctx *ctx, const char *stack);
/* The stack reference for |stack| in the loaded project. */
mp_stack_ref mp_cli_ref(const mp_ctx *ctx, const char *stack);
/* 1 if |name| is a valid stack name. */
int mp_cli_stack_name_valid(const char *name);

#endif
