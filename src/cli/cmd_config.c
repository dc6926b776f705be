/* minipulumi config: the stack's configuration in Pulumi.<stack>.yaml.
 *   config [--json] [--show-secrets]
 *   config set KEY [VALUE] [--secret] [--plaintext] [--path]
 *   config get KEY [--json] [--path]
 *   config rm KEY [--path]
 * (set-all, rm-all and cp are in cmd_config_bulk.c) */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/render.h"
#include "cli/secrets.h"

typedef mp_cfg_cmd cfg_cmd;

static int open_cfg(mp_ctx *ctx, cfg_cmd *c, int write) {
  return mp_cfg_open(ctx, NULL, c, write);
}

/* The key as shown: the project's own namespace is left out. */
static const char *pretty_key(const mp_ctx *ctx, const char *key) {
  size_t n = strlen(ctx->project->name);
  if (!strncmp(key, ctx->project->name, n) && key[n] == ':') return key + n + 1;
  return key;
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

/* ==== list ==== */

static void list_text(cfg_cmd *c, const mp_value *decoded, int show) {
  const mp_value *vals = decoded;
  size_t w = 3;
  for (size_t i = 0; i < vals->u.obj.len; i++) {
    size_t n = strlen(pretty_key(c->ctx, vals->u.obj.items[i].key));
    if (n > w) w = n;
  }
  fprintf(c->ctx->out, "%-*s  VALUE\n", (int)w, "KEY");
  for (size_t i = 0; i < vals->u.obj.len; i++) {
    const mp_value *v = vals->u.obj.items[i].value;
    mp_buf b;
    mp_buf_init(&b);
    unsigned f = show ? MP_RENDER_SHOW_SECRETS : 0;
    const mp_value *inner = v->kind == MP_VALUE_SECRET && show ? v->u.secret : v;
    if (inner->kind == MP_VALUE_STRING) mp_buf_puts(&b, inner->u.str.ptr);
    else if (inner->kind == MP_VALUE_SECRET) mp_buf_puts(&b, "[secret]");
    else mp_cli_value_json(inner, f, 0, &b);
    fprintf(c->ctx->out, "%-*s  %s\n", (int)w,
            pretty_key(c->ctx, vals->u.obj.items[i].key), b.data ? b.data : "");
    mp_buf_destroy(&b);
  }
}

/* Pulumi's `config --json` / `config get --json` entry. */
static cJSON *entry_json(const mp_value *v, int show, int with_value) {
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

/* Decodes the file's values; secrets are decrypted only when shown. */
static int decode_all(cfg_cmd *c, int decrypt, mp_value **out) {
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
  *out = res;
  return 0;
}

static int cmd_list(cfg_cmd *c, int json, int show) {
  mp_value *vals = NULL;
  int status = decode_all(c, show, &vals);
  if (status) return status;
  if (json) {
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < vals->u.obj.len; i++)
      cJSON_AddItemToObject(o, vals->u.obj.items[i].key,
                            entry_json(vals->u.obj.items[i].value, show, 0));
    mp_cli_cjson_emit(c->ctx->out, o, 2);
  } else {
    list_text(c, vals, show);
  }
  mp_value_free(vals);
  return 0;
}

/* ==== get ==== */

static int cmd_get(cfg_cmd *c, const char *key, int path, int json) {
  mp_err err;
  mp_err_clear(&err);
  char *full = NULL, *rest = NULL;
  if (mp_cli_config_key(c->ctx, key, path, &full, &rest, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  mp_value *all = NULL, *found = NULL;
  int status = decode_all(c, 1, &all);
  const mp_value *v = all ? mp_value_object_get(all, full) : NULL;
  if (!status && v && rest) {
    mp_path p;
    if (mp_path_parse(rest, &p, &err)) {
      status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
    } else {
      const mp_value *at = mp_path_get(v, &p);
      found = at ? mp_value_dup(at) : NULL;
      v = found;
      mp_path_destroy(&p);
    }
  }
  if (!status && !v)
    status = mp_cli_error(c->ctx, MP_EXIT_ERROR,
                          "configuration key '%s' not found for stack '%s'",
                          key, c->stack);
  if (!status) {
    if (json) {
      mp_cli_cjson_emit(c->ctx->out, entry_json(v, 1, 1), 2);
    } else {
      mp_value *plain = mp_value_strip_secrets(v);
      mp_buf b;
      mp_buf_init(&b);
      if (plain->kind == MP_VALUE_STRING) mp_buf_puts(&b, plain->u.str.ptr);
      else mp_cli_value_json(plain, MP_RENDER_SHOW_SECRETS, 0, &b);
      fprintf(c->ctx->out, "%s\n", b.data ? b.data : "");
      mp_buf_destroy(&b);
      mp_value_free(plain);
    }
  }
  mp_value_free(found);
  mp_value_free(all);
  free(full);
  free(rest);
  return status;
}

/* ==== set ==== */

static char *read_stdin_value(void) {
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
    mp_buf_append(&b, chunk, n);
  char *s = mp_buf_detach(&b, &n);
  if (n && s[n - 1] == '\n') s[--n] = 0;
  if (n && s[n - 1] == '\r') s[--n] = 0;
  return s;
}

static int cmd_set(cfg_cmd *c, const mp_strv *pos, int secret, int path) {
  mp_err err;
  mp_err_clear(&err);
  char *full = NULL, *rest = NULL, *value = NULL;
  int status = 0;
  if (mp_cli_config_key(c->ctx, pos->items[1], path, &full, &rest, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  if (pos->len > 2) {
    value = mp_xstrdup(pos->items[2]);
  } else if (mp_cli_interactive(c->ctx)) {
    char line[4096];
    /* a secret typed at the prompt is not echoed */
    int got = secret ? mp_cli_prompt_secret(c->ctx, "value", line, sizeof(line))
                     : mp_cli_prompt(c->ctx, "value:", line, sizeof(line));
    if (got == 0) value = mp_xstrdup(line);
    memset(line, 0, sizeof(line));
  } else {
    value = read_stdin_value();
  }
  if (!value) {
    status = mp_cli_error(c->ctx, MP_EXIT_CONFIG, "no value given for '%s'",
                          pos->items[1]);
    goto done;
  }
  mp_value *v = NULL;
  if (secret) {
    mp_passphrase *pp = NULL;
    if (mp_cli_secrets(c->ctx, c->stack, &c->file, MP_SECRETS_CREATE, &pp, &err) ||
        mp_cli_config_encrypt(pp, value, strlen(value), &v, &err)) {
      status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
      goto done;
    }
  } else if (rest) {
    v = mp_cfg_path_value(value); /* below a key, "true" and "2" are typed */
  } else {
    v = mp_value_new_cstring(value);
  }
  if (mp_cfg_put(c, full, rest, v, &err) || mp_stack_config_save(&c->file, &err))
    status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
done:
  free(value);
  free(full);
  free(rest);
  return status;
}

/* ==== rm ==== */

static int cmd_rm(cfg_cmd *c, const char *key, int path) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_cfg_remove(c, key, path, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  if (mp_stack_config_save(&c->file, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_ERROR, &err);
  return 0;
}

/* ==== dispatch ==== */

static const mp_cmd_help help = {
    "minipulumi config [set KEY [VALUE] | get KEY | rm KEY | set-all | rm-all "
    "KEY... | cp [KEY] --dest STACK] [flags]",
    "Manage the stack's configuration, kept in Pulumi.<stack>.yaml beside "
    "Pulumi.yaml.\n\nWithout a subcommand, lists the configuration. A key "
    "without a namespace belongs\nto the project (`name` is "
    "`<project>:name`). With --path, a value below a key that reads\n`true`, "
    "`false` or an integer is stored as a bool or a number."};

int mp_cmd_config(int argc, const char **argv, mp_ctx *ctx) {
  if (argc >= 2) {
    int status = 0;
    if (mp_cfg_bulk(argc, argv, ctx, &status)) return status;
  }
  int json = 0, show = 0, secret = 0, plaintext = 0, path = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "print JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &show, "show secret values (list)"),
      MP_OPT_BOOL_(0, "secret", &secret, "encrypt the value (set)"),
      MP_OPT_BOOL_(0, "plaintext", &plaintext, "store the value as plain text (set)"),
      MP_OPT_BOOL_(0, "path", &path, "the key is a property path: a.b[0] (set, get, rm)"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  const char *sub = pos.len ? pos.items[0] : NULL;
  int status = 0;
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (secret && plaintext) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "only one of --secret and --plaintext may be given");
  } else if (sub && strcmp(sub, "set") && strcmp(sub, "get") &&
             strcmp(sub, "rm") && strcmp(sub, "remove")) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "unknown config subcommand '%s'; expected set, get "
                          "or rm",
                          sub);
  } else if (sub && (pos.len < 2 || pos.len > (strcmp(sub, "set") ? 2u : 3u))) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "usage: minipulumi config %s KEY%s", sub,
                          strcmp(sub, "set") ? "" : " [VALUE]");
  } else {
    cfg_cmd c;
    status = open_cfg(ctx, &c, sub && (!strcmp(sub, "set") || !strcmp(sub, "rm") ||
                                       !strcmp(sub, "remove")));
    if (!status) {
      if (!sub) status = cmd_list(&c, json, show);
      else if (!strcmp(sub, "set")) status = cmd_set(&c, &pos, secret, path);
      else if (!strcmp(sub, "get")) status = cmd_get(&c, pos.items[1], path, json);
      else status = cmd_rm(&c, pos.items[1], path);
    }
    mp_cfg_close(&c);
  }
  mp_strv_destroy(&pos);
  return status;
}
