/* minipulumi config: the group of cmd_config_*.c (set, get, rm, set-all,
 * rm-all, cp, refresh) and, without a subcommand, the list of the stack's
 * configuration in Pulumi.<stack>.yaml:
 *   config [--json] [--show-secrets] [--config-file FILE] */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/config_cmd.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/render.h"

static const mp_command subs[] = {
    {"set", mp_cmd_config_set, "Set configuration value", {NULL}},
    {"get", mp_cmd_config_get, "Get a single configuration value", {NULL}},
    {"rm", mp_cmd_config_rm, "Remove configuration value", {"remove"}},
    {"set-all", mp_cmd_config_set_all, "Set multiple configuration values",
     {NULL}},
    {"rm-all", mp_cmd_config_rm_all, "Remove multiple configuration values",
     {"remove-all", "delete-all"}},
    {"cp", mp_cmd_config_cp, "Copy config to another stack", {"copy"}},
    {"refresh", mp_cmd_config_refresh,
     "Update the local configuration based on the most recent deployment "
     "of the stack",
     {NULL}},
};

static int list(int argc, const char **argv, mp_ctx *ctx);

static const mp_cmd_group group = {
    "config",
    {"minipulumi config [subcommand] [flags]",
     "Manage the stack's configuration, kept in Pulumi.<stack>.yaml beside "
     "Pulumi.yaml.\n\nWithout a subcommand, lists the configuration. A key "
     "without a namespace belongs\nto the project (`name` is "
     "`<project>:name`). With --path, a value below a key that reads\n`true`, "
     "`false` or an integer is stored as a bool or a number."},
    subs,
    MP_ARRAY_LEN(subs),
    list};

/* The key as shown: the project's own namespace is left out. */
static const char *pretty_key(const mp_ctx *ctx, const char *key) {
  size_t n = strlen(ctx->project->name);
  if (!strncmp(key, ctx->project->name, n) && key[n] == ':') return key + n + 1;
  return key;
}

static void list_text(mp_cfg_cmd *c, const mp_value *decoded, int show) {
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

static int list_values(mp_cfg_cmd *c, int json, int show) {
  mp_value *vals = NULL;
  int status = mp_cfg_decode_all(c, show, &vals);
  if (status) return status;
  if (json) {
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < vals->u.obj.len; i++)
      cJSON_AddItemToObject(o, vals->u.obj.items[i].key,
                            mp_cfg_entry_json(vals->u.obj.items[i].value, show, 0));
    mp_cli_cjson_emit(c->ctx->out, o, 2);
  } else {
    list_text(c, vals, show);
  }
  mp_value_free(vals);
  return 0;
}

/* `config` without a subcommand: the values, listed. */
static int list(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  int json = 0, show = 0;
  const char *shown_only = NULL; /* taken out by take_config_file */
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "config-file", &shown_only, "file",
                  "Use the configuration values in the specified file "
                  "rather than detecting the file name (every config "
                  "subcommand)"),
      MP_OPT_BOOL_('j', "json", &json, "Emit output as JSON"),
      MP_OPT_BOOL_(0, "show-secrets", &show,
                   "Show secret values when listing config instead of "
                   "displaying blinded values"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &group.help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_cfg_cmd c;
  int status = mp_cfg_open(ctx, NULL, &c, 0);
  if (!status) status = list_values(&c, json, show);
  mp_cfg_close(&c);
  mp_strv_destroy(&pos);
  return status;
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
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
