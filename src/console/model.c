/* The console's data (model.h): read through the store API, as any reader
 * does, without a stack's lock. */
#include "console/model.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/resource.h"
#include "engine/snapshot.h"
#include "engine/urn.h"

#define SECRET_TEXT "[secret]"

static int stack_must_exist(const mp_console_src *src, mp_stack_ref st,
                            mp_err *err) {
  int rc = mp_store_stack_exists(src->store, st, err);
  if (rc < 0)
    return rc;
  if (rc == 0)
    return mp_err_set(err, MP_ENOENT, "no stack named '%s/%s' found",
                      st.project, st.name);
  return 0;
}

/* The crypter the snapshot is read with: the stack's own with
 * --show-secrets, else one that keeps each secret's ciphertext, so that no
 * plaintext is ever in this process. */
static int crypter(const mp_console_src *src, mp_stack_ref st, mp_crypter *c,
                   mp_err *err) {
  if (!src->show_secrets) {
    *c = mp_crypter_keep_ciphertext();
    return 0;
  }
  if (src->crypter_for == NULL)
    return mp_err_set(err, MP_EINVAL, "no secrets manager to show secrets");
  return src->crypter_for(src->crypter_arg, st, c, err);
}

static int load(const mp_console_src *src, mp_stack_ref st, mp_snapshot **out,
                mp_err *err) {
  mp_crypter c;
  int rc = stack_must_exist(src, st, err);
  if (rc == 0)
    rc = crypter(src, st, &c, err);
  /* A stack with no secrets manager has no secrets: no crypter. */
  if (rc == 0)
    rc = mp_store_load(src->store, st, c.decrypt ? &c : NULL, out, err);
  return rc;
}

static cJSON *tags_json(const mp_console_src *src, mp_stack_ref st,
                        mp_err *err) {
  mp_stack_tag *tags = NULL;
  size_t n = 0;
  if (mp_store_tags_get(src->store, st, &tags, &n, err))
    return NULL;
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; i < n; i++)
    cJSON_AddStringToObject(o, tags[i].name, tags[i].value);
  mp_stack_tags_free(tags, n);
  return o;
}

static cJSON *strv_json(const mp_strv *v) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < v->len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(v->items[i]));
  return a;
}

static void add_str(cJSON *o, const char *key, const char *s) {
  if (s)
    cJSON_AddStringToObject(o, key, s);
  else
    cJSON_AddNullToObject(o, key);
}

/* ---- history ---- */

static time_t parse_utc(const char *iso) {
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  if (iso == NULL ||
      sscanf(iso, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
             &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return timegm(&tm);
}

static cJSON *changes_json(const mp_update_counts *c) {
  cJSON *o = cJSON_CreateObject();
  const struct {
    const char *name;
    int64_t n;
  } kv[] = {
      {"create", c->create},   {"delete", c->del}, {"discard", c->discard},
      {"import", c->import},   {"read", c->read},  {"refresh", c->refresh},
      {"replace", c->replace}, {"same", c->same},  {"update", c->update}};
  for (size_t i = 0; i < MP_ARRAY_LEN(kv); i++)
    if (kv[i].n)
      cJSON_AddNumberToObject(o, kv[i].name, (double)kv[i].n);
  return o;
}

/* A recorded config (Pulumi's `config` of an update: "<key>": value or
 * {"secure": ciphertext}) as {"<key>": {"value", "secret"}}; a secret's
 * value is "[secret]" unless |c| (--show-secrets) decrypts it. */
static cJSON *config_json(const char *text, const mp_crypter *c) {
  cJSON *out = cJSON_CreateObject();
  cJSON *cfg = text ? cJSON_Parse(text) : NULL;
  const cJSON *v, *list = cJSON_IsObject(cfg) ? cfg : NULL;
  cJSON_ArrayForEach(v, list) {
    cJSON *e = cJSON_AddObjectToObject(out, v->string);
    const cJSON *secure = cJSON_GetObjectItemCaseSensitive(v, "secure");
    int secret = cJSON_IsObject(v) && cJSON_IsString(secure);
    if (secret) {
      mp_buf plain;
      mp_err err;
      mp_buf_init(&plain);
      mp_err_clear(&err);
      const char *cipher = secure->valuestring;
      if (c && c->decrypt &&
          c->decrypt(c->ctx, cipher, strlen(cipher), &plain, &err) == 0)
        cJSON_AddStringToObject(e, "value", plain.data ? plain.data : "");
      else
        cJSON_AddStringToObject(e, "value", SECRET_TEXT);
      mp_buf_destroy(&plain);
    } else if (cJSON_IsString(v)) {
      cJSON_AddStringToObject(e, "value", v->valuestring);
    } else {
      cJSON_AddItemToObject(e, "value", cJSON_Duplicate(v, 1));
    }
    cJSON_AddBoolToObject(e, "secret", secret);
  }
  cJSON_Delete(cfg);
  return out;
}

static cJSON *update_json(const mp_history_entry *h, const mp_crypter *c,
                          int full) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "version", (double)h->id);
  cJSON_AddStringToObject(o, "kind", h->kind);
  cJSON_AddStringToObject(o, "result", h->result);
  cJSON_AddStringToObject(o, "startTime", h->start);
  add_str(o, "endTime", h->end[0] ? h->end : NULL);
  time_t t0 = parse_utc(h->start), t1 = parse_utc(h->end);
  if (t0 >= 0 && t1 >= t0)
    cJSON_AddNumberToObject(o, "durationSeconds", (double)(t1 - t0));
  else
    cJSON_AddNullToObject(o, "durationSeconds");
  cJSON_AddStringToObject(o, "message", h->message ? h->message : "");
  cJSON_AddItemToObject(o, "resourceChanges", changes_json(&h->counts));
  if (full) {
    cJSON *env = h->environment ? cJSON_Parse(h->environment) : NULL;
    if (!cJSON_IsObject(env)) {
      cJSON_Delete(env);
      env = cJSON_CreateObject();
    }
    cJSON_AddItemToObject(o, "environment", env);
    cJSON_AddItemToObject(o, "config", config_json(h->config, c));
  }
  return o;
}

