#include "cli/json_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/render.h"
#include "engine/snapshot.h"

/* ==== step metadata ==== */

static void add_str(cJSON *o, const char *k, const char *v) {
  cJSON_AddStringToObject(o, k, v ? v : "");
}

static void add_true(cJSON *o, const char *k, int b) {
  if (b) cJSON_AddTrueToObject(o, k);
}

static cJSON *strv_json(const mp_strv *v) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; v && i < v->len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(v->items[i]));
  return a;
}

static cJSON *props_json(const mp_value *v, unsigned flags) {
  return v ? mp_cli_value_cjson(v, flags) : cJSON_CreateObject();
}

/* Pulumi's StepEventStateMetadata. */
static cJSON *state_json(const mp_resource *r, unsigned flags) {
  cJSON *o = cJSON_CreateObject();
  add_str(o, "type", r->type);
  add_str(o, "urn", r->urn);
  add_true(o, "custom", r->custom);
  add_true(o, "delete", r->delete_);
  add_str(o, "id", r->id);
  add_str(o, "parent", r->parent);
  add_true(o, "protect", r->protect);
  add_true(o, "taint", r->taint);
  add_true(o, "external", r->external);
  add_true(o, "retainOnDelete", r->retain_on_delete);
  cJSON_AddItemToObject(o, "inputs", props_json(r->inputs, flags));
  cJSON_AddItemToObject(o, "outputs", props_json(r->outputs, flags));
  add_str(o, "provider", r->provider);
  if (r->init_errors.len)
    cJSON_AddItemToObject(o, "initErrors", strv_json(&r->init_errors));
  if (r->hide_diffs.len)
    cJSON_AddItemToObject(o, "hideDiffs", strv_json(&r->hide_diffs));
  return o;
}

/* |kind_key| is "diffKind" in engine events (apitype.PropertyDiff) and
 * "kind" in the preview digest (display.PropertyDiff). */
static cJSON *detailed_diff_json(const mp_diff *d, const char *kind_key) {
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; d && i < d->len; i++) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, kind_key, mp_diff_kind_name(d->items[i].kind));
    cJSON_AddBoolToObject(e, "inputDiff", d->items[i].input_diff);
    cJSON_AddItemToObject(o, d->items[i].path, e);
  }
  return o;
}

static cJSON *meta_json(const mp_step_meta *m, unsigned flags) {
  cJSON *o = cJSON_CreateObject();
  add_str(o, "op", mp_op_info_of(m->op)->name);
  add_str(o, "urn", m->urn);
  add_str(o, "type", m->type);
  int states = !(flags & MP_EVENT_JSON_NO_STATES);
  if (m->old && states) cJSON_AddItemToObject(o, "old", state_json(m->old, flags));
  if (m->new_ && states)
    cJSON_AddItemToObject(o, "new", state_json(m->new_, flags));
  if (m->keys && m->keys->len)
    cJSON_AddItemToObject(o, "keys", strv_json(m->keys));
  if (m->diffs && m->diffs->len)
    cJSON_AddItemToObject(o, "diffs", strv_json(m->diffs));
  if (m->detailed_diff && m->detailed_diff->len)
    cJSON_AddItemToObject(o, "detailedDiff",
                          detailed_diff_json(m->detailed_diff, "diffKind"));
  add_true(o, "logical", m->logical);
  add_str(o, "provider", m->provider);
  return o;
}

/* ==== events ==== */

static cJSON *changes_json(const int64_t counts[MP_OP__COUNT]) {
  cJSON *o = cJSON_CreateObject();
  for (int op = 0; op < MP_OP__COUNT; op++)
    if (counts[op])
      cJSON_AddNumberToObject(o, mp_op_info_of((mp_step_op)op)->name,
                              (double)counts[op]);
  return o;
}

/* Config as Pulumi's prelude shows it: a map of strings. */
static cJSON *config_json(const mp_value *cfg, unsigned flags) {
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; cfg && cfg->kind == MP_VALUE_OBJECT && i < cfg->u.obj.len;
       i++) {
    const mp_value *v = cfg->u.obj.items[i].value;
    if (v->kind == MP_VALUE_STRING) {
      cJSON_AddStringToObject(o, cfg->u.obj.items[i].key, v->u.str.ptr);
      continue;
    }
    mp_buf b;
    mp_buf_init(&b);
    if (v->kind == MP_VALUE_SECRET && !(flags & MP_RENDER_SHOW_SECRETS))
      mp_buf_puts(&b, "[secret]");
    else if (v->kind == MP_VALUE_SECRET && v->u.secret->kind == MP_VALUE_STRING)
      mp_buf_puts(&b, v->u.secret->u.str.ptr);
    else
      mp_cli_value_json(v, flags, 0, &b);
    cJSON_AddStringToObject(o, cfg->u.obj.items[i].key, b.data ? b.data : "");
    mp_buf_destroy(&b);
  }
  return o;
}

