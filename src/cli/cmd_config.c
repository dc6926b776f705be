/* minipulumi config: the stack's configuration in Pulumi.<stack>.yaml.
 *   config [--json] [--show-secrets]
 *   config set KEY [VALUE] [--secret] [--plaintext] [--path]
 *   config get KEY [--json] [--path]
 *   config rm KEY [--path]
 * (set-all, rm-all and cp are in cmd_config_bulk.c) */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/render.h"
#include "cli/secret_guess.h"
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

static int cmd_set(cfg_cmd *c, const mp_strv *pos, int secret, int plaintext,
                   int path) {
  mp_err err;
  mp_err_clear(&err);
  char *full = NULL, *rest = NULL, *value = NULL;
  int status = 0;
  if (mp_cli_config_key(c->ctx, pos->items[0], path, &full, &rest, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  if (pos->len > 1) {
    value = mp_xstrdup(pos->items[1]);
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
                          pos->items[0]);
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
  } else if (!plaintext && mp_cli_looks_like_secret(pos->items[0], value)) {
    status = mp_cli_error(c->ctx, MP_EXIT_CONFIG,
                          "config value for '%s' looks like a secret; rerun "
                          "with --secret to encrypt it, or --plaintext if you "
                          "meant to store in plaintext",
                          full);
    goto done;
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

/* Runs |fn| on the stack's file, opened for writing when |write|. */
static int with_cfg(mp_ctx *ctx, int write, int (*fn)(cfg_cmd *, void *),
                    void *arg) {
  cfg_cmd c;
  int status = open_cfg(ctx, &c, write);
  if (!status) status = fn(&c, arg);
  mp_cfg_close(&c);
  return status;
}

typedef struct sub_args {
  mp_strv pos;
  int json, show, secret, plaintext, path;
} sub_args;

static int run_list(cfg_cmd *c, void *a) {
  sub_args *s = a;
  return cmd_list(c, s->json, s->show);
}
static int run_get(cfg_cmd *c, void *a) {
  sub_args *s = a;
  return cmd_get(c, s->pos.items[0], s->path, s->json);
}
static int run_set(cfg_cmd *c, void *a) {
  sub_args *s = a;
  return cmd_set(c, &s->pos, s->secret, s->plaintext, s->path);
}
static int run_rm(cfg_cmd *c, void *a) {
  sub_args *s = a;
  return cmd_rm(c, s->pos.items[0], s->path);
}

static int config_set(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config set <key> [value] [flags]",
      "Set configuration value.\n\nIf the value is not on the command line, "
      "it is read from the terminal, or from standard\ninput when that is not "
      "a terminal. A value that looks like a secret (its key names a\n"
      "password, secret or token, and it is random enough) needs --secret or "
      "--plaintext.\nWith --path, the key is a property path: `names[0]`, "
      "`parent.nested`."};
  sub_args s = {0};
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "path", &s.path,
                   "The key contains a path to a property in a map or list to set"),
      MP_OPT_BOOL_(0, "plaintext", &s.plaintext,
                   "Save the value as plaintext (unencrypted)"),
      MP_OPT_BOOL_(0, "secret", &s.secret,
                   "Encrypt the value instead of storing it in plaintext"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 2, &s.pos);
  if (rc) return mp_args_exit_status(rc);
  int status = s.secret && s.plaintext
                   ? mp_cli_error(ctx, MP_EXIT_CONFIG,
                                  "only one of --secret and --plaintext may "
                                  "be given")
                   : with_cfg(ctx, 1, run_set, &s);
  mp_strv_destroy(&s.pos);
  return status;
}

static int config_get(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config get <key> [flags]",
      "Get a single configuration value.\n\nWith --path, the key is a property "
      "path: `names[0]`, `parent.nested`."};
  sub_args s = {0};
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &s.json, "Emit output as JSON"),
      MP_OPT_BOOL_(0, "path", &s.path,
                   "The key contains a path to a property in a map or list to get"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &s.pos);
  if (rc) return mp_args_exit_status(rc);
  int status = with_cfg(ctx, 0, run_get, &s);
  mp_strv_destroy(&s.pos);
  return status;
}

static int config_rm(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config rm <key> [flags]",
      "Remove configuration value.\n\nWith --path, the key is a property "
      "path: `names[0]`, `parent.nested`."};
  sub_args s = {0};
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "path", &s.path,
                   "The key contains a path to a property in a map or list to remove"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &s.pos);
  if (rc) return mp_args_exit_status(rc);
  int status = with_cfg(ctx, 1, run_rm, &s);
  mp_strv_destroy(&s.pos);
  return status;
}