static void history_free(mp_history_entry *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    mp_history_entry_destroy(&h[i]);
  free(h);
}

cJSON *mp_console_history(const mp_console_src *src, mp_stack_ref st,
                          mp_err *err) {
  mp_history_entry *h = NULL;
  size_t n = 0;
  mp_crypter c;
  if (stack_must_exist(src, st, err))
    return NULL;
  if (src->show_secrets && crypter(src, st, &c, err))
    return NULL;
  if (mp_store_history(src->store, st, &h, &n, err))
    return NULL;
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++)
    cJSON_AddItemToArray(a,
                         update_json(&h[i], src->show_secrets ? &c : NULL, 1));
  history_free(h, n);
  return a;
}

/* ---- stacks ---- */

static int tag_match(const cJSON *tags, const char *tag) {
  if (tag == NULL || !*tag)
    return 1;
  const char *eq = strchr(tag, '=');
  const cJSON *t;
  cJSON_ArrayForEach(t, tags) {
    size_t n = eq ? (size_t)(eq - tag) : strlen(tag);
    if (strlen(t->string) == n && !strncmp(t->string, tag, n) &&
        (!eq || !strcmp(t->valuestring, eq + 1)))
      return 1;
  }
  return 0;
}

cJSON *mp_console_stacks(const mp_console_src *src, const char *q,
                         const char *tag, mp_err *err) {
  mp_stack_info *infos = NULL;
  size_t n = 0;
  if (mp_store_stack_list(src->store, NULL, &infos, &n, err))
    return NULL;
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; a && i < n; i++) {
    mp_stack_ref st = {infos[i].project, infos[i].name};
    if (q && *q && !strstr(infos[i].project, q) && !strstr(infos[i].name, q))
      continue;
    cJSON *tags = tags_json(src, st, err);
    mp_history_entry *h = NULL;
    size_t nh = 0;
    if (tags == NULL || mp_store_history(src->store, st, &h, &nh, err)) {
      cJSON_Delete(tags);
      cJSON_Delete(a);
      a = NULL;
      break;
    }
    if (!tag_match(tags, tag)) {
      cJSON_Delete(tags);
      history_free(h, nh);
      continue;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "project", infos[i].project);
    cJSON_AddStringToObject(o, "stack", infos[i].name);
    cJSON_AddNumberToObject(o, "resourceCount",
                            (double)infos[i].resource_count);
    if (nh)
      cJSON_AddItemToObject(o, "lastUpdate", update_json(&h[0], NULL, 0));
    else
      cJSON_AddNullToObject(o, "lastUpdate");
    cJSON_AddItemToObject(o, "tags", tags);
    cJSON_AddItemToArray(a, o);
    history_free(h, nh);
  }
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&infos[i]);
  free(infos);
  return a;
}

/* ---- one stack ---- */

static const char *pending_of(const mp_snapshot *s, const char *urn) {
  for (size_t i = 0; i < s->npending; i++)
    if (!strcmp(s->pending[i].res->urn, urn))
      return mp_pending_type_name(s->pending[i].type);
  return NULL;
}

