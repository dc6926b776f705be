/* What the `config` subcommands share (config_cmd.h): one stack's
 * Pulumi.<stack>.yaml opened, its values decoded, and values set or
 * removed at a key or a path below it. The cmd_config*.c files call it;
 * it calls none of them. */
#include <stdlib.h>
#include <string.h>

#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/json_out.h"
#include "cli/render.h"
#include "cli/secrets.h"
#include "cli/messages.h"
#include "cli/workspace.h"

int mp_cfg_open(mp_ctx *ctx, const char *stack, mp_cfg_cmd *c, int write) {
  memset(c, 0, sizeof(*c));
  c->ctx = ctx;
  int status = mp_cli_stack(ctx, stack, 1, &c->stack);
  if (status) return status;
  mp_err err;
  mp_err_clear(&err);
  char *path = mp_cli_stack_config_path(ctx, c->stack);
  int rc = write ? mp_stack_config_open(path, &c->file, &err)
                 : mp_stack_config_load(path, &c->file, &err);
  free(path);
  if (rc) return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  c->loaded = 1;
  return 0;
}

void mp_cfg_close(mp_cfg_cmd *c) {
  if (c->loaded) mp_stack_config_destroy(&c->file);
  free(c->stack);
}

static mp_value *new_container(const mp_path_seg *next) {
  return next->kind == MP_PATH_INDEX ? mp_value_new_array()
                                     : mp_value_new_object();
}

/* Whether |child|, an existing value, can hold segment |next|. As in
 * Pulumi, a value is never replaced by a list or a map on the way down:
 * a string at `a[0]` stays, and `a[0][0]` is refused. */
static int can_hold(const mp_value *child, const mp_path_seg *next,
                    mp_err *err) {
  if (next->kind == MP_PATH_WILDCARD)
    return mp_err_set(err, MP_EINVAL, "a config path cannot contain `*`");
  if (next->kind == MP_PATH_INDEX && child->kind != MP_VALUE_ARRAY)
    return mp_err_set(err, MP_EINVAL, "a list was expected for index %zu",
                      next->index);
  if (next->kind == MP_PATH_KEY &&
      (child->kind != MP_VALUE_OBJECT || mp_config_is_secure(child)))
    return mp_err_set(err, MP_EINVAL, "a map was expected for key '%s'",
                      next->key);
  return 0;
}

/* Sets |v| (owned on success) at segment |i| of |p| below |parent|,
 * creating objects and lists where nothing is; an index may name an
 * element or append one (index == length). */
static int path_put(mp_value *parent, const mp_path *p, size_t i, mp_value *v,
                    mp_err *err) {
  const mp_path_seg *seg = &p->segs[i];
  int last = i + 1 == p->len;
  mp_value *child = NULL;
  if (seg->kind == MP_PATH_WILDCARD)
    return mp_err_set(err, MP_EINVAL, "a config path cannot contain `*`");
  if (seg->kind == MP_PATH_KEY) {
    if (parent->kind != MP_VALUE_OBJECT)
      return mp_err_set(err, MP_EINVAL, "cannot set key '%s': the parent is a list",
                        seg->key);
    if (last) {
      mp_value_object_set(parent, seg->key, v);
      return 0;
    }
    child = mp_value_object_get(parent, seg->key);
    if (child && can_hold(child, &p->segs[i + 1], err)) return MP_EINVAL;
    if (!child) {
      mp_value_object_set(parent, seg->key, new_container(&p->segs[i + 1]));
      child = mp_value_object_get(parent, seg->key);
    }
    return path_put(child, p, i + 1, v, err);
  }
  if (parent->kind != MP_VALUE_ARRAY)
    return mp_err_set(err, MP_EINVAL, "cannot set index %zu: the parent is not a list",
                      seg->index);
  if (seg->index > parent->u.arr.len)
    return mp_err_set(err, MP_EINVAL,
                      "index %zu is out of range: the list has %zu elements",
                      seg->index, parent->u.arr.len);
  if (!last && seg->index < parent->u.arr.len &&
      can_hold(parent->u.arr.items[seg->index], &p->segs[i + 1], err))
    return MP_EINVAL;
  if (seg->index == parent->u.arr.len)
    mp_value_array_push(parent, last ? v : new_container(&p->segs[i + 1]));
  else if (last) {
    mp_value_free(parent->u.arr.items[seg->index]);
    parent->u.arr.items[seg->index] = v;
  }
  if (last) return 0;
  return path_put(parent->u.arr.items[seg->index], p, i + 1, v, err);
}

mp_value *mp_cfg_path_value(const char *text) {
  if (!strcmp(text, "true") || !strcmp(text, "false"))
    return mp_value_new_bool(text[0] == 't');
  /* "0123" keeps its leading zero as a string. */
  const char *d = text[0] == '-' ? text + 1 : text;
  int digits = d[0] != '\0' && !(strlen(text) > 1 && text[0] == '0');
  for (const char *p = d; digits && *p; p++)
    if (*p < '0' || *p > '9') digits = 0;
  if (digits && strlen(d) <= 15) return mp_value_new_number(strtod(text, NULL));
  return mp_value_new_cstring(text);
}

