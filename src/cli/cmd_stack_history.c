/* minipulumi stack history: the stack's updates, newest first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/render.h"
#include "cli/workspace.h"

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

/* The recorded config as Pulumi's history shows it (configValueJSON):
 * each key's value, `secret` and `object`; a secret's value is left out. */
static cJSON *config_json(const char *text) {
  cJSON *out = cJSON_CreateObject();
  cJSON *cfg = text ? cJSON_Parse(text) : NULL;
  const cJSON *v, *list = cJSON_IsObject(cfg) ? cfg : NULL;
  cJSON_ArrayForEach(v, list) {
    cJSON *e = cJSON_AddObjectToObject(out, v->string);
    const cJSON *secure = cJSON_GetObjectItemCaseSensitive(v, "secure");
    int secret = cJSON_IsObject(v) && cJSON_IsString(secure);
    if (cJSON_IsString(v)) {
      cJSON_AddStringToObject(e, "value", v->valuestring);
    } else if (!secret) {
      char *t = cJSON_PrintUnformatted(v);
      cJSON_AddStringToObject(e, "value", t);
      cJSON_free(t);
    }
    cJSON_AddBoolToObject(e, "secret", secret);
    cJSON_AddBoolToObject(e, "object", !secret && !cJSON_IsString(v));
  }
  cJSON_Delete(cfg);
  return out;
}

static void print_json(mp_ctx *ctx, const mp_history_entry *h, size_t n) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "version", (double)h[i].id);
    cJSON_AddStringToObject(o, "kind", h[i].kind);
    cJSON_AddStringToObject(o, "startTime", h[i].start);
    cJSON_AddStringToObject(o, "message", h[i].message ? h[i].message : "");
    cJSON *env = h[i].environment ? cJSON_Parse(h[i].environment) : NULL;
    cJSON_AddItemToObject(o, "environment",
                          cJSON_IsObject(env) ? env : cJSON_CreateObject());
    if (!cJSON_IsObject(env)) cJSON_Delete(env);
    cJSON_AddItemToObject(o, "config", config_json(h[i].config));
    cJSON_AddStringToObject(o, "result", h[i].result);
    if (h[i].end[0]) cJSON_AddStringToObject(o, "endTime", h[i].end);
    cJSON_AddItemToObject(o, "resourceChanges", changes_json(&h[i].counts));
    cJSON_AddItemToArray(a, o);
  }
  mp_cli_cjson_emit(ctx->out, a, 2);
}

/* Seconds since the epoch of a stored "YYYY-MM-DDTHH:MM:SSZ", or -1. */
static time_t parse_utc(const char *iso) {
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  if (iso == NULL || sscanf(iso, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon,
                            &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                            &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return timegm(&tm);
}

/* A whole number of seconds as Go prints a duration: 0s, 9s, 2m0s, 1h2m3s. */
static void duration(long long s, char *buf, size_t n) {
  if (s < 0) s = 0;
  if (s >= 3600)
    snprintf(buf, n, "%lldh%lldm%llds", s / 3600, s % 3600 / 60, s % 60);
  else if (s >= 60)
    snprintf(buf, n, "%lldm%llds", s / 60, s % 60);
  else
    snprintf(buf, n, "%llds", s);
}

static void print_text(mp_ctx *ctx, const mp_history_entry *h, size_t n,
                       int page, int full_dates) {
  if (!n) {
    if (page > 1) fprintf(ctx->out, "No stack updates found on page '%d'\n", page);
    else fprintf(ctx->out, "Stack has never been updated\n");
    return;
  }
  time_t now = time(NULL);
  for (size_t i = 0; i < n; i++) {
    const mp_update_counts *c = &h[i].counts;
    fprintf(ctx->out, "Version: %lld\nUpdateKind: %s\nStatus: %s\n",
            (long long)h[i].id, h[i].kind, h[i].result);
    fprintf(ctx->out, "Message: %s\n", h[i].message ? h[i].message : "");
    fprintf(ctx->out, "+%lld-%lld~%lld %lld", (long long)c->create,
            (long long)c->del, (long long)c->update, (long long)c->same);
    time_t t0 = parse_utc(h[i].start), t1 = parse_utc(h[i].end);
    char when[64], took[32];
    if (full_dates) {
      struct tm tm;
      localtime_r(&t0, &tm);
      strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z %Z", &tm);
    } else {
      mp_cli_ago(t0, now, when, sizeof(when));
    }
    duration(t1 >= t0 ? (long long)(t1 - t0) : 0, took, sizeof(took));
    fprintf(ctx->out, " Updated %s took %s\n\n", when, took);
  }
}

int mp_cmd_stack_history(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0, show = 0, full_dates = 0, page_size = 10, page = 1;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "print JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &show, "show secret config values"),
      MP_OPT_BOOL_(0, "full-dates", &full_dates,
                   "show full dates, instead of relative dates"),
      MP_OPT_INT_(0, "page-size", &page_size, "N",
                  "used with 'page' to control the number of results (0: all)"),
      MP_OPT_INT_(0, "page", &page, "N", "used with 'page-size' to paginate results"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  char *stack = NULL;
  ctx->project_optional = 1;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  mp_history_entry *h = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_history(ctx->store, mp_cli_ref(ctx, stack), &h, &n, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  } else {
    /* Newest first; one page of |page_size| (0: every update). */
    size_t from = 0, count = n;
    if (page < 1) page = 1;
    if (page_size > 0) {
      from = (size_t)(page - 1) * (size_t)page_size;
      if (from > n) from = n;
      count = n - from < (size_t)page_size ? n - from : (size_t)page_size;
    }
    if (json) print_json(ctx, h + from, count);
    else print_text(ctx, h + from, count, page, full_dates);
  }
  for (size_t i = 0; i < n; i++) mp_history_entry_destroy(&h[i]);
  free(h);
  free(stack);
  return status;
}
