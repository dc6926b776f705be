/* The untyped deployment of `stack export` / `stack import`
 * (Pulumi's deployment JSON, version 3; docs/state-backends.md):
 *   {"version": 3, "deployment": {"manifest", "secrets_providers",
 *    "resources", "pending_operations", "metadata"}}
 * Version 4 (with "features") is written only when a resource uses one of
 * the feature-gated fields. */
#include "engine/snapshot_json_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/json_nul.h"

/* Features of version 4 that this engine reads and writes. */
static const char *const known_features[] = {
    "byteString", "extensionParameterization", "refreshBeforeUpdate",
    "replaceWith", "taint"};

/* ==== export ==== */

/* The sorted feature names the resources of |s| need. */
static cJSON *needed_features(const mp_snapshot *s) {
  int refresh = 0, replace_with = 0, taint = 0, ext = 0;
  for (size_t i = 0; i < s->nres; i++) {
    ext |= s->res[i]->extension_ref != NULL;
    refresh |= s->res[i]->refresh_before_update != 0;
    replace_with |= s->res[i]->replace_with.len != 0;
    taint |= s->res[i]->taint != 0;
  }
  if (!refresh && !replace_with && !taint && !ext)
    return NULL;
  cJSON *a = cJSON_CreateArray();
  if (ext)
    cJSON_AddItemToArray(a, cJSON_CreateString("extensionParameterization"));
  if (refresh)
    cJSON_AddItemToArray(a, cJSON_CreateString("refreshBeforeUpdate"));
  if (replace_with)
    cJSON_AddItemToArray(a, cJSON_CreateString("replaceWith"));
  if (taint)
    cJSON_AddItemToArray(a, cJSON_CreateString("taint"));
  return a;
}

static void put_manifest(cJSON *dep, const char *version) {
  cJSON *m = cJSON_AddObjectToObject(dep, "manifest");
  char *now = mp_now_rfc3339();
  char magic[65];
  mp_sha256_hex(version, strlen(version), magic);
  cJSON_AddStringToObject(m, "time", now);
  cJSON_AddStringToObject(m, "magic", magic);
  cJSON_AddStringToObject(m, "version", version);
  free(now);
}

static int put_secrets(cJSON *dep, const mp_snapshot *s, mp_err *err) {
  if (s->secrets_type == NULL)
    return 0;
  cJSON *sp = cJSON_AddObjectToObject(dep, "secrets_providers");
  cJSON_AddStringToObject(sp, "type", s->secrets_type);
  if (s->secrets_state == NULL)
    return 0;
  cJSON *st = cJSON_Parse(s->secrets_state);
  if (st == NULL)
    return mp_err_set(err, MP_ESTATE,
                      "the secrets provider state of the stack is not JSON");
  cJSON_AddItemToObject(sp, "state", st);
  return 0;
}

static int put_resources(cJSON *dep, const mp_snapshot *s, const mp_crypter *c,
                         unsigned flags, mp_err *err) {
  if (s->nres == 0)
    return 0;
  cJSON *a = cJSON_AddArrayToObject(dep, "resources");
  for (size_t i = 0; i < s->nres; i++) {
    cJSON *r;
    if (mp__resource_to_cjson(s->res[i], c, flags, &r, err) < 0)
      return err->code;
    cJSON_AddItemToArray(a, r);
  }
  return 0;
}

static int put_pending(cJSON *dep, const mp_snapshot *s, const mp_crypter *c,
                       unsigned flags, mp_err *err) {
  if (s->npending == 0)
    return 0;
  cJSON *a = cJSON_AddArrayToObject(dep, "pending_operations");
  for (size_t i = 0; i < s->npending; i++) {
    cJSON *r;
    if (mp__resource_to_cjson(s->pending[i].res, c, flags, &r, err) < 0)
      return err->code;
    cJSON *op = cJSON_CreateObject();
    cJSON_AddItemToObject(op, "resource", r);
    cJSON_AddStringToObject(op, "type",
                            mp_pending_type_name(s->pending[i].type));
    cJSON_AddItemToArray(a, op);
  }
  return 0;
}

/* The extensions the resources refer to, as Pulumi's MapExtensions keeps
 * them (pkg/resource/deploy/snapshot.go). */
static void put_extensions(cJSON *dep, const mp_snapshot *s) {
  cJSON *o = NULL;
  for (size_t i = 0; i < s->extensions.len; i++) {
    const mp_extension *e = &s->extensions.items[i];
    if (!mp_snapshot_uses_extension(s, e->ref)) continue;
    mp_buf b;
    mp_buf_init(&b);
    mp_extension_to_json(e, &b);
    if (o == NULL) o = cJSON_AddObjectToObject(dep, "extensions");
    cJSON_AddItemToObject(o, e->ref, cJSON_Parse(b.data));
    mp_buf_destroy(&b);
  }
}

