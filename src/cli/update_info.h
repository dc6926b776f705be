/* What an operation records with its history entry, as Pulumi's
 * backend.UpdateInfo has it (update_info.c): the metadata environment and
 * the stack's config. */
#ifndef MP_CLI_UPDATE_INFO_H
#define MP_CLI_UPDATE_INFO_H

#include "cli/ctx.h"

/* The environment map Pulumi's metadata.GetUpdateMetadata writes, as JSON
 * text (owned): exec.kind (cli, auto.local or auto.inline; anything else is
 * cli) and exec.agent from --exec-kind/--exec-agent, pulumi.version,
 * pulumi.os, pulumi.arch, updatePlan, and git.head/git.headName when the
 * project is in a Git work tree (read from .git, no git process). */
char *mp_cli_update_environment(const mp_ctx *ctx, const char *exec_kind,
                                const char *exec_agent);
/* The `config` mapping of the stack's config file |path| as a JSON object's
 * text (secrets stay `{"secure": ...}`), or NULL if unreadable. Owned. */
char *mp_cli_update_config(const char *path);

#endif