static cJSON *name_json(const char *urn) {
  size_t len;
  const char *name = mp_urn_name(urn, &len);
  if (name == NULL)
    return cJSON_CreateString("");
  char *copy = mp_xstrndup(name, len);
  cJSON *j = cJSON_CreateString(copy);
  free(copy);
  return j;
}

static cJSON *resource_row(const mp_snapshot *s, const mp_resource *r) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "urn", r->urn);
  cJSON_AddStringToObject(o, "type", r->type);
  cJSON_AddItemToObject(o, "name", name_json(r->urn));
  add_str(o, "id", r->id);
  add_str(o, "parent", r->parent);
  cJSON_AddBoolToObject(o, "custom", r->custom);
  cJSON_AddBoolToObject(o, "protect", r->protect);
  cJSON_AddBoolToObject(o, "retainOnDelete", r->retain_on_delete);
  cJSON_AddBoolToObject(o, "external", r->external);
  cJSON_AddBoolToObject(o, "pendingReplacement", r->pending_replacement);
  cJSON_AddBoolToObject(o, "delete", r->delete_);
  cJSON_AddBoolToObject(o, "taint", r->taint);
  add_str(o, "pendingOperation", pending_of(s, r->urn));
  return o;
}

static const mp_resource *root_stack(const mp_snapshot *s) {
  for (size_t i = 0; i < s->nres; i++)
    if (!s->res[i]->parent && !strcmp(s->res[i]->type, "pulumi:pulumi:Stack"))
      return s->res[i];
  return NULL;
}

cJSON *mp_console_stack(const mp_console_src *src, mp_stack_ref st,
                        mp_err *err) {
  mp_snapshot *s = NULL;
  if (load(src, st, &s, err))
    return NULL;
  cJSON *tags = tags_json(src, st, err);
  cJSON *hist = tags ? mp_console_history(src, st, err) : NULL;
  if (hist == NULL) {
    cJSON_Delete(tags);
    mp_snapshot_free(s);
    return NULL;
  }
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "project", st.project);
  cJSON_AddStringToObject(o, "stack", st.name);
  cJSON_AddItemToObject(o, "tags", tags);
  const mp_resource *root = root_stack(s);
  cJSON_AddItemToObject(
      o, "outputs",
      root && root->outputs
          ? mp_console_value_json(root->outputs, src->show_secrets)
          : cJSON_CreateObject());
  /* The config of the newest update that recorded one (the store keeps
   * the stack's config with each update, as Pulumi's history does). */
  cJSON *config = NULL, *last = NULL, *u;
  cJSON_ArrayForEach(u, hist) {
    if (last == NULL)
      last = u;
    cJSON *c = cJSON_GetObjectItemCaseSensitive(u, "config");
    if (config == NULL && cJSON_GetArraySize(c) > 0)
      config = c;
  }
  cJSON_AddItemToObject(
      o, "config", config ? cJSON_Duplicate(config, 1) : cJSON_CreateObject());
  if (last) {
    cJSON *l = cJSON_Duplicate(last, 1);
    cJSON_DeleteItemFromObjectCaseSensitive(l, "config");
    cJSON_DeleteItemFromObjectCaseSensitive(l, "environment");
    cJSON_AddItemToObject(o, "lastUpdate", l);
  } else {
    cJSON_AddNullToObject(o, "lastUpdate");
  }
  cJSON_Delete(hist);
  cJSON *res = cJSON_AddArrayToObject(o, "resources");
  for (size_t i = 0; i < s->nres; i++)
    cJSON_AddItemToArray(res, resource_row(s, s->res[i]));
  cJSON *pend = cJSON_AddArrayToObject(o, "pendingOperations");
  for (size_t i = 0; i < s->npending; i++) {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "urn", s->pending[i].res->urn);
    cJSON_AddStringToObject(p, "type", s->pending[i].res->type);
    cJSON_AddStringToObject(p, "operation",
                            mp_pending_type_name(s->pending[i].type));
    cJSON_AddItemToArray(pend, p);
  }
  mp_snapshot_free(s);
  return o;
}

/* ---- one resource ---- */

