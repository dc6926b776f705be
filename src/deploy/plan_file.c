#include "deploy/plan_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/op.h"
#include "engine/resource.h"

/* ---- the file ---- */

/* |text| and a newline at |path|. */
static int write_text(const char *path, const char *text, mp_err *err) {
  FILE *f = fopen(path, "wb");
  int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  if (f && fclose(f) != 0) ok = 0;
  return ok ? 0
            : mp_err_set(err, MP_EIO, "could not write the plan file '%s': %s",
                         path, strerror(errno));
}

/* The bytes at |path| (*len of them), or NULL with errno set. */
static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  for (size_t n; (n = fread(chunk, 1, sizeof(chunk), f)) > 0;)
    mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, len);
}

/* ---- writing ---- */

/* |v| as the checkpoint encodes it, as a JSON tree (NULL on error). */
static cJSON *value_json(const mp_value *v, const mp_crypter *c, mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  cJSON *j = NULL;
  if (mp_value_to_json(v, c, 0, &b, err) == 0)
    j = cJSON_Parse(b.data);
  mp_buf_destroy(&b);
  return j;
}

static cJSON *strings_json(const mp_strv *v) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < v->len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(v->items[i]));
  return a;
}

static cJSON *diff_json(const mp_plan_diff *d, const mp_crypter *c,
                        mp_err *err) {
  cJSON *o = cJSON_CreateObject();
  if (d->adds->u.obj.len)
    cJSON_AddItemToObject(o, "adds", value_json(d->adds, c, err));
  if (d->deletes.len)
    cJSON_AddItemToObject(o, "deletes", strings_json(&d->deletes));
  if (d->updates->u.obj.len)
    cJSON_AddItemToObject(o, "updates", value_json(d->updates, c, err));
  return o;
}

static const char *const timeout_keys[3] = {"create", "update", "delete"};

static cJSON *goal_json(const mp_plan_goal *g, const mp_crypter *c,
                        mp_err *err) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "type", g->type);
  cJSON_AddStringToObject(o, "name", g->name);
  cJSON_AddBoolToObject(o, "custom", g->custom);
  cJSON_AddItemToObject(o, "inputDiff", diff_json(&g->input_diff, c, err));
  cJSON_AddItemToObject(o, "outputDiff", diff_json(&g->output_diff, c, err));
  if (g->parent)
    cJSON_AddStringToObject(o, "parent", g->parent);
  cJSON_AddBoolToObject(o, "protect", g->protect);
  if (g->dependencies.len)
    cJSON_AddItemToObject(o, "dependencies", strings_json(&g->dependencies));
  if (g->provider)
    cJSON_AddStringToObject(o, "provider", g->provider);
  if (g->dbr >= 0)
    cJSON_AddBoolToObject(o, "deleteBeforeReplace", g->dbr);
  if (g->ignore_changes.len)
    cJSON_AddItemToObject(o, "ignoreChanges", strings_json(&g->ignore_changes));
  if (g->additional_secret_outputs.len)
    cJSON_AddItemToObject(o, "additionalSecretOutputs",
                          strings_json(&g->additional_secret_outputs));
  if (g->aliases.len)
    cJSON_AddItemToObject(o, "aliases", strings_json(&g->aliases));
  if (g->propdeps.len) {
    cJSON *pd = cJSON_AddObjectToObject(o, "propertyDependencies");
    for (size_t i = 0; i < g->propdeps.len; i++)
      cJSON_AddItemToObject(pd, g->propdeps.items[i].key,
                            strings_json(&g->propdeps.items[i].urns));
  }
  if (g->id)
    cJSON_AddStringToObject(o, "id", g->id);
  /* resource.CustomTimeouts: seconds, each omitted when zero */
  cJSON *ct = cJSON_AddObjectToObject(o, "customTimeouts");
  for (int i = 0; i < 3; i++)
    if (g->timeouts[i] != 0)
      cJSON_AddNumberToObject(ct, timeout_keys[i], g->timeouts[i]);
  return o;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static cJSON *manifest_json(void) {
  char magic[65];
  mp_sha256_hex(MP_VERSION, strlen(MP_VERSION), magic);
  char *now = mp_now_rfc3339();
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "time", now);
  cJSON_AddStringToObject(m, "magic", magic);
  cJSON_AddStringToObject(m, "version", MP_VERSION);
  free(now);
  return m;
}

