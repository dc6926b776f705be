#include "cli/op_output.h"

#include <stdlib.h>
#include <string.h>

#include "cli/config_cmd.h"
#include "cli/messages.h"
#include "cli/render.h"

void mp_op_output_opts_init(mp_op_output_opts *t, mp_op_output *m) {
  const mp_opt rows[] = {
      MP_OPT_BOOL_('d', "debug", &m->debug,
                   "Print detailed debugging output during resource operations"),
      MP_OPT_BOOL_(0, "show-config", &m->show_config,
                   "Show configuration keys and variables"),
      MP_OPT_BOOL_(0, "show-full-output", &m->show_full_output,
                   "Display full length of stack outputs (they are never "
                   "truncated)"),
      MP_OPT_BOOL_(0, "suppress-permalink", &m->suppress_permalink,
                   "Suppress display of the state permalink (there is none)"),
      MP_OPT_END_, MP_OPT_END_};
  _Static_assert(sizeof(rows) == sizeof(t->rows),
                 "mp_op_output_opts.rows");
  memcpy(t->rows, rows, sizeof(rows));
}

int mp_op_output_check(mp_ctx *ctx, const mp_op_output *m) {
  const char *p = m->secrets_provider;
  if (p && strcmp(p, "passphrase") && strcmp(p, "default"))
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "unsupported secrets provider '%s'; minipulumi has "
                        "'passphrase' (also called 'default')",
                        p);
  return 0;
}

void mp_op_output_show_config(mp_ctx *ctx, const char *stack) {
  mp_cfg_cmd c;
  if (mp_cfg_open(ctx, stack, &c, 0) == 0) {
    const mp_value *all = mp_stack_config_values(&c.file);
    fprintf(ctx->out, "Configuration:\n");
    for (size_t i = 0; all && i < all->u.obj.len; i++) {
      const mp_value *v = all->u.obj.items[i].value;
      mp_buf b;
      mp_buf_init(&b);
      if (mp_config_is_secure(v)) mp_buf_puts(&b, "[secret]");
      else if (v->kind == MP_VALUE_STRING) mp_buf_puts(&b, v->u.str.ptr);
      else mp_cli_value_json(v, 0, 0, &b);
      fprintf(ctx->out, "    %s: %s\n", all->u.obj.items[i].key,
              b.data ? b.data : "");
      mp_buf_destroy(&b);
    }
    fprintf(ctx->out, "\n");
  }
  mp_cfg_close(&c);
}
