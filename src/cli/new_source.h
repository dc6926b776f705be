/* Where `minipulumi new` finds its templates (new_source.c) and how it
 * asks for the template's config (new_config.c). */
#ifndef MP_CLI_NEW_SOURCE_H
#define MP_CLI_NEW_SOURCE_H

#include <stddef.h>

#include "cli/ctx.h"
#include "cli/template_dir.h"
#include "engine/mem.h"

/* The templates that |arg| names, as Pulumi's RetrieveTemplates reads it:
 * a git URL (cloned into a temporary folder, *clone: owned, to remove
 * after; refused with |offline|), an existing path, or a name: the
 * folder of that name in ~/.pulumi/templates (mp_tpl_home_dir), else the
 * built-in template. A relative path is read from |base|, the folder the
 * project goes to (Pulumi's new changes into --dir before it looks).
 * |arg| NULL: every installed and built-in template.
 * Appends to |*out|/|*n|. Returns an exit status (after the error). */
int mp_new_templates(mp_ctx *ctx, const char *arg, const char *base,
                     int offline, mp_tpl **out, size_t *n, char **clone);
/* Pulumi's list of templates: each name padded to the longest, four
 * spaces, its description; sorted. |lines| gets owned strings. */
void mp_new_template_lines(const mp_tpl *t, size_t n, mp_strv *lines);

/* After the stack is made (ctx->cwd the new project): the template's
 * config values, each asked (unless |yes|; the default from the
 * template) unless given by -c (|given|: key=value), then the other -c
 * values, saved with `config set` (--path with |path|). Prints "Saved
 * config" when any. Returns an exit status. */
int mp_new_config(mp_ctx *ctx, const mp_tpl *t, const char *project,
                  const mp_strv *given, int yes, int path);
/* The value asked for on a terminal as Pulumi's promptForValue: "|what|:
 * (|*value|) " (the default hidden as [secret] when |secret|); Enter
 * keeps *value. Returns 0 or -1 (end of input). */
int mp_new_ask(mp_ctx *ctx, const char *what, int secret, char **value);

#endif
