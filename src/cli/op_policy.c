#include "cli/op_policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/backend.h"
#include "cli/messages.h"

void mp_op_policy_init(mp_op_policy *p) {
  mp_strv_init(&p->packs);
  mp_strv_init(&p->configs);
}

void mp_op_policy_destroy(mp_op_policy *p) {
  mp_strv_destroy(&p->packs);
  mp_strv_destroy(&p->configs);
}

void mp_op_policy_rows(mp_opt *rows, mp_op_policy *p) {
  const mp_opt r[] = {
      MP_OPT_LIST_(0, "policy-pack", &p->packs, "dir",
                   "Run one or more policy packs as part of this operation"),
      MP_OPT_LIST_(0, "policy-pack-config", &p->configs, "file",
                   "Path to JSON file containing the config for the policy "
                   "pack of the corresponding \"--policy-pack\" flag"),
      MP_OPT_END_};
  memcpy(rows, r, sizeof(r));
}

static int is_level(const char *s) {
  return strcmp(s, "advisory") == 0 || strcmp(s, "mandatory") == 0 ||
         strcmp(s, "remediate") == 0 || strcmp(s, "disabled") == 0;
}

/* |v| as Go's %v prints a decoded JSON value, near enough. */
static char *go_text(const mp_value *v) {
  switch (v->kind) {
  case MP_VALUE_NULL: return mp_xstrdup("<nil>");
  case MP_VALUE_BOOL: return mp_xstrdup(v->u.boolean ? "true" : "false");
  case MP_VALUE_NUMBER: return mp_xasprintf("%.15g", v->u.number);
  case MP_VALUE_STRING: return mp_xstrdup(v->u.str.ptr);
  default: {
    mp_buf b;
    mp_buf_init(&b);
    mp_err e;
    mp_err_clear(&e);
    if (mp_value_to_json(v, NULL, 0, &b, &e) < 0) mp_buf_puts(&b, "?");
    return mp_buf_detach(&b, NULL);
  }
  }
}

/* Pulumi's parse of the file: each entry a level, or an object whose
 * "enforcementLevel", if there, is one; in its words. */
static int check_entries(const mp_value *config, mp_err *err) {
  for (size_t i = 0; i < config->u.obj.len; i++) {
    const char *k = config->u.obj.items[i].key;
    const mp_value *v = config->u.obj.items[i].value;
    const mp_value *l = v->kind == MP_VALUE_STRING ? v
                        : v->kind == MP_VALUE_OBJECT
                            ? mp_value_object_get(v, "enforcementLevel")
                            : NULL;
    if (v->kind != MP_VALUE_STRING && v->kind != MP_VALUE_OBJECT) {
      char *t = go_text(v);
      mp_err_set(err, MP_EINVAL,
                 "parsing \"%s\": %s is not a valid value; must be a string "
                 "or object",
                 k, t);
      free(t);
      return MP_EINVAL;
    }
    if (l && l->kind != MP_VALUE_STRING) {
      char *t = go_text(l);
      mp_err_set(err, MP_EINVAL,
                 "parsing enforcement level for \"%s\": %s is not a valid "
                 "enforcement level; must be a string",
                 k, t);
      free(t);
      return MP_EINVAL;
    }
    if (l && !is_level(l->u.str.ptr))
      return mp_err_set(err, MP_EINVAL,
                        "parsing enforcement level for \"%s\": \"%s\" is not "
                        "a valid enforcement level",
                        k, l->u.str.ptr);
  }
  return 0;
}

int mp_op_policy_read_config(const char *path, mp_value **out, mp_err *err) {
  *out = NULL;
  size_t len = 0;
  char *text = mp_cli_read_file(path, &len);
  if (text == NULL)
    return mp_err_set(err, MP_EIO, "--policy-pack-config '%s': %s", path,
                      strerror(errno));
  size_t sp = strspn(text, " \t\r\n");
  if (sp == len) { /* Pulumi takes an empty file as no config */
    free(text);
    return 0;
  }
  int rc = mp_value_from_json(text, len, NULL, out, err);
  free(text);
  if (rc == 0 && (*out)->kind != MP_VALUE_OBJECT) {
    mp_value_free(*out);
    *out = NULL;
    rc = mp_err_set(err, MP_EINVAL, "not a JSON object");
  }
  if (rc == 0) rc = check_entries(*out, err);
  if (rc < 0) {
    mp_value_free(*out);
    *out = NULL;
  }
  if (rc < 0) mp_err_prefix(err, "--policy-pack-config '%s'", path);
  return rc;
}

/* Why folder |dir| is not a readable policy pack (owned), or NULL when
 * it is one: its PulumiPolicy.yaml is a file that opens for reading. */
static char *pack_problem(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    struct stat link;
    if (errno == ENOENT && lstat(dir, &link) == 0)
      return mp_xstrdup("cannot read the folder: it is a symbolic link to a "
                        "path that does not exist");
    if (errno == ENOENT)
      return mp_xstrdup("no such folder");
    return mp_xasprintf("cannot read the folder: %s", strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    return mp_xasprintf("cannot read the folder: %s", strerror(ENOTDIR));
  char *yaml = mp_xasprintf("%s/PulumiPolicy.yaml", dir);
  char *why = NULL;
  FILE *f = NULL;
  if (stat(yaml, &st) != 0) {
    why = errno == ENOENT
              ? mp_xstrdup("no PulumiPolicy.yaml in this folder "
                           "(not a policy pack)")
              : mp_xasprintf("cannot read the folder: %s", strerror(errno));
  } else if (S_ISDIR(st.st_mode)) {
    why =
        mp_xasprintf("cannot read its PulumiPolicy.yaml: %s", strerror(EISDIR));
  } else if ((f = fopen(yaml, "r")) == NULL) {
    why =
        mp_xasprintf("cannot read its PulumiPolicy.yaml: %s", strerror(errno));
  }
  if (f)
    fclose(f);
  free(yaml);
  return why;
}

int mp_op_policy_check(mp_ctx *ctx, const mp_op_policy *p) {
  for (size_t i = 0; i < p->packs.len; i++) {
    const char *dir = p->packs.items[i];
    char *why = pack_problem(dir);
    if (why) {
      int status =
          mp_cli_error(ctx, MP_EXIT_CONFIG, "--policy-pack '%s': %s", dir, why);
      free(why);
      return status;
    }
  }
  if (p->configs.len > p->packs.len)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "the number of --policy-pack-config flags (%zu) must "
                        "not exceed the number of --policy-pack flags (%zu)",
                        p->configs.len, p->packs.len);
  for (size_t i = 0; i < p->configs.len; i++) {
    mp_value *config = NULL;
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_op_policy_read_config(p->configs.items[i], &config, &err);
    mp_value_free(config);
    if (rc < 0) return mp_cli_error(ctx, MP_EXIT_CONFIG, "%s", err.msg);
  }
  return 0;
}