static cJSON *options_json(const mp_resource *r) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "protect", r->protect);
  cJSON_AddBoolToObject(o, "retainOnDelete", r->retain_on_delete);
  cJSON_AddBoolToObject(o, "external", r->external);
  cJSON_AddBoolToObject(o, "pendingReplacement", r->pending_replacement);
  cJSON_AddBoolToObject(o, "taint", r->taint);
  cJSON_AddBoolToObject(o, "refreshBeforeUpdate", r->refresh_before_update);
  add_str(o, "deletedWith", r->deleted_with);
  add_str(o, "importId", r->import_id);
  cJSON_AddItemToObject(o, "ignoreChanges", strv_json(&r->ignore_changes));
  cJSON_AddItemToObject(o, "replaceOnChanges",
                        strv_json(&r->replace_on_changes));
  cJSON_AddItemToObject(o, "replaceWith", strv_json(&r->replace_with));
  cJSON_AddItemToObject(o, "hideDiffs", strv_json(&r->hide_diffs));
  cJSON_AddItemToObject(o, "additionalSecretOutputs",
                        strv_json(&r->additional_secret_outputs));
  cJSON_AddItemToObject(o, "aliases", strv_json(&r->aliases));
  if (r->has_custom_timeouts) {
    cJSON *t = cJSON_AddObjectToObject(o, "customTimeouts");
    const struct {
      const char *k;
      double v;
    } kv[] = {{"create", r->custom_timeouts.create},
              {"update", r->custom_timeouts.update},
              {"delete", r->custom_timeouts.del},
              {"read", r->custom_timeouts.read}};
    for (size_t i = 0; i < MP_ARRAY_LEN(kv); i++)
      if (kv[i].v >= 0)
        cJSON_AddNumberToObject(t, kv[i].k, kv[i].v);
  } else {
    cJSON_AddNullToObject(o, "customTimeouts");
  }
  return o;
}

static cJSON *provider_json(const mp_resource *r) {
  mp_provider_ref p;
  mp_err err;
  mp_err_clear(&err);
  if (r->provider == NULL || mp_provider_ref_parse(r->provider, &p, &err))
    return cJSON_CreateNull();
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "urn", p.urn);
  cJSON_AddStringToObject(o, "id", p.id);
  mp_provider_ref_destroy(&p);
  return o;
}

/* The live entry of |urn| (an old copy awaiting deletion only when there
 * is no other). */
static const mp_resource *find(const mp_snapshot *s, const char *urn) {
  const mp_resource *found = NULL;
  for (size_t i = 0; i < s->nres; i++)
    if (!strcmp(s->res[i]->urn, urn) && (!found || found->delete_))
      found = s->res[i];
  return found;
}

cJSON *mp_console_resource(const mp_console_src *src, mp_stack_ref st,
                           const char *urn, mp_err *err) {
  mp_snapshot *s = NULL;
  if (load(src, st, &s, err))
    return NULL;
  const mp_resource *r = urn ? find(s, urn) : NULL;
  if (r == NULL) {
    mp_snapshot_free(s);
    mp_err_set(err, MP_ENOENT, "stack '%s/%s' has no resource '%s'", st.project,
               st.name, urn ? urn : "");
    return NULL;
  }
  int show = src->show_secrets;
  cJSON *o = resource_row(s, r);
  cJSON_AddItemToObject(o, "provider", provider_json(r));
  cJSON *children = cJSON_AddArrayToObject(o, "children");
  cJSON *dependents = cJSON_AddArrayToObject(o, "dependents");
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *x = s->res[i];
    if (x == r)
      continue;
    if (x->parent && !strcmp(x->parent, r->urn))
      cJSON_AddItemToArray(children, cJSON_CreateString(x->urn));
    mp_strv refs;
    mp_strv_init(&refs);
    mp_resource_refs(x, MP_REF_ALL & ~MP_REF_PARENT, &refs);
    /* It depends on |r| by any reference but parenthood (children are
     * listed apart). */
    if (mp_strv_contains(&refs, r->urn))
      cJSON_AddItemToArray(dependents, cJSON_CreateString(x->urn));
    mp_strv_destroy(&refs);
  }
  cJSON_AddItemToObject(o, "dependencies", strv_json(&r->dependencies));
  cJSON *pd = cJSON_AddObjectToObject(o, "propertyDependencies");
  for (size_t i = 0; i < r->property_dependencies.len; i++)
    cJSON_AddItemToObject(pd, r->property_dependencies.items[i].key,
                          strv_json(&r->property_dependencies.items[i].urns));
  cJSON_AddItemToObject(o, "options", options_json(r));
  cJSON_AddItemToObject(o, "inputs",
                        r->inputs ? mp_console_value_json(r->inputs, show)
                                  : cJSON_CreateObject());
  cJSON_AddItemToObject(o, "outputs",
                        r->outputs ? mp_console_value_json(r->outputs, show)
                                   : cJSON_CreateObject());
  cJSON_AddItemToObject(o, "initErrors", strv_json(&r->init_errors));
  add_str(o, "created", r->created);
  add_str(o, "modified", r->modified);
  add_str(o, "sourcePosition", r->source_position);
  mp_snapshot_free(s);
  return o;
}
