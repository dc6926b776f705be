/* Config keys and values: from the stack's file to what the engine gets. */
#include <stdlib.h>
#include <string.h>

#include "cli/config_values.h"
#include "cli/config_cmd.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

int mp_cli_config_key(const mp_ctx *ctx, const char *key, int path,
                      char **full, char **rest, mp_err *err) {
  size_t top = path ? strcspn(key, ".[") : strlen(key);
  *full = NULL;
  *rest = NULL;
  if (top == 0)
    return mp_err_set(err, MP_EINVAL, "invalid configuration key '%s'", key);
  char *name = mp_xstrndup(key, top);
  const char *colon = strchr(name, ':');
  if (colon && (colon == name || !colon[1])) {
    free(name);
    return mp_err_set(err, MP_EINVAL,
                      "invalid configuration key '%s': expected "
                      "<namespace>:<name>",
                      key);
  }
  *full = colon ? name : mp_xasprintf("%s:%s", ctx->project->name, name);
  if (!colon) free(name);
  if (path && key[top]) {
    const char *r = key + top + (key[top] == '.');
    if (!*r) {
      free(*full);
      *full = NULL;
      return mp_err_set(err, MP_EINVAL, "invalid configuration path '%s'", key);
    }
    *rest = mp_xstrdup(r);
  }
  return 0;
}

static int decrypt_secure(const mp_value *v, mp_passphrase *pp,
                          mp_value **out, mp_err *err) {
  if (!pp)
    return mp_err_set(err, MP_EINVAL,
                      "a secure config value cannot be read: the stack has no "
                      "encryptionsalt; set the secret again with `minipulumi "
                      "config set --secret`");
  mp_crypter c = mp_passphrase_crypter(pp);
  const char *text = mp_config_secure_text(v);
  mp_buf plain;
  mp_buf_init(&plain);
  int rc = c.decrypt(c.ctx, text, strlen(text), &plain, err);
  if (rc == 0)
    *out = mp_value_new_secret(
        mp_value_new_string(plain.data ? plain.data : "", plain.len));
  mp_buf_destroy(&plain);
  return rc;
}

int mp_cli_config_decode(const mp_value *stored, mp_passphrase *pp,
                         mp_value **out, mp_err *err) {
  int rc = 0;
  *out = NULL;
  if (mp_config_is_secure(stored)) return decrypt_secure(stored, pp, out, err);
  if (stored->kind == MP_VALUE_OBJECT) {
    mp_value *o = mp_value_new_object();
    for (size_t i = 0; rc == 0 && i < stored->u.obj.len; i++) {
      mp_value *item = NULL;
      rc = mp_cli_config_decode(stored->u.obj.items[i].value, pp, &item, err);
      if (rc == 0) mp_value_object_set(o, stored->u.obj.items[i].key, item);
    }
    if (rc) mp_value_free(o);
    else *out = o;
    return rc;
  }
  if (stored->kind == MP_VALUE_ARRAY) {
    mp_value *a = mp_value_new_array();
    for (size_t i = 0; rc == 0 && i < stored->u.arr.len; i++) {
      mp_value *item = NULL;
      rc = mp_cli_config_decode(stored->u.arr.items[i], pp, &item, err);
      if (rc == 0) mp_value_array_push(a, item);
    }
    if (rc) mp_value_free(a);
    else *out = a;
    return rc;
  }
  *out = mp_value_dup(stored);
  return 0;
}

static int has_secure(const mp_value *v) {
  if (!v) return 0;
  if (mp_config_is_secure(v)) return 1;
  if (v->kind == MP_VALUE_OBJECT) {
    for (size_t i = 0; i < v->u.obj.len; i++)
      if (has_secure(v->u.obj.items[i].value)) return 1;
  } else if (v->kind == MP_VALUE_ARRAY) {
    for (size_t i = 0; i < v->u.arr.len; i++)
      if (has_secure(v->u.arr.items[i])) return 1;
  }
  return 0;
}

