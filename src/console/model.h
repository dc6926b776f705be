/* The console's data, as JSON (cJSON trees): what the /api/ routes send
 * and what the pages are drawn from, so that both show the same thing and
 * secrets are masked in one place (docs/console.md, "The API"). Each
 * returns NULL with |err| set on failure (MP_ENOENT: no such stack or
 * resource). */
#ifndef MP_CONSOLE_MODEL_H
#define MP_CONSOLE_MODEL_H

#include <cjson/cJSON.h>

#include "console/console.h"

/* A property value; secrets as "[secret]" unless |show| (values.c). */
cJSON *mp_console_value_json(const mp_value *v, int show);

/* The stacks whose project or name contains |q| and that have the tag
 * |tag| ("name" or "name=value"); NULL or "": no filter. */
cJSON *mp_console_stacks(const mp_console_src *src, const char *q,
                         const char *tag, mp_err *err);
/* One stack: outputs, config, tags, resources (in checkpoint order, each
 * with its parent and flags) and pending operations. */
cJSON *mp_console_stack(const mp_console_src *src, mp_stack_ref st,
                        mp_err *err);
/* One resource of the stack, by URN. */
cJSON *mp_console_resource(const mp_console_src *src, mp_stack_ref st,
                           const char *urn, mp_err *err);
/* Every update of the stack, newest first. */
cJSON *mp_console_history(const mp_console_src *src, mp_stack_ref st,
                          mp_err *err);

/* Update |version| of the stack (update_model.c): its history entry with
 * its steps (each with its start, end, status, --diff text and whether it
 * is on the longest chain), diagnostics, policy violations and summary,
 * from the events the store kept; MP_ENOENT if there is no such update. */
cJSON *mp_console_update(const mp_console_src *src, mp_stack_ref st,
                         int64_t version, mp_err *err);

#endif