int mp_plan_file_write(mp_plan *p, const char *path, const char *config,
                       const mp_crypter *c, mp_err *err) {
  /* |err| gathers the failures of the values below: whatever it held
   * before (a caller's earlier error) must not fail this write */
  mp_err_clear(err);
  /* URNs in order, as Go writes a map. */
  mp_strv urns;
  mp_strv_init(&urns);
  for (size_t i = 0; i < p->resources.cap; i++)
    if (p->resources.slots[i].key)
      mp_strv_push(&urns, p->resources.slots[i].key);
  if (urns.len)
    qsort(urns.items, urns.len, sizeof(*urns.items), cmp_str);
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddItemToObject(doc, "manifest", manifest_json());
  /* config.Map, omitted when empty (`json:"config,omitempty"`) */
  cJSON *cfg = config ? cJSON_Parse(config) : NULL;
  if (cJSON_IsObject(cfg) && cfg->child)
    cJSON_AddItemToObject(doc, "config", cfg);
  else
    cJSON_Delete(cfg);
  cJSON *plans = cJSON_AddObjectToObject(doc, "resourcePlans");
  for (size_t i = 0; i < urns.len && err->code == 0; i++) {
    const mp_resource_plan *rp = mp_plan_resource(p, urns.items[i], 0);
    cJSON *o = cJSON_CreateObject();
    if (rp->goal)
      cJSON_AddItemToObject(o, "goal", goal_json(rp->goal, c, err));
    cJSON_AddItemToObject(o, "steps", strings_json(&rp->steps));
    cJSON_AddItemToObject(o, "state",
                          rp->outputs ? value_json(rp->outputs, c, err)
                                      : cJSON_CreateNull());
    cJSON_AddItemToObject(plans, urns.items[i], o);
  }
  mp_strv_destroy(&urns);
  if (err->code) {
    cJSON_Delete(doc);
    return mp_err_prefix(err, "could not write the plan");
  }
  char *text = cJSON_Print(doc);
  cJSON_Delete(doc);
  int rc = write_text(path, text, err);
  free(text);
  return rc;
}

/* ---- reading ---- */

typedef struct reader {
  const char *path;
  const mp_crypter *c;
  mp_err *err;
} reader;

static int bad(reader *r, const char *where, const char *what) {
  return mp_err_set(r->err, MP_EINVAL, "invalid plan file '%s': %s: %s",
                    r->path, where, what);
}

/* An object of values (NULL: none, an empty object). */
static int read_values(reader *r, const cJSON *j, const char *where,
                       mp_value **out) {
  if (j == NULL || cJSON_IsNull(j)) {
    *out = mp_value_new_object();
    return 0;
  }
  if (!cJSON_IsObject(j))
    return bad(r, where, "not an object");
  char *text = cJSON_PrintUnformatted(j);
  int rc = mp_value_from_json(text, strlen(text), r->c, out, r->err);
  free(text);
  if (rc != 0)
    return mp_err_prefix(r->err, "invalid plan file '%s': %s", r->path, where);
  return 0;
}

static int read_strings(reader *r, const cJSON *j, const char *where,
                        mp_strv *out) {
  if (j == NULL || cJSON_IsNull(j))
    return 0;
  if (!cJSON_IsArray(j))
    return bad(r, where, "not a list");
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    if (!cJSON_IsString(e))
      return bad(r, where, "not a list of strings");
    mp_strv_push(out, e->valuestring);
  }
  return 0;
}

static char *opt_string(const cJSON *o, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(j) && j->valuestring[0] ? mp_xstrdup(j->valuestring)
                                                : NULL;
}

static int read_diff(reader *r, const cJSON *j, const char *where,
                     mp_plan_diff *d) {
  mp_value_free(d->adds);
  mp_value_free(d->updates);
  d->adds = d->updates = NULL;
  const cJSON *adds = j ? cJSON_GetObjectItemCaseSensitive(j, "adds") : NULL;
  const cJSON *ups = j ? cJSON_GetObjectItemCaseSensitive(j, "updates") : NULL;
  const cJSON *dels = j ? cJSON_GetObjectItemCaseSensitive(j, "deletes") : NULL;
  int rc = read_values(r, adds, where, &d->adds);
  if (rc == 0)
    rc = read_values(r, ups, where, &d->updates);
  if (rc == 0)
    rc = read_strings(r, dels, where, &d->deletes);
  return rc;
}

static int read_propdeps(reader *r, const cJSON *j, const char *where,
                         mp_propdeps *out) {
  if (j == NULL || cJSON_IsNull(j))
    return 0;
  if (!cJSON_IsObject(j))
    return bad(r, where, "its propertyDependencies are not an object");
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    mp_propdep *d = mp_propdeps_get(out, e->string);
    int rc = read_strings(r, e, where, &d->urns);
    if (rc != 0)
      return rc;
  }
  return 0;
}

static int read_timeouts(reader *r, const cJSON *j, const char *where,
                         double out[3]) {
  if (j == NULL || cJSON_IsNull(j))
    return 0;
  if (!cJSON_IsObject(j))
    return bad(r, where, "its customTimeouts are not an object");
  for (int i = 0; i < 3; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, timeout_keys[i]);
    if (v == NULL || cJSON_IsNull(v))
      continue;
    if (!cJSON_IsNumber(v) || v->valuedouble < 0)
      return bad(r, where, "a custom timeout is not a number of seconds");
    out[i] = v->valuedouble;
  }
  return 0;
}