static cJSON *diag_json(const mp_event *ev) {
  cJSON *o = cJSON_CreateObject();
  const char *sev = ev->severity ? ev->severity : "info";
  char prefix[32];
  snprintf(prefix, sizeof(prefix), "%s: ", sev);
  if (ev->urn) cJSON_AddStringToObject(o, "urn", ev->urn);
  if (strcmp(sev, "info") != 0) cJSON_AddStringToObject(o, "prefix", prefix);
  const char *msg = ev->message ? ev->message : "";
  size_t n = strlen(msg);
  char *m = mp_xasprintf("%s%s", msg, n && msg[n - 1] == '\n' ? "" : "\n");
  cJSON_AddStringToObject(o, "message", m);
  free(m);
  cJSON_AddStringToObject(o, "color", "never");
  cJSON_AddStringToObject(o, "severity", sev);
  return o;
}

/* Pulumi's map, its keys sorted as Go's encoder sorts them. */
static void policy_packs_json(cJSON *o, const mp_event *ev) {
  size_t n = ev->n_policy_packs;
  const char **keys = mp_xcalloc(n ? n : 1, sizeof(*keys));
  for (size_t i = 0; i < n; i++) keys[i] = ev->policy_packs[2 * i];
  for (size_t i = 1; i < n; i++) /* few: insertion sort */
    for (size_t j = i; j > 0 && strcmp(keys[j - 1], keys[j]) > 0; j--) {
      const char *t = keys[j];
      keys[j] = keys[j - 1];
      keys[j - 1] = t;
    }
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < n; k++)
      if (ev->policy_packs[2 * k] == keys[i] &&
          !cJSON_GetObjectItemCaseSensitive(o, keys[i]))
        cJSON_AddStringToObject(o, keys[i], ev->policy_packs[2 * k + 1]);
  free(keys);
}

/* A violation's message as Pulumi's engine makes it (the policy's
 * message, then a newline: eventEmitter.policyViolationEvent). */
static void add_message(cJSON *o, const char *message) {
  char *m = mp_xasprintf("%s\n", message ? message : "");
  cJSON_AddStringToObject(o, "message", m);
  free(m);
}

/* A remediation's property map, left out when empty (omitempty). */
static void add_props(cJSON *o, const char *key, const mp_value *v) {
  if (v && v->kind == MP_VALUE_OBJECT && v->u.obj.len > 0)
    cJSON_AddItemToObject(o, key, mp_cli_value_cjson(v, 0));
}

/* A policyEvent or policyRemediationEvent, as Pulumi's JSON writer
 * (logJSONEvent) writes them for a run without colors. */
static void policy_json(cJSON *o, const mp_event *ev) {
  int fix = ev->kind == MP_EVENT_POLICY_REMEDIATION;
  const mp_policy_finding *f = ev->policy;
  cJSON *pe =
      cJSON_AddObjectToObject(o, fix ? "policyRemediationEvent" : "policyEvent");
  if (ev->urn && ev->urn[0]) cJSON_AddStringToObject(pe, "resourceUrn", ev->urn);
  if (!fix) add_message(pe, ev->message);
  /* Pulumi's engine makes both "raw"; its JSON writer cleans a
   * violation's message for a colorless run, not a remediation */
  cJSON_AddStringToObject(pe, "color", fix ? "raw" : "never");
  cJSON_AddStringToObject(pe, "policyName", f->policy);
  cJSON_AddStringToObject(pe, "policyPackName", f->pack);
  cJSON_AddStringToObject(pe, "policyPackVersion", f->pack_version);
  cJSON_AddStringToObject(pe, "policyPackVersionTag", f->pack_version);
  if (!fix) cJSON_AddStringToObject(pe, "enforcementLevel", f->level);
  if (fix) { /* secrets masked: Pulumi's writer never shows them */
    add_props(pe, "before", f->before);
    add_props(pe, "after", f->after);
  }
}