int mp_snapshot_export(const mp_snapshot *s, const mp_crypter *c,
                       const char *version, unsigned flags, mp_buf *out,
                       mp_err *err) {
  cJSON *root = cJSON_CreateObject();
  cJSON *features = needed_features(s);
  cJSON_AddNumberToObject(root, "version", features ? 4 : 3);
  if (features)
    cJSON_AddItemToObject(root, "features", features);
  cJSON *dep = cJSON_AddObjectToObject(root, "deployment");
  put_manifest(dep, version ? version : "");
  int rc = put_secrets(dep, s, err);
  if (rc == 0)
    rc = put_resources(dep, s, c, flags, err);
  if (rc == 0)
    rc = put_pending(dep, s, c, flags, err);
  if (rc == 0) {
    cJSON_AddObjectToObject(dep, "metadata");
    put_extensions(dep, s);
    mp__json_print(root, flags, out);
  }
  cJSON_Delete(root);
  return rc;
}

/* ==== import ==== */

static int check_version(const cJSON *root, mp_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "version");
  if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble))
    return mp_err_set(err, MP_EINVAL,
                      "the deployment has no integer 'version'; is this the "
                      "output of `stack export`?");
  if (v->valuedouble < 1)
    return mp_err_set(err, MP_EINVAL,
                      "this stack's deployment version (%g) is too old",
                      v->valuedouble);
  if (v->valuedouble > 4)
    return mp_err_set(err, MP_EINVAL,
                      "this stack's deployment version (%g) is too new; this "
                      "minipulumi reads versions 1 to 4",
                      v->valuedouble);
  return 0;
}

static int feature_known(const char *f) {
  for (size_t i = 0; i < MP_ARRAY_LEN(known_features); i++)
    if (strcmp(f, known_features[i]) == 0)
      return 1;
  return 0;
}

static int check_features(const cJSON *root, mp_err *err) {
  const cJSON *fs = cJSON_GetObjectItemCaseSensitive(root, "features");
  if (fs == NULL || cJSON_IsNull(fs))
    return 0;
  if (!cJSON_IsArray(fs))
    return mp_err_set(err, MP_EINVAL, "'features' must be a list of names");
  mp_buf unknown;
  mp_buf_init(&unknown);
  const cJSON *f;
  cJSON_ArrayForEach(f, fs) {
    const char *name = cJSON_IsString(f) ? f->valuestring : "(not a string)";
    if (feature_known(name))
      continue;
    mp_buf_printf(&unknown, "%s%s", unknown.len ? ", " : "", name);
  }
  int rc = 0;
  if (unknown.len)
    rc = mp_err_set(err, MP_EINVAL,
                    "this stack's deployment needs support for the following "
                    "features: %s; upgrade minipulumi",
                    unknown.data);
  mp_buf_destroy(&unknown);
  return rc;
}

static const char *opt_string(const cJSON *obj, const char *key) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsString(j) ? j->valuestring : NULL;
}

static int read_manifest(const cJSON *dep, mp_snapshot *s, mp_err *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(dep, "manifest");
  if (m != NULL && !cJSON_IsObject(m))
    return mp_err_set(err, MP_EINVAL,
                      "the deployment's 'manifest' must be "
                      "an object");
  const char *magic = opt_string(m, "magic");
  s->manifest_time = mp__json_plain(opt_string(m, "time"));
  s->manifest_version = mp__json_plain(opt_string(m, "version"));
  const char *version = s->manifest_version;
  magic = magic ? magic : "";
  version = version ? version : "";
  if (*magic == '\0' && *version == '\0')
    return 0;
  char want[65];
  mp_sha256_hex(version, strlen(version), want);
  if (strcmp(magic, want) != 0)
    return mp_err_set(err, MP_ESTATE,
                      "magic cookie mismatch; possible tampering/corruption "
                      "detected");
  return 0;
}

static int read_secrets(const cJSON *dep, mp_snapshot *s, mp_err *err) {
  const cJSON *sp = cJSON_GetObjectItemCaseSensitive(dep, "secrets_providers");
  if (sp == NULL || cJSON_IsNull(sp))
    return 0;
  const char *type = opt_string(sp, "type");
  if (!cJSON_IsObject(sp) || type == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "'secrets_providers' must be an object with a 'type'");
  s->secrets_type = mp__json_plain(type);
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(sp, "state");
  if (st && !cJSON_IsNull(st)) {
    char *text = cJSON_PrintUnformatted(st);
    s->secrets_state = mp__json_unstuff_text(text);
    cJSON_free(text);
  }
  return 0;
}

