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

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int mp_op_policy_read_config(const char *path, mp_value **out, mp_err *err) {
  *out = NULL;
  size_t len = 0;
  char *text = mp_cli_read_file(path, &len);
  if (text == NULL)
    return mp_err_set(err, MP_EIO, "--policy-pack-config '%s': %s", path,
                      strerror(errno));
  int rc = mp_value_from_json(text, len, NULL, out, err);
  free(text);
  if (rc == 0 && (*out)->kind != MP_VALUE_OBJECT) {
    mp_value_free(*out);
    *out = NULL;
    rc = mp_err_set(err, MP_EINVAL, "not a JSON object");
  }
  if (rc < 0) mp_err_prefix(err, "--policy-pack-config '%s'", path);
  return rc;
}

int mp_op_policy_check(mp_ctx *ctx, const mp_op_policy *p) {
  for (size_t i = 0; i < p->packs.len; i++) {
    const char *dir = p->packs.items[i];
    char *yaml = mp_xasprintf("%s/PulumiPolicy.yaml", dir);
    int ok = is_dir(dir), has_yaml = access(yaml, R_OK) == 0;
    free(yaml);
    if (!ok || !has_yaml)
      return mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--policy-pack '%s': %s", dir,
                          ok ? "no PulumiPolicy.yaml in this folder (not a "
                               "policy pack)"
                             : "no such folder");
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
