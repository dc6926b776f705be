/* minipulumi stack output [NAME]: the outputs of the stack's root resource
 * (type pulumi:pulumi:Stack). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/render.h"
#include "cli/secrets.h"
#include "cli/shell_quote.h"
#include "cli/workspace.h"
#include "engine/urn.h"

static const mp_cmd_help help = {
    "minipulumi stack output [<property-name>] [flags]",
    "Show the stack's output properties; secrets are shown as [secret] "
    "unless\n--show-secrets is given."};

const mp_value *mp_cli_stack_outputs(const mp_snapshot *s) {
  for (size_t i = 0; i < s->nres; i++)
    if (!s->res[i]->delete_ && !strcmp(s->res[i]->type, MP_ROOT_STACK_TYPE))
      return s->res[i]->outputs;
  return NULL;
}

/* |name|=|text| for a POSIX shell's eval (Pulumi's --shell). */
static void print_shell(mp_ctx *ctx, const char *name, const char *text) {
  mp_buf q;
  mp_buf_init(&q);
  mp_shell_quote(&q, text);
  fprintf(ctx->out, "%s=%s\n", name, q.data ? q.data : "");
  mp_buf_destroy(&q);
}

/* |shell|: the output's name, for a shell line; else NULL. */
static void print_one(mp_ctx *ctx, const mp_value *v, unsigned flags, int json,
                      const char *shell) {
  mp_buf b;
  mp_buf_init(&b);
  int secret = v->kind == MP_VALUE_SECRET ||
               (v->kind == MP_VALUE_OUTPUT && v->u.output.secret);
  if (json) {
    mp_cli_value_json(v, flags, 1, &b);
  } else if (secret && !(flags & MP_RENDER_SHOW_SECRETS)) {
    mp_buf_puts(&b, "[secret]");
  } else {
    mp_value *plain = mp_value_strip_secrets(v);
    if (plain->kind == MP_VALUE_STRING) mp_buf_puts(&b, plain->u.str.ptr);
    else mp_cli_value_json(plain, MP_RENDER_SHOW_SECRETS, 0, &b);
    mp_value_free(plain);
  }
  if (shell) print_shell(ctx, shell, b.data ? b.data : "");
  else fprintf(ctx->out, "%s\n", b.data ? b.data : "");
  mp_buf_destroy(&b);
}

static int by_key(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every output as a shell line, sorted by name, as Pulumi writes them. */
static void print_shell_all(mp_ctx *ctx, const mp_value *o, unsigned flags) {
  size_t n = o ? o->u.obj.len : 0;
  const char **keys = mp_xcalloc(n + 1, sizeof(*keys));
  for (size_t i = 0; i < n; i++) keys[i] = o->u.obj.items[i].key;
  qsort(keys, n, sizeof(*keys), by_key);
  for (size_t i = 0; i < n; i++)
    print_one(ctx, mp_value_object_get(o, keys[i]), flags, 0, keys[i]);
  free(keys);
}

void mp_cli_print_outputs(mp_ctx *ctx, const mp_value *o, unsigned flags,
                          int heading) {
  size_t n = o ? o->u.obj.len : 0;
  if (!n) {
    if (heading) fprintf(ctx->out, "Current stack outputs (0):\n    ");
    fprintf(ctx->out, "No output values currently in this stack\n");
    return;
  }
  size_t w = 6;
  for (size_t i = 0; i < n; i++)
    if (strlen(o->u.obj.items[i].key) > w) w = strlen(o->u.obj.items[i].key);
  fprintf(ctx->out, "Current stack outputs (%zu):\n    %-*s  VALUE\n", n,
          (int)w, "OUTPUT");
  for (size_t i = 0; i < n; i++) {
    fprintf(ctx->out, "    %-*s  ", (int)w, o->u.obj.items[i].key);
    print_one(ctx, o->u.obj.items[i].value, flags, 0, NULL);
  }
}

int mp_cmd_stack_output(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0, show = 0, shell = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "print JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &show, "show secret values"),
      MP_OPT_BOOL_(0, "shell", &shell,
                   "Emit output as a shell script (NAME=value lines)"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  if (shell && json) {
    mp_strv_destroy(&pos);
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "only one of --json and --shell may be set");
  }
  char *stack = NULL;
  mp_snapshot *snap = NULL;
  mp_crypter c;
  int has_c = 0;
  ctx->project_optional = 1;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status) status = mp_cli_load_snapshot(ctx, stack, &snap, &c, &has_c);
  if (!status) {
    unsigned flags = show ? MP_RENDER_SHOW_SECRETS : 0;
    const mp_value *outs = mp_cli_stack_outputs(snap);
    if (pos.len) {
      const mp_value *v = outs ? mp_value_object_get(outs, pos.items[0]) : NULL;
      if (!v)
        status = mp_cli_error(ctx, MP_EXIT_ERROR,
                              "current stack does not have output property "
                              "'%s'",
                              pos.items[0]);
      else
        print_one(ctx, v, flags, json, shell ? pos.items[0] : NULL);
    } else if (shell) {
      print_shell_all(ctx, outs, flags);
    } else if (json) {
      mp_value *empty = mp_value_new_object();
      print_one(ctx, outs ? outs : empty, flags, 1, NULL);
      mp_value_free(empty);
    } else {
      mp_cli_print_outputs(ctx, outs, flags, 0);
    }
  }
  mp_snapshot_free(snap);
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
