/* The flags of up, preview, refresh and destroy that Pulumi's Automation
 * API passes (sdk/nodejs/automation/stack.ts): its inline program's
 * language runtime, the kind and agent of the run, and a stack config
 * file of its own. */
#include "cli/operation.h"

#include <string.h>

#include "cli/secrets.h"

void mp_op_automation_opts_init(mp_opt *rows, mp_op_flags *f) {
  const mp_opt r[] = {
      MP_OPT_STR_(0, "client", &f->client, "address", "run the program through the language runtime served at this address (127.0.0.1:PORT), as the Automation API does for an inline program"),
      MP_OPT_STR_(0, "exec-kind", &f->exec_kind, "kind", "how the command was started (auto.local, auto.inline, cli)"),
      MP_OPT_STR_(0, "exec-agent", &f->exec_agent, "agent", "the agent that started the command"),
      MP_OPT_STR_(0, "config-file", &f->config_file, "file", "use this file for the stack's configuration instead of Pulumi.<stack>.yaml"),
      MP_OPT_END_};
  memcpy(rows, r, sizeof(r));
}

/* 1 if |urn| is in |keep|. */
static int kept(const mp_strv *keep, const char *urn) {
  return mp_strv_contains(keep, urn);
}

int mp_cli_exclude_protected(mp_ctx *ctx, const char *stack, mp_op_flags *f,
                             int *nothing_left) {
  mp_snapshot *snap = NULL;
  mp_crypter c;
  int has_c = 0;
  *nothing_left = 0;
  int status = mp_cli_load_snapshot(ctx, stack, &snap, &c, &has_c);
  if (status) return status;
  /* What stays: the protected resources and, transitively, whatever they
   * need (parent, dependencies, provider, deletedWith). Newest first, so
   * that one pass sees a resource before what it needs. */
  mp_strv keep;
  mp_strv_init(&keep);
  size_t protected_n = 0;
  for (size_t i = snap->nres; i-- > 0;) {
    const mp_resource *r = snap->res[i];
    if (r->protect) protected_n++;
    if (!r->protect && !kept(&keep, r->urn)) continue;
    if (!kept(&keep, r->urn)) mp_strv_push(&keep, r->urn);
    mp_strv refs;
    mp_strv_init(&refs);
    mp_resource_refs(r, MP_REF_ALL, &refs);
    for (size_t j = 0; j < refs.len; j++)
      if (!kept(&keep, refs.items[j])) mp_strv_push(&keep, refs.items[j]);
    mp_strv_destroy(&refs);
  }
  for (size_t i = 0; i < snap->nres; i++)
    if (!kept(&keep, snap->res[i]->urn))
      mp_strv_push(&f->targets, snap->res[i]->urn);
  if (f->targets.len == 0) {
    *nothing_left = 1;
    fprintf(ctx->out,
            "There were no unprotected resources to destroy. There are "
            "still %zu protected resources associated with this stack.\n",
            protected_n);
  }
  mp_strv_destroy(&keep);
  mp_snapshot_free(snap);
  return 0;
}
