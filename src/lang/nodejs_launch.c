/* The command line and environment of a Node.js program
 * (docs/sdk-contract.md, "Launching a Node.js program"). */
#include "lang/nodejs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern char **environ;

#define RUN_SCRIPT "@pulumi/pulumi/cmd/run/index.js"

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *mp_nodejs_find_module_file(const char *dir, const char *rel) {
  char *cur = mp_xstrdup(dir);
  for (;;) {
    char *cand = mp_xasprintf("%s/node_modules/%s", cur, rel);
    if (is_file(cand)) {
      free(cur);
      return cand;
    }
    free(cand);
    char *slash = strrchr(cur, '/');
    if (slash == NULL || slash == cur) break;
    *slash = '\0';
  }
  free(cur);
  return NULL;
}

int mp_nodejs_config_strings(const mp_value *config, mp_value **strings,
                             mp_value **secret_keys, mp_err *err) {
  mp_value *obj = mp_value_new_object();
  mp_value *keys = mp_value_new_array();
  int rc = 0;
  for (size_t i = 0; config && config->kind == MP_VALUE_OBJECT &&
                     i < config->u.obj.len; i++) {
    const mp_value_entry *e = &config->u.obj.items[i];
    if (mp_value_contains_secrets(e->value))
      mp_value_array_push(keys, mp_value_new_cstring(e->key));
    mp_value *plain = mp_value_strip_secrets(e->value);
    if (plain->kind == MP_VALUE_STRING) {
      mp_value_object_set(obj, e->key, plain);
      continue;
    }
    mp_buf b;
    mp_buf_init(&b);
    rc = mp_value_to_json(plain, NULL, 0, &b, err);
    mp_value_free(plain);
    if (rc < 0) {
      mp_buf_destroy(&b);
      mp_err_prefix(err, "config key '%s'", e->key);
      break;
    }
    mp_buf_putc(&b, '\0');
    mp_value_object_set(obj, e->key, mp_value_new_cstring(b.data));
    mp_buf_destroy(&b);
  }
  if (rc < 0) {
    mp_value_free(obj);
    mp_value_free(keys);
    return rc;
  }
  *strings = obj;
  *secret_keys = keys;
  return 0;
}

int mp_nodejs_config_env(const mp_value *config, char **config_json,
                         char **secret_keys_json, mp_err *err) {
  *config_json = *secret_keys_json = NULL;
  mp_value *obj = NULL, *secret_keys = NULL;
  int rc = mp_nodejs_config_strings(config, &obj, &secret_keys, err);
  if (rc < 0) return rc;
  mp_buf a, b;
  mp_buf_init(&a);
  mp_buf_init(&b);
  rc = mp_value_to_json(obj, NULL, 0, &a, err);
  if (rc == 0) rc = mp_value_to_json(secret_keys, NULL, 0, &b, err);
  mp_value_free(obj);
  mp_value_free(secret_keys);
  if (rc < 0) {
    mp_buf_destroy(&a);
    mp_buf_destroy(&b);
    return rc;
  }
  *config_json = mp_buf_detach(&a, NULL);
  *secret_keys_json = mp_buf_detach(&b, NULL);
  return 0;
}

/* 1 if |entry| ("NAME=value") sets one of the variables we set. */
static int overridden(const char *entry) {
  static const char *const ours[] = {
      "PULUMI_CONFIG=", "PULUMI_CONFIG_SECRET_KEYS=",
      "PULUMI_NODEJS_TYPESCRIPT=", "PULUMI_NODEJS_TSCONFIG_PATH=",
      "PULUMI_NODEJS_MONITOR=", "PULUMI_NODEJS_ENGINE=",
      "PULUMI_NODEJS_PROJECT=", "PULUMI_NODEJS_STACK=",
      "PULUMI_NODEJS_ORGANIZATION=", "PULUMI_NODEJS_DRY_RUN=",
      "PULUMI_NODEJS_ROOT_DIRECTORY=", "PULUMI_NODEJS_PARALLEL="};
  for (size_t i = 0; i < MP_ARRAY_LEN(ours); i++)
    if (strncmp(entry, ours[i], strlen(ours[i])) == 0) return 1;
  return 0;
}

