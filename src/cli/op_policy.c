#include "cli/op_policy.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Whether |path| holds a JSON object; sets |*why| when not. */
static int json_object_file(const char *path, const char **why) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    *why = strerror(errno);
    return 0;
  }
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  fclose(f);
  cJSON *doc = cJSON_ParseWithLength(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  int ok = cJSON_IsObject(doc);
  cJSON_Delete(doc);
  if (!ok) *why = "not a JSON object";
  return ok;
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
    const char *why = NULL;
    if (!json_object_file(p->configs.items[i], &why))
      return mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--policy-pack-config '%s': %s",
                          p->configs.items[i], why);
  }
  return 0;
}
