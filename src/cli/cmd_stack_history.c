/* minipulumi stack history: the stack's updates, newest first. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/json_out.h"

static const mp_cmd_help help = {
    "minipulumi stack history [flags]",
    "Show the history of the stack's updates, newest first."};

static cJSON *changes_json(const mp_update_counts *c) {
  cJSON *o = cJSON_CreateObject();
  const struct { const char *name; int64_t n; } kv[] = {
      {"create", c->create}, {"delete", c->del},       {"discard", c->discard},
      {"import", c->import}, {"read", c->read},        {"refresh", c->refresh},
      {"replace", c->replace}, {"same", c->same},      {"update", c->update}};
  for (size_t i = 0; i < MP_ARRAY_LEN(kv); i++)
    if (kv[i].n) cJSON_AddNumberToObject(o, kv[i].name, (double)kv[i].n);
  return o;
}

static void print_json(mp_ctx *ctx, const mp_history_entry *h, size_t n) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "version", (double)h[i].id);
    cJSON_AddStringToObject(o, "kind", h[i].kind);
    cJSON_AddStringToObject(o, "startTime", h[i].start);
    cJSON_AddStringToObject(o, "message", h[i].message ? h[i].message : "");
    cJSON_AddObjectToObject(o, "environment");
    cJSON_AddObjectToObject(o, "config");
    cJSON_AddStringToObject(o, "result", h[i].result);
    if (h[i].end[0]) cJSON_AddStringToObject(o, "endTime", h[i].end);
    cJSON_AddItemToObject(o, "resourceChanges", changes_json(&h[i].counts));
    cJSON_AddItemToArray(a, o);
  }
  mp_cli_cjson_emit(ctx->out, a, 2);
}

static void print_text(mp_ctx *ctx, const char *stack,
                       const mp_history_entry *h, size_t n) {
  if (!n) {
    fprintf(ctx->out, "Stack %s has never been updated\n", stack);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    const mp_update_counts *c = &h[i].counts;
    fprintf(ctx->out, "Version: %lld\nUpdateKind: %s\nStatus: %s\n",
            (long long)h[i].id, h[i].kind, h[i].result);
    if (h[i].message && *h[i].message)
      fprintf(ctx->out, "Message: %s\n", h[i].message);
    fprintf(ctx->out, "+%lld-%lld~%lld+-%lld %lld unchanged\n",
            (long long)c->create, (long long)c->del, (long long)c->update,
            (long long)c->replace, (long long)c->same);
    fprintf(ctx->out, "Started: %s\n", h[i].start);
    if (h[i].end[0]) fprintf(ctx->out, "Ended: %s\n", h[i].end);
    fputc('\n', ctx->out);
  }
}

int mp_cmd_stack_history(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0, show = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "print JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &show, "show secret config values"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  char *stack = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  mp_history_entry *h = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_history(ctx->store, mp_cli_ref(ctx, stack), &h, &n, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  } else if (json) {
    print_json(ctx, h, n);
  } else {
    print_text(ctx, stack, h, n);
  }
  for (size_t i = 0; i < n; i++) mp_history_entry_destroy(&h[i]);
  free(h);
  free(stack);
  return status;
}