cJSON *mp_cli_event_json(const mp_event *ev, unsigned flags) {
  cJSON *o = cJSON_CreateObject();
  cJSON *p;
  cJSON_AddNumberToObject(o, "sequence", (double)ev->sequence);
  cJSON_AddNumberToObject(o, "timestamp", floor(ev->timestamp));
  switch (ev->kind) {
  case MP_EVENT_PRELUDE:
    p = cJSON_AddObjectToObject(o, "preludeEvent");
    cJSON_AddItemToObject(p, "config", config_json(ev->config, flags));
    break;
  case MP_EVENT_RESOURCE_PRE:
  case MP_EVENT_RES_OUTPUTS:
    p = cJSON_AddObjectToObject(o, ev->kind == MP_EVENT_RESOURCE_PRE
                                       ? "resourcePreEvent"
                                       : "resOutputsEvent");
    cJSON_AddItemToObject(p, "metadata", meta_json(&ev->meta, flags));
    add_true(p, "planning", ev->preview);
    break;
  case MP_EVENT_RES_OP_FAILED:
    p = cJSON_AddObjectToObject(o, "resOpFailedEvent");
    cJSON_AddItemToObject(p, "metadata", meta_json(&ev->meta, flags));
    cJSON_AddNumberToObject(p, "status", 0);
    cJSON_AddNumberToObject(p, "steps", 0);
    break;
  case MP_EVENT_DIAGNOSTIC:
    cJSON_AddItemToObject(o, "diagnosticEvent", diag_json(ev));
    break;
  case MP_EVENT_SUMMARY:
    p = cJSON_AddObjectToObject(o, "summaryEvent");
    cJSON_AddFalseToObject(p, "maybeCorrupt");
    cJSON_AddNumberToObject(p, "durationSeconds", ceil(ev->duration_seconds));
    cJSON_AddItemToObject(p, "resourceChanges", changes_json(ev->counts));
    policy_packs_json(cJSON_AddObjectToObject(p, "PolicyPacks"), ev);
    cJSON_AddBoolToObject(p, "isPreview", ev->preview);
    if (ev->result) cJSON_AddStringToObject(p, "result", ev->result);
    break;
  case MP_EVENT_CANCEL:
    cJSON_AddObjectToObject(o, "cancelEvent");
    break;
  case MP_EVENT_POLICY_VIOLATION:
  case MP_EVENT_POLICY_REMEDIATION:
    policy_json(o, ev);
    break;
  }
  return o;
}

int mp_cli_event_write(FILE *f, const mp_event *ev, unsigned flags) {
  cJSON *j = mp_cli_event_json(ev, flags);
  mp_buf b;
  mp_buf_init(&b);
  mp_cli_cjson_print(j, 0, &b);
  mp_buf_putc(&b, '\n');
  int failed = fwrite(b.data, 1, b.len, f) != b.len;
  failed |= fflush(f) != 0;
  int why = failed ? (errno ? errno : EIO) : 0;
  mp_buf_destroy(&b);
  cJSON_Delete(j);
  return why;
}

/* ==== preview digest ==== */

struct mp_preview_digest {
  unsigned flags;
  cJSON *config;
  cJSON *steps;
  cJSON *diagnostics;
  double duration;
  cJSON *summary;
  cJSON *outputs;
};

mp_preview_digest *mp_preview_digest_new(unsigned flags) {
  mp_preview_digest *d = mp_xcalloc(1, sizeof(*d));
  d->flags = flags;
  d->steps = cJSON_CreateArray();
  d->diagnostics = cJSON_CreateArray();
  return d;
}

/* A ResourceV3 object with secrets masked (or revealed): the fields from
 * the checkpoint writer, the property maps from the display encoder. */
static cJSON *resource_v3(const mp_resource *r, unsigned flags) {
  mp_resource *c = mp_resource_dup(r);
  mp_value_free(c->inputs);
  mp_value_free(c->outputs);
  c->inputs = c->outputs = NULL;
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  cJSON *res = NULL;
  if (mp_resource_to_json(c, NULL, 0, &b, &err) == 0) res = cJSON_Parse(b.data);
  mp_buf_destroy(&b);
  mp_resource_free(c);
  if (!res) res = cJSON_CreateObject();
  if (r->inputs) cJSON_AddItemToObject(res, "inputs", mp_cli_value_cjson(r->inputs, flags));
  if (r->outputs)
    cJSON_AddItemToObject(res, "outputs", mp_cli_value_cjson(r->outputs, flags));
  return res;
}

/* Whether Pulumi's digest lists a step: not `same` (unless protect changed
 * or it is the stack), not the non-logical parts of a replacement. */
static int digest_shows(const mp_step_meta *m) {
  if (m->type && strcmp(m->type, "pulumi:pulumi:Stack") == 0) return 1;
  if (m->op == MP_OP_SAME)
    return m->old && m->new_ && m->old->protect != m->new_->protect;
  if (!m->logical && (mp_op_info_of(m->op)->flags & MP_OP_REPLACEMENT_PART))
    return 0;
  return 1;
}

