/* `stack rename`: every URN stored for the stack names the stack, so each
 * stored entry is rewritten (urn, parent, dependencies, property
 * dependencies, provider references, deletedWith, replaceWith), as
 * Pulumi's edit.RenameStack does. The root stack resource's name
 * (`<project>-<stack>`) follows the new stack name. Works on the stored
 * JSON directly: secrets stay encrypted and untouched. Both backends read
 * the rows and write back what this file returns. */
#include "state/store_int.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/urn.h"

typedef struct renamer {
  const char *project;
  const char *new_name;
} renamer;

/* The URN |u| moved to the new stack, or NULL if |u| is not a URN. */
static char *rename_urn(const renamer *rn, const char *u) {
  mp_urn p;
  if (mp_urn_parse(u, strlen(u), &p, NULL) < 0)
    return NULL;
  char *out;
  if (strcmp(p.qualified_type, MP_ROOT_STACK_TYPE) == 0)
    out = mp_xasprintf("urn:pulumi:%s::%s::%s::%s-%s", rn->new_name, p.project,
                       p.qualified_type, p.project, rn->new_name);
  else
    out = mp_xasprintf("urn:pulumi:%s::%s::%s::%s", rn->new_name, p.project,
                       p.qualified_type, p.name);
  mp_urn_destroy(&p);
  return out;
}

/* A provider reference `<urn>::<id>` moved to the new stack. */
static char *rename_ref(const renamer *rn, const char *ref) {
  const char *sep = NULL;
  for (const char *p = strstr(ref, "::"); p; p = strstr(p + 1, "::"))
    sep = p;
  if (sep == NULL)
    return NULL;
  char *urn = mp_xstrndup(ref, (size_t)(sep - ref));
  char *moved = rename_urn(rn, urn);
  free(urn);
  if (moved == NULL)
    return NULL;
  char *out = mp_xasprintf("%s%s", moved, sep);
  free(moved);
  return out;
}

typedef char *(*rewrite_fn)(const renamer *rn, const char *s);

static void rewrite_string(const renamer *rn, cJSON *j, rewrite_fn fn) {
  if (!cJSON_IsString(j))
    return;
  char *moved = fn(rn, j->valuestring);
  if (moved)
    cJSON_SetValuestring(j, moved);
  free(moved);
}

static void rewrite_list(const renamer *rn, cJSON *a) {
  cJSON *it;
  cJSON_ArrayForEach(it, a) rewrite_string(rn, it, rename_urn);
}

static void rewrite_resource(const renamer *rn, cJSON *r) {
  static const char *const urn_keys[] = {"urn", "parent", "deletedWith"};
  for (size_t i = 0; i < MP_ARRAY_LEN(urn_keys); i++)
    rewrite_string(rn, cJSON_GetObjectItemCaseSensitive(r, urn_keys[i]),
                   rename_urn);
  rewrite_string(rn, cJSON_GetObjectItemCaseSensitive(r, "provider"),
                 rename_ref);
  rewrite_list(rn, cJSON_GetObjectItemCaseSensitive(r, "dependencies"));
  rewrite_list(rn, cJSON_GetObjectItemCaseSensitive(r, "replaceWith"));
  cJSON *pd = cJSON_GetObjectItemCaseSensitive(r, "propertyDependencies"), *it;
  cJSON_ArrayForEach(it, pd) rewrite_list(rn, it);
}

int mp__store_rename_entry(const char *json, int64_t row, const char *project,
                           const char *new_name, char **out_json,
                           char **out_urn, mp_err *err) {
  *out_json = NULL;
  if (out_urn)
    *out_urn = NULL;
  cJSON *j = json ? cJSON_Parse(json) : NULL;
  if (j == NULL)
    return mp_err_set(err, MP_ESTATE, "stored row %lld is not JSON",
                      (long long)row);
  renamer rn = {project, new_name};
  rewrite_resource(&rn, j);
  char *text = cJSON_PrintUnformatted(j);
  *out_json = mp_xstrdup(text);
  cJSON_free(text);
  if (out_urn) {
    const cJSON *urn = cJSON_GetObjectItemCaseSensitive(j, "urn");
    *out_urn = mp_xstrdup(cJSON_IsString(urn) ? urn->valuestring : "");
  }
  cJSON_Delete(j);
  return 0;
}