static const cJSON *opt_array(const cJSON *obj, const char *key, mp_err *err) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (a == NULL || cJSON_IsNull(a))
    return NULL;
  if (!cJSON_IsArray(a))
    mp_err_set(err, MP_EINVAL, "the deployment's '%s' must be a list", key);
  return a;
}

static int read_resources(const cJSON *dep, const mp_crypter *c, mp_snapshot *s,
                          mp_err *err) {
  mp_err_clear(err);
  const cJSON *a = opt_array(dep, "resources", err);
  if (err->code)
    return err->code;
  const cJSON *it;
  size_t i = 0;
  cJSON_ArrayForEach(it, a) {
    mp_resource *r;
    i++;
    if (mp__resource_from_cjson(it, c, 0, &r, err) < 0)
      return mp_err_prefix(err, "resource #%zu", i);
    mp_snapshot_append(s, r);
  }
  return 0;
}

static int read_one_pending(const cJSON *op, const mp_crypter *c,
                            mp_snapshot *s, mp_err *err) {
  const char *type = opt_string(op, "type");
  mp_pending_type t;
  if (type == NULL || mp_pending_type_parse(type, &t) < 0)
    return mp_err_set(err, MP_EINVAL, "unknown pending operation type '%s'",
                      type ? type : "(none)");
  mp_resource *r;
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(op, "resource");
  if (mp__resource_from_cjson(res, c, 0, &r, err) < 0)
    return err->code;
  mp_snapshot_append_pending(s, r, t);
  return 0;
}

static int read_pending(const cJSON *dep, const mp_crypter *c, mp_snapshot *s,
                        mp_err *err) {
  mp_err_clear(err);
  const cJSON *a = opt_array(dep, "pending_operations", err);
  if (err->code)
    return err->code;
  const cJSON *it;
  size_t i = 0;
  cJSON_ArrayForEach(it, a) {
    i++;
    if (read_one_pending(it, c, s, err) < 0)
      return mp_err_prefix(err, "pending operation #%zu", i);
  }
  return 0;
}

static int read_extensions(const cJSON *dep, mp_snapshot *s, mp_err *err) {
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(dep, "extensions");
  if (o == NULL || cJSON_IsNull(o))
    return 0;
  if (!cJSON_IsObject(o))
    return mp_err_set(err, MP_EINVAL,
                      "the deployment's 'extensions' must be an object");
  const cJSON *it;
  cJSON_ArrayForEach(it, o) {
    char *text = cJSON_PrintUnformatted(it);
    mp_extension e;
    int rc = mp_extension_from_json(it->string, text, strlen(text), &e, err);
    cJSON_free(text);
    if (rc < 0)
      return err->code == MP_ESTATE ? (err->code = MP_EINVAL) : rc;
    mp_extensions_put(&s->extensions, &e);
    mp_extension_destroy(&e);
  }
  return 0;
}

static int read_deployment(const cJSON *root, const mp_crypter *c,
                           mp_snapshot *s, mp_err *err) {
  if (check_version(root, err) < 0 || check_features(root, err) < 0)
    return err->code;
  const cJSON *dep = cJSON_GetObjectItemCaseSensitive(root, "deployment");
  if (!cJSON_IsObject(dep))
    return mp_err_set(err, MP_EINVAL,
                      "the file has no 'deployment' object; is this the "
                      "output of `stack export`?");
  if (read_manifest(dep, s, err) < 0 || read_secrets(dep, s, err) < 0 ||
      read_resources(dep, c, s, err) < 0 || read_pending(dep, c, s, err) < 0 ||
      read_extensions(dep, s, err) < 0)
    return err->code;
  return 0;
}

int mp_snapshot_import(const char *text, size_t len, const mp_crypter *c,
                       mp_snapshot **out, mp_err *err) {
  *out = NULL;
  const char *end = NULL;
  cJSON *root = mp__cjson_parse(text, len, &end);
  if (root == NULL) {
    size_t off = (end && end >= text) ? (size_t)(end - text) : 0;
    return mp_err_set(err, MP_EINVAL,
                      "the deployment is not valid JSON (near byte %zu)", off);
  }
  mp_snapshot *s = mp_snapshot_new();
  int rc = cJSON_IsObject(root) ? read_deployment(root, c, s, err)
                                : mp_err_set(err, MP_EINVAL,
                                             "the deployment must be a JSON "
                                             "object");
  cJSON_Delete(root);
  if (rc < 0) {
    mp_snapshot_free(s);
    return rc;
  }
  *out = s;
  return 0;
}