static int read_goal(reader *r, const cJSON *j, const char *urn,
                     mp_plan_goal **out) {
  if (!cJSON_IsObject(j))
    return bad(r, urn, "its goal is not an object");
  mp_plan_goal *g = mp_xcalloc(1, sizeof(*g));
  *out = g;
  mp_plan_diff_init(&g->input_diff);
  mp_plan_diff_init(&g->output_diff);
  g->type = opt_string(j, "type");
  g->name = opt_string(j, "name");
  if (g->type == NULL || g->name == NULL)
    return bad(r, urn, "its goal has no type or name");
  g->custom = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "custom"));
  g->protect = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "protect"));
  g->parent = opt_string(j, "parent");
  g->provider = opt_string(j, "provider");
  g->id = opt_string(j, "id");
  const cJSON *dbr = cJSON_GetObjectItemCaseSensitive(j, "deleteBeforeReplace");
  g->dbr = cJSON_IsBool(dbr) ? cJSON_IsTrue(dbr) : -1;
  int rc = read_diff(r, cJSON_GetObjectItemCaseSensitive(j, "inputDiff"), urn,
                     &g->input_diff);
  if (rc == 0)
    rc = read_diff(r, cJSON_GetObjectItemCaseSensitive(j, "outputDiff"), urn,
                   &g->output_diff);
  if (rc == 0)
    rc = read_strings(r, cJSON_GetObjectItemCaseSensitive(j, "dependencies"),
                      urn, &g->dependencies);
  if (rc == 0)
    rc = read_strings(r, cJSON_GetObjectItemCaseSensitive(j, "ignoreChanges"),
                      urn, &g->ignore_changes);
  if (rc == 0)
    rc = read_strings(
        r, cJSON_GetObjectItemCaseSensitive(j, "additionalSecretOutputs"), urn,
        &g->additional_secret_outputs);
  if (rc == 0)
    rc = read_strings(r, cJSON_GetObjectItemCaseSensitive(j, "aliases"), urn,
                      &g->aliases);
  if (rc == 0)
    rc = read_propdeps(r, cJSON_GetObjectItemCaseSensitive(
                              j, "propertyDependencies"),
                       urn, &g->propdeps);
  if (rc == 0)
    rc = read_timeouts(r, cJSON_GetObjectItemCaseSensitive(j, "customTimeouts"),
                       urn, g->timeouts);
  return rc;
}

static int known_op(const char *name) {
  for (int op = 0; op < MP_OP__COUNT; op++)
    if (strcmp(mp_op_info_of((mp_step_op)op)->name, name) == 0)
      return 1;
  return 0;
}

static int read_resource(reader *r, mp_plan *p, const cJSON *j) {
  const char *urn = j->string;
  if (!cJSON_IsObject(j))
    return bad(r, urn, "not an object");
  mp_resource_plan *rp = mp_plan_resource(p, urn, 1);
  const cJSON *goal = cJSON_GetObjectItemCaseSensitive(j, "goal");
  int rc = 0;
  if (goal && !cJSON_IsNull(goal))
    rc = read_goal(r, goal, urn, &rp->goal);
  if (rc == 0)
    rc = read_strings(r, cJSON_GetObjectItemCaseSensitive(j, "steps"), urn,
                      &rp->steps);
  for (size_t i = 0; rc == 0 && i < rp->steps.len; i++)
    if (!known_op(rp->steps.items[i]))
      rc = bad(r, urn, "a step is not an operation Pulumi knows");
  const cJSON *state = cJSON_GetObjectItemCaseSensitive(j, "state");
  if (rc == 0 && state && !cJSON_IsNull(state))
    rc = read_values(r, state, urn, &rp->outputs);
  return rc;
}

/* 1 if the key of |j| comes again later in its object: Go's decoder
 * then keeps only the last one (a map entry decoded afresh replaces the
 * one before), so the earlier ones are not read at all. */
static int repeated_later(const cJSON *j) {
  for (const cJSON *k = j->next; k; k = k->next)
    if (strcmp(k->string, j->string) == 0)
      return 1;
  return 0;
}

int mp_plan_file_read(const char *path, const mp_crypter *c, mp_plan **out,
                      mp_err *err) {
  *out = NULL;
  size_t len = 0;
  char *text = read_text(path, &len);
  if (text == NULL)
    return mp_err_set(err, MP_EINVAL, "could not read the plan file '%s': %s",
                      path, strerror(errno));
  reader r = {path, c, err};
  cJSON *doc = cJSON_ParseWithLength(text, len);
  free(text);
  if (!cJSON_IsObject(doc)) {
    cJSON_Delete(doc);
    return mp_err_set(err, MP_EINVAL,
                      "invalid plan file '%s': not a JSON object", path);
  }
  const cJSON *plans = cJSON_GetObjectItemCaseSensitive(doc, "resourcePlans");
  int rc = 0;
  if (plans && !cJSON_IsNull(plans) && !cJSON_IsObject(plans))
    rc = bad(&r, "resourcePlans", "not an object");
  mp_plan *p = mp_plan_new(1);
  const cJSON *j;
  if (rc == 0 && plans)
    cJSON_ArrayForEach(j, plans) {
      if (repeated_later(j))
        continue;
      if ((rc = read_resource(&r, p, j)) != 0)
        break;
    }
  cJSON_Delete(doc);
  if (rc != 0) {
    mp_plan_free(p);
    return rc;
  }
  *out = p;
  return 0;
}