int mp_cli_config_build(mp_ctx *ctx, const char *stack, mp_value **out,
                        mp_err *err) {
  mp_stack_config cfg;
  char *path = mp_cli_stack_config_path(ctx, stack);
  int rc = mp_stack_config_load(path, &cfg, err);
  free(path);
  *out = NULL;
  if (rc) return rc;
  mp_value *res = ctx->project->defaults ? mp_value_dup(ctx->project->defaults)
                                         : mp_value_new_object();
  const mp_value *vals = mp_value_object_get(cfg.doc, "config");
  mp_passphrase *pp = NULL;
  if (has_secure(vals))
    rc = mp_cli_secrets(ctx, stack, &cfg, MP_SECRETS_EXISTING, &pp, err);
  for (size_t i = 0; rc == 0 && vals && i < vals->u.obj.len; i++) {
    mp_value *v = NULL;
    rc = mp_cli_config_decode(vals->u.obj.items[i].value, pp, &v, err);
    if (rc == 0) mp_value_object_set(res, vals->u.obj.items[i].key, v);
    else mp_err_prefix(err, "config '%s'", vals->u.obj.items[i].key);
  }
  mp_stack_config_destroy(&cfg);
  if (rc) mp_value_free(res);
  else *out = res;
  return rc;
}

int mp_cli_config_apply_pairs(mp_ctx *ctx, const char *stack,
                              const mp_strv *pairs, int path, mp_err *err) {
  if (!pairs || !pairs->len) return 0;
  mp_cfg_cmd c;
  memset(&c, 0, sizeof(c));
  c.ctx = ctx;
  char *file = mp_cli_stack_config_path(ctx, stack);
  int rc = mp_stack_config_open(file, &c.file, err);
  free(file);
  if (rc) return rc;
  for (size_t i = 0; rc == 0 && i < pairs->len; i++) {
    const char *kv = pairs->items[i];
    const char *eq = strchr(kv, '=');
    if (!eq) {
      rc = mp_err_set(err, MP_EINVAL,
                      "invalid --config '%s': expected key=value", kv);
      break;
    }
    char *key = mp_xstrndup(kv, (size_t)(eq - kv)), *full = NULL, *rest = NULL;
    /* --config-path: the key is a property path, as `config set --path` */
    rc = mp_cli_config_key(ctx, key, path, &full, &rest, err);
    if (rc == 0)
      rc = mp_cfg_put(&c, full, rest,
                      rest ? mp_cfg_path_value(eq + 1)
                           : mp_value_new_cstring(eq + 1),
                      err);
    free(key);
    free(full);
    free(rest);
  }
  if (rc == 0) rc = mp_stack_config_save(&c.file, err);
  mp_stack_config_destroy(&c.file);
  return rc;
}

int mp_cli_config_encrypt(mp_passphrase *pp, const char *plain, size_t len,
                          mp_value **out, mp_err *err) {
  mp_crypter c = mp_passphrase_crypter(pp);
  mp_buf ct;
  mp_buf_init(&ct);
  *out = NULL;
  int rc = c.encrypt(c.ctx, plain, len, &ct, err);
  if (rc == 0) {
    mp_value *o = mp_value_new_object();
    mp_value_object_set(o, "secure", mp_value_new_string(ct.data, ct.len));
    *out = o;
  }
  mp_buf_destroy(&ct);
  return rc;
}

/* Re-encrypts every secure value under |v| from |from| to |to|. */
int mp_cli_config_reencrypt(mp_value *v, mp_passphrase *from,
                            mp_passphrase *to, mp_err *err) {
  int rc = 0;
  if (v->kind == MP_VALUE_ARRAY) {
    for (size_t i = 0; rc == 0 && i < v->u.arr.len; i++)
      rc = mp_cli_config_reencrypt(v->u.arr.items[i], from, to, err);
    return rc;
  }
  if (v->kind != MP_VALUE_OBJECT) return 0;
  for (size_t i = 0; rc == 0 && i < v->u.obj.len; i++) {
    mp_value *item = v->u.obj.items[i].value;
    if (!mp_config_is_secure(item)) {
      rc = mp_cli_config_reencrypt(item, from, to, err);
      continue;
    }
    mp_value *plain = NULL, *enc = NULL;
    if (!to)
      return mp_err_set(err, MP_EINVAL,
                        "cannot copy secret config: the new stack has no "
                        "passphrase; set PULUMI_CONFIG_PASSPHRASE");
    rc = decrypt_secure(item, from, &plain, err);
    if (rc == 0)
      rc = mp_cli_config_encrypt(to, plain->u.secret->u.str.ptr,
                                 plain->u.secret->u.str.len, &enc, err);
    if (rc == 0) {
      char *key = mp_xstrdup(v->u.obj.items[i].key);
      mp_value_object_set(v, key, enc);
      free(key);
    }
    mp_value_free(plain);
  }
  return rc;
}