static cJSON *step_json(const mp_preview_digest *d, const mp_step_meta *m) {
  cJSON *s = cJSON_CreateObject();
  add_str(s, "op", mp_op_info_of(m->op)->name);
  add_str(s, "urn", m->urn);
  if (m->provider && *m->provider) add_str(s, "provider", m->provider);
  if (m->old) cJSON_AddItemToObject(s, "oldState", resource_v3(m->old, d->flags));
  if (m->new_) cJSON_AddItemToObject(s, "newState", resource_v3(m->new_, d->flags));
  if (m->diffs && m->diffs->len)
    cJSON_AddItemToObject(s, "diffReasons", strv_json(m->diffs));
  if (m->keys && m->keys->len)
    cJSON_AddItemToObject(s, "replaceReasons", strv_json(m->keys));
  if (m->detailed_diff && m->detailed_diff->len)
    cJSON_AddItemToObject(s, "detailedDiff",
                          detailed_diff_json(m->detailed_diff, "kind"));
  else
    cJSON_AddNullToObject(s, "detailedDiff");
  return s;
}

static void digest_step(mp_preview_digest *d, const mp_step_meta *m) {
  if (digest_shows(m)) cJSON_AddItemToArray(d->steps, step_json(d, m));
}

/* A refresh's read that found drift (update) or the resource gone
 * (delete) replaces the `refresh` step, as in Pulumi's digest. */
static void digest_refresh_result(mp_preview_digest *d, const mp_step_meta *m) {
  if (!((m->op == MP_OP_UPDATE && m->detailed_diff) || m->op == MP_OP_DELETE))
    return;
  cJSON *s;
  cJSON_ArrayForEach(s, d->steps) {
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(s, "op");
    const cJSON *urn = cJSON_GetObjectItemCaseSensitive(s, "urn");
    if (cJSON_IsString(op) && !strcmp(op->valuestring, "refresh") &&
        cJSON_IsString(urn) && !strcmp(urn->valuestring, m->urn)) {
      cJSON_ReplaceItemViaPointer(d->steps, s, step_json(d, m));
      return;
    }
  }
}

static void digest_outputs(mp_preview_digest *d, const mp_step_meta *m) {
  if (!m->new_ || !m->type || strcmp(m->type, "pulumi:pulumi:Stack") != 0 ||
      !m->new_->outputs || !m->new_->outputs->u.obj.len)
    return;
  cJSON_Delete(d->outputs);
  d->outputs = mp_cli_value_cjson(m->new_->outputs, d->flags);
}

void mp_preview_digest_add(mp_preview_digest *d, const mp_event *ev) {
  switch (ev->kind) {
  case MP_EVENT_PRELUDE:
    cJSON_Delete(d->config);
    d->config = config_json(ev->config, d->flags);
    break;
  case MP_EVENT_RESOURCE_PRE:
    digest_step(d, &ev->meta);
    digest_outputs(d, &ev->meta);
    break;
  case MP_EVENT_RES_OUTPUTS:
    digest_refresh_result(d, &ev->meta);
    digest_outputs(d, &ev->meta);
    break;
  case MP_EVENT_DIAGNOSTIC: {
    cJSON *j = diag_json(ev);
    cJSON_DeleteItemFromObject(j, "color");
    cJSON_AddItemToArray(d->diagnostics, j);
    break;
  }
  case MP_EVENT_RES_OP_FAILED:
    break;
  case MP_EVENT_SUMMARY:
    d->duration = ev->duration_seconds;
    cJSON_Delete(d->summary);
    d->summary = changes_json(ev->counts);
    break;
  case MP_EVENT_CANCEL:
    break;
  /* Pulumi's ShowPreviewDigest skips the policy events */
  case MP_EVENT_POLICY_VIOLATION:
  case MP_EVENT_POLICY_REMEDIATION:
    break;
  }
}

void mp_preview_digest_print(const mp_preview_digest *d, FILE *f) {
  cJSON *o = cJSON_CreateObject();
  if (d->config && d->config->child)
    cJSON_AddItemToObject(o, "config", cJSON_Duplicate(d->config, 1));
  if (d->steps->child)
    cJSON_AddItemToObject(o, "steps", cJSON_Duplicate(d->steps, 1));
  if (d->diagnostics->child)
    cJSON_AddItemToObject(o, "diagnostics", cJSON_Duplicate(d->diagnostics, 1));
  cJSON_AddNumberToObject(o, "duration", floor(d->duration * 1e9));
  cJSON_AddItemToObject(o, "changeSummary",
                        d->summary ? cJSON_Duplicate(d->summary, 1)
                                   : cJSON_CreateObject());
  if (d->outputs)
    cJSON_AddItemToObject(o, "outputs", cJSON_Duplicate(d->outputs, 1));
  mp_cli_cjson_emit(f, o, 4);
}

void mp_preview_digest_free(mp_preview_digest *d) {
  if (!d) return;
  cJSON_Delete(d->config);
  cJSON_Delete(d->steps);
  cJSON_Delete(d->diagnostics);
  cJSON_Delete(d->summary);
  cJSON_Delete(d->outputs);
  free(d);
}