static const mp_cmd_help help = {
    "minipulumi config [subcommand] [flags]",
    "Manage the stack's configuration, kept in Pulumi.<stack>.yaml beside "
    "Pulumi.yaml.\n\nWithout a subcommand, lists the configuration. A key "
    "without a namespace belongs\nto the project (`name` is "
    "`<project>:name`). With --path, a value below a key that reads\n`true`, "
    "`false` or an integer is stored as a bool or a number."};

static const struct {
  const char *names[3];
  int (*fn)(int argc, const char **argv, mp_ctx *ctx);
  const char *title, *summary;
} subs[] = {
    {{"set", NULL, NULL}, config_set, "config set", "Set configuration value"},
    {{"get", NULL, NULL}, config_get, "config get",
     "Get a single configuration value"},
    {{"rm", "remove", NULL}, config_rm, "config rm", "Remove configuration value"},
    {{"set-all", NULL, NULL}, NULL, NULL, "Set multiple configuration values"},
    {{"rm-all", "remove-all", "delete-all"}, NULL, NULL,
     "Remove multiple configuration values"},
    {{"cp", "copy", NULL}, NULL, NULL,
     "Copy config to another stack"},
    {{"refresh", NULL, NULL}, mp_cmd_config_refresh, "config refresh",
     "Update the local configuration based on the most recent deployment "
     "of the stack"},
};

static void print_subs(mp_ctx *ctx) {
  fprintf(ctx->out, "\nSubcommands:\n");
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
    fprintf(ctx->out, "  %-10s %s\n", subs[i].names[0], subs[i].summary);
}

/* Runs the subcommand argv[1] names. */
static int run_sub(int argc, const char **argv, mp_ctx *ctx, int *status) {
  if (mp_cfg_bulk(argc, argv, ctx, status)) return 1;
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
    for (size_t n = 0; n < 3 && subs[i].names[n]; n++) {
      if (!subs[i].fn || strcmp(argv[1], subs[i].names[n])) continue;
      argv[1] = subs[i].title;
      *status = subs[i].fn(argc - 1, argv + 1, ctx);
      return 1;
    }
  return 0;
}

/* Pulumi's --config-file is a persistent flag of `config`: it reaches
 * every subcommand. Takes it out of argv (|argc| updated) into
 * ctx->config_file, which every config path goes through
 * (mp_cli_stack_config_path). 0, or an exit status. */
static int take_config_file(mp_ctx *ctx, int *argc, const char **argv) {
  int w = 1;
  for (int a = 1; a < *argc; a++) {
    const char *v = argv[a];
    if (!strcmp(v, "--")) {
      while (a < *argc) argv[w++] = argv[a++];
      break;
    }
    if (!strncmp(v, "--config-file=", 14)) {
      ctx->config_file = v + 14;
    } else if (!strcmp(v, "--config-file")) {
      if (a + 1 >= *argc)
        return mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "flag needs an argument: --config-file");
      ctx->config_file = argv[++a];
    } else {
      argv[w++] = v;
    }
  }
  *argc = w;
  return 0;
}

int mp_cmd_config(int argc, const char **argv, mp_ctx *ctx) {
  int bad = take_config_file(ctx, &argc, argv);
  if (bad) return bad;
  int at = mp_args_first_positional(ctx, argc, argv);
  if (at < argc) {
    /* the subcommand first, then the flags given around it */
    const char **args = mp_xcalloc((size_t)argc + 1, sizeof(*args));
    args[0] = argv[0];
    args[1] = argv[at];
    for (int a = 1, k = 2; a < argc; a++)
      if (a != at) args[k++] = argv[a];
    int status = 0;
    if (!run_sub(argc, args, ctx, &status)) {
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "unknown command \"%s\" for \"%s config\"; "
                            "expected one of set, get, rm, set-all, rm-all, "
                            "cp or refresh",
                            argv[at], mp_prog_name());
      fprintf(ctx->err, "Run '%s config --help' for usage.\n",
              mp_prog_name());
    }
    free(args);
    return status;
  }
  sub_args s = {0};
  const char *shown_only = NULL; /* taken out by take_config_file */
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "config-file", &shown_only, "file",
                  "Use the configuration values in the specified file "
                  "rather than detecting the file name (every config "
                  "subcommand)"),
      MP_OPT_BOOL_('j', "json", &s.json, "Emit output as JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &s.show,
                   "Show secret values when listing config instead of "
                   "displaying blinded values"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &s.pos);
  if (rc == MP_ARGS_HELP) print_subs(ctx);
  if (rc) return mp_args_exit_status(rc);
  int status = with_cfg(ctx, 0, run_list, &s);
  mp_strv_destroy(&s.pos);
  return status;
}