/* Splits the `nodeargs` option on blanks into |argv|. */
static void push_words(mp_strv *argv, const char *s) {
  while (s && *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strcspn(s, " \t");
    if (n) mp_strv_push_take(argv, mp_xstrndup(s, n));
    s += n;
  }
}

static int missing_sdk(const char *dir, mp_err *err) {
  char *nm = mp_xasprintf("%s/node_modules", dir);
  int have = is_dir(nm);
  free(nm);
  return mp_err_set(err, MP_ENOENT,
                    have ? "the Node.js program in '%s' cannot run: "
                           "@pulumi/pulumi is not installed in its "
                           "node_modules; run `npm install` there"
                         : "the Node.js program in '%s' cannot run: its "
                           "packages are not installed (no node_modules); "
                           "run `npm install` there",
                    dir);
}

int mp_nodejs_launch_init(mp_nodejs_launch *l, const mp_project *p,
                          const mp_source_info *info, const char *addr,
                          mp_err *err) {
  memset(l, 0, sizeof(*l));
  mp_strv_init(&l->argv);
  mp_strv_init(&l->env);
  const char *root = mp_project_dir(p);
  const char *prog = mp_project_program_dir(p);
  /* `main` names the program's folder, or its file. */
  if (is_file(prog)) {
    l->pwd = mp_xstrdup(root);
    l->entry = mp_xstrdup(mp_project_main(p));
  } else {
    l->pwd = mp_xstrdup(prog);
    l->entry = mp_xstrdup(".");
  }
  l->run_script = mp_nodejs_find_module_file(l->pwd, RUN_SCRIPT);
  if (l->run_script == NULL) return missing_sdk(l->pwd, err);
  char *cfg = NULL, *secret_keys = NULL;
  int rc = mp_nodejs_config_env(info->config, &cfg, &secret_keys, err);
  if (rc < 0) return rc;

  mp_strv_push(&l->argv, "node");
  push_words(&l->argv, mp_project_runtime_option(p, "nodeargs"));
  mp_strv_push(&l->argv, l->run_script);
  const char *flags[][2] = {
      {"--monitor", addr},
      {"--engine", addr},
      {"--organization", info->organization ? info->organization : "organization"},
      {"--project", info->project},
      {"--stack", info->stack},
      {"--root-directory", root},
      {"--pwd", l->pwd},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(flags); i++) {
    mp_strv_push(&l->argv, flags[i][0]);
    mp_strv_push(&l->argv, flags[i][1]);
  }
  if (info->dry_run) mp_strv_push(&l->argv, "--dry-run");
  if (info->parallel > 0) {
    mp_strv_push(&l->argv, "--parallel");
    mp_strv_push_take(&l->argv, mp_xasprintf("%d", info->parallel));
  }
  mp_strv_push(&l->argv, l->entry);

  for (char **e = environ; e && *e; e++)
    if (!overridden(*e)) mp_strv_push(&l->env, *e);
  mp_strv_push_take(&l->env, mp_xasprintf("PULUMI_CONFIG=%s", cfg));
  mp_strv_push_take(&l->env,
                    mp_xasprintf("PULUMI_CONFIG_SECRET_KEYS=%s", secret_keys));
  free(cfg);
  free(secret_keys);
  /* TypeScript through ts-node unless the project turns it off; a plain
   * JavaScript program is unaffected. */
  const char *ts = mp_project_runtime_option(p, "typescript");
  int typescript = !(ts && strcmp(ts, "false") == 0);
  mp_strv_push(&l->env, typescript ? "PULUMI_NODEJS_TYPESCRIPT=true"
                                   : "PULUMI_NODEJS_TYPESCRIPT=false");
  const char *tsconfig = mp_project_runtime_option(p, "tsconfig");
  if (tsconfig)
    mp_strv_push_take(&l->env,
                      mp_xasprintf("PULUMI_NODEJS_TSCONFIG_PATH=%s", tsconfig));
  return 0;
}

void mp_nodejs_launch_destroy(mp_nodejs_launch *l) {
  free(l->run_script);
  free(l->pwd);
  free(l->entry);
  mp_strv_destroy(&l->argv);
  mp_strv_destroy(&l->env);
  memset(l, 0, sizeof(*l));
}
