/* Display of values and stacks: values as text or JSON (render.c,
 * display.c), the stack's outputs (cmd_stack_output.c) and view
 * (stack_view.c), times and sizes as Pulumi prints them (humanize.c). */
#ifndef MP_CLI_RENDER_H
#define MP_CLI_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cli/ctx.h"
#include "engine/mem.h"
#include "engine/snapshot.h"
#include "engine/value.h"

enum mp_render_flags {
  MP_RENDER_SHOW_SECRETS = 1 << 0,
  MP_RENDER_RAW_STRINGS = 1 << 1 /* top-level strings without quotes */
};

/* Appends a Pulumi-like rendering of |v| ("text", 42, [secret], objects on
 * several lines indented by |indent| spaces). */
void mp_cli_render_value(const mp_value *v, unsigned flags, int indent,
                         mp_buf *out);
/* JSON text of |v| with secrets masked as "[secret]" unless
 * MP_RENDER_SHOW_SECRETS. Pretty (two spaces) if |pretty|. */
void mp_cli_value_json(const mp_value *v, unsigned flags, int pretty,
                       mp_buf *out);

/* The display width of UTF-8 text |s|: its code points (the tree's box
 * characters are one column each). */
size_t mp_cli_text_width(const char *s);

/* The outputs of the stack's root resource in |s| (borrowed; NULL if
 * none). */
const mp_value *mp_cli_stack_outputs(const mp_snapshot *s);
/* Pulumi's OUTPUT/VALUE table of |outputs| (secrets as [secret] unless
 * MP_RENDER_SHOW_SECRETS in |flags|); with |heading|, always under
 * `Current stack outputs (N):`. */
void mp_cli_print_outputs(mp_ctx *ctx, const mp_value *outputs,
                          unsigned flags, int heading);
/* `minipulumi stack`: the current stack, its resources as a TYPE/NAME tree
 * (with their URNs and IDs when asked) and its outputs. Exit status. */
int mp_cli_stack_view(mp_ctx *ctx, int show_urns, int show_ids,
                      int show_secrets, int show_name);

/* How long before |now| |t| was, in Pulumi's words ("now", "1 second ago",
 * "2 minutes ago", ... "a long while ago"; cli/humanize.c). */
void mp_cli_ago(time_t t, time_t now, char *buf, size_t n);
/* |size| in SI units as Pulumi prints it: "7 B", "4.2 kB", "12 MB". */
void mp_cli_bytes(uint64_t size, char *buf, size_t n);

#endif
