/* The parts of `about` that read the program (about_parts.c). */
#ifndef MP_CLI_ABOUT_H
#define MP_CLI_ABOUT_H

#include <cjson/cJSON.h>

#include "cli/ctx.h"

/* Pulumi's `plugins` of about --json for the loaded project: its language
 * host, then each plugin it needs, {name, version (null: unknown), kind}. */
cJSON *mp_cli_about_plugins(mp_ctx *ctx);
/* Pulumi's `dependencies`: a Node.js program's package.json dependencies
 * at their installed versions, {name, version}; none for YAML. What cannot
 * be read is added to |errors|. */
cJSON *mp_cli_about_dependencies(mp_ctx *ctx, cJSON *errors);

#endif
