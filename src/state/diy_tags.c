/* Stack tags in the DIY store, where Pulumi's DIY backend keeps them
 * (pkg/backend/diy/stack_tags.go): beside the checkpoint,
 * <stack>.pulumi-tags holds {"version":1,"tags":{name: value}}. A missing
 * file is no tags. The file goes with its stack on remove and rename. */
#include "state/diy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAGS_VERSION 1

/* .../<stack>.pulumi-tags, from the checkpoint's .../<stack>.json. */
static char *tags_path(const mp_diy *s, mp_stack_ref st) {
  char *plain = mp__diy_stack_path(s, st);
  size_t n = strlen(plain);
  if (n > 5 && strcmp(plain + n - 5, ".json") == 0)
    plain[n - 5] = '\0';
  char *path = mp_xasprintf("%s.pulumi-tags", plain);
  free(plain);
  return path;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const mp_stack_tag *)a)->name,
                ((const mp_stack_tag *)b)->name);
}

static int parse(const char *path, const char *text, size_t len,
                 mp_stack_tag **out, size_t *n, mp_err *err) {
  cJSON *j = cJSON_ParseWithLength(text, len);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "version");
  const cJSON *tags = cJSON_GetObjectItemCaseSensitive(j, "tags");
  int rc = 0;
  if (!cJSON_IsObject(j) || !cJSON_IsNumber(v))
    rc = mp_err_set(err, MP_ESTATE, "stack tags file '%s' is not JSON of "
                    "the form {\"version\":1,\"tags\":{...}}", path);
  else if (v->valueint != TAGS_VERSION)
    rc = mp_err_set(err, MP_ESTATE,
                    "stack tags file '%s': unsupported stack tags version: "
                    "%d (expected %d)", path, v->valueint, TAGS_VERSION);
  size_t first = *n;
  const cJSON *t;
  const cJSON *list = rc == 0 && cJSON_IsObject(tags) ? tags : NULL;
  cJSON_ArrayForEach(t, list) {
    if (!cJSON_IsString(t))
      continue;
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    (*out)[*n].name = mp_xstrdup(t->string);
    (*out)[(*n)++].value = mp_xstrdup(t->valuestring);
  }
  if (*n > first)
    qsort(*out + first, *n - first, sizeof(**out), by_name);
  cJSON_Delete(j);
  return rc;
}

/* 0 if the stack exists, else MP_ENOENT or the error. */
static int need_stack(mp_store *base, mp_stack_ref st, mp_err *err) {
  int ex = mp__diy_stack_exists(base, st, err);
  if (ex < 0)
    return err->code;
  return ex ? 0 : mp__store_no_stack(st, err);
}

int mp__diy_tags_get(mp_store *base, mp_stack_ref st, mp_stack_tag **out,
                     size_t *n, mp_err *err) {
  if (need_stack(base, st, err) < 0)
    return err->code;
  mp_diy *s = mp__diy(base);
  char *path = tags_path(s, st);
  char *text = NULL;
  size_t len = 0;
  int rc = mp__diy_read(s, path, &text, &len, err);
  if (rc == MP_ENOENT) { /* no tags */
    rc = 0;
  } else {
    if (rc == 0)
      rc = parse(path, text, len, out, n, err);
  }
  free(text);
  free(path);
  return rc;
}

int mp__diy_tags_set(mp_store *base, mp_stack_ref st, const mp_stack_tag *tags,
                     size_t n, mp_err *err) {
  if (need_stack(base, st, err) < 0)
    return err->code;
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "version", TAGS_VERSION);
  cJSON *o = cJSON_AddObjectToObject(j, "tags");
  for (size_t i = 0; i < n; i++)
    cJSON_AddStringToObject(o, tags[i].name, tags[i].value);
  char *text = cJSON_PrintUnformatted(j);
  mp_diy *s = mp__diy(base);
  char *path = tags_path(s, st);
  int rc = mp__diy_mkdirs_for(s, path, err);
  if (rc == 0)
    rc = mp__diy_write(s, path, text, strlen(text), 0, 0, err);
  free(path);
  cJSON_free(text);
  cJSON_Delete(j);
  return rc;
}

int mp__diy_tags_remove(mp_diy *s, mp_stack_ref st, mp_err *err) {
  char *path = tags_path(s, st);
  int rc = mp__diy_remove_tree(s, path, err);
  free(path);
  return rc;
}

int mp__diy_tags_rename(mp_diy *s, mp_stack_ref st, const char *new_name,
                        mp_err *err) {
  mp_stack_ref to = {st.project, new_name};
  char *from = tags_path(s, st), *dst = tags_path(s, to);
  int rc = 0;
  if (mp__diy_exists(s, from) && mp__diy_rename(s, from, dst, err) < 0)
    rc = mp_err_prefix(err, "cannot move stack tags file '%s'", from);
  free(from);
  free(dst);
  return rc;
}