int mp_cfg_put(mp_cfg_cmd *c, const char *full, const char *rest, mp_value *v,
               mp_err *err) {
  mp_value *vals = mp_stack_config_values(&c->file);
  if (!rest) {
    mp_value_object_set(vals, full, v);
    return 0;
  }
  mp_path p;
  int rc = mp_path_parse(rest, &p, err);
  if (rc) {
    mp_value_free(v);
    return rc;
  }
  mp_value *root = mp_value_object_get(vals, full);
  if (root && (mp_config_is_secure(root) ||
               (root->kind != MP_VALUE_OBJECT && root->kind != MP_VALUE_ARRAY))) {
    mp_path_destroy(&p);
    mp_value_free(v);
    return mp_err_set(err, MP_EINVAL,
                      "config value '%s' is not an object or a list; cannot "
                      "set '%s' below it",
                      full, rest);
  }
  if (!root && p.len) {
    mp_value_object_set(vals, full, new_container(&p.segs[0]));
    root = mp_value_object_get(vals, full);
  }
  rc = p.len ? path_put(root, &p, 0, v, err)
             : mp_err_set(err, MP_EINVAL, "empty config path '%s'", rest);
  if (rc) mp_value_free(v);
  mp_path_destroy(&p);
  return rc;
}

int mp_cfg_remove(mp_cfg_cmd *c, const char *key, int path, mp_err *err) {
  char *full = NULL, *rest = NULL;
  int rc = mp_cli_config_key(c->ctx, key, path, &full, &rest, err);
  if (rc) return rc;
  mp_value *vals = mp_stack_config_values(&c->file);
  if (!rest) {
    mp_value_object_del(vals, full);
  } else {
    mp_path p;
    mp_value *root = mp_value_object_get(vals, full);
    rc = mp_path_parse(rest, &p, err);
    if (rc == 0) {
      if (root) mp_path_delete(root, &p);
      mp_path_destroy(&p);
    }
  }
  free(full);
  free(rest);
  return rc;
}

static int contains_secure(const mp_value *v) {
  if (mp_config_is_secure(v)) return 1;
  if (v->kind == MP_VALUE_OBJECT) {
    for (size_t i = 0; i < v->u.obj.len; i++)
      if (contains_secure(v->u.obj.items[i].value)) return 1;
  } else if (v->kind == MP_VALUE_ARRAY) {
    for (size_t i = 0; i < v->u.arr.len; i++)
      if (contains_secure(v->u.arr.items[i])) return 1;
  }
  return 0;
}

cJSON *mp_cfg_entry_json(const mp_value *v, int show, int with_value) {
  cJSON *e = cJSON_CreateObject();
  int secret = mp_value_contains_secrets(v);
  if (!secret || show || with_value) {
    mp_value *plain = mp_value_strip_secrets(v);
    if (plain->kind == MP_VALUE_STRING) {
      cJSON_AddStringToObject(e, "value", plain->u.str.ptr);
    } else {
      mp_buf b;
      mp_buf_init(&b);
      mp_cli_value_json(plain, MP_RENDER_SHOW_SECRETS, 0, &b);
      cJSON_AddStringToObject(e, "value", b.data ? b.data : "");
      mp_buf_destroy(&b);
      if (plain->kind == MP_VALUE_OBJECT || plain->kind == MP_VALUE_ARRAY)
        cJSON_AddItemToObject(e, "objectValue",
                              mp_cli_value_cjson(plain, MP_RENDER_SHOW_SECRETS));
    }
    mp_value_free(plain);
  }
  cJSON_AddBoolToObject(e, "secret", secret);
  return e;
}

int mp_cfg_decode_all(mp_cfg_cmd *c, int decrypt, mp_value **out) {
  mp_err err;
  mp_err_clear(&err);
  const mp_value *vals = mp_value_object_get(c->file.doc, "config");
  mp_value *res = mp_value_new_object();
  mp_passphrase *pp = NULL;
  *out = NULL;
  if (decrypt && vals && contains_secure(vals) &&
      mp_cli_secrets(c->ctx, c->stack, &c->file, MP_SECRETS_EXISTING, &pp, &err)) {
    mp_value_free(res);
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  }
  for (size_t i = 0; vals && i < vals->u.obj.len; i++) {
    const mp_value *v = vals->u.obj.items[i].value;
    mp_value *d = NULL;
    if (!decrypt && contains_secure(v)) {
      d = mp_value_new_secret(mp_value_new_cstring("[secret]"));
    } else if (mp_cli_config_decode(v, pp, &d, &err)) {
      mp_value_free(res);
      return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
    }
    mp_value_object_set(res, vals->u.obj.items[i].key, d);
  }
  /* as Pulumi's config and config get (workspace.ApplyProjectConfig):
   * the project's values and defaults for the keys the stack leaves out */
  const mp_value *defs = c->ctx->project ? c->ctx->project->defaults : NULL;
  for (size_t i = 0; defs && i < defs->u.obj.len; i++)
    if (!mp_value_object_get(res, defs->u.obj.items[i].key))
      mp_value_object_set(res, defs->u.obj.items[i].key,
                          mp_value_dup(defs->u.obj.items[i].value));
  *out = res;
  return 0;
}
