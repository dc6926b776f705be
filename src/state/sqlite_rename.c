/* `stack rename`: every URN stored for the stack names the stack, so each
 * stored entry is rewritten (urn, parent, dependencies, property
 * dependencies, provider references, deletedWith, replaceWith), as
 * Pulumi's edit.RenameStack does. The root stack resource's name
 * (`<project>-<stack>`) follows the new stack name. Works on the stored
 * JSON directly: secrets stay encrypted and untouched. */
#include "state/sqlite_int.h"

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

/* One stored row, read before anything is rewritten. */
typedef struct stored_row {
  int64_t id;
  char *json;
} stored_row;

static int read_rows(mp_store *s, mp__stmt_id id, int json_col,
                     int64_t stack_id, stored_row **rows, size_t *n,
                     mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, id, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    *rows = mp_xreallocarray(*rows, *n + 1, sizeof(**rows));
    (*rows)[*n].id = sqlite3_column_int64(q, 0);
    (*rows)[(*n)++].json = mp__column_dup(q, json_col);
  }
  mp__stmt_done(q);
  return rc == SQLITE_DONE ? 0 : mp__sql_err(s, "cannot read the stack", err);
}

static int write_row(mp_store *s, const renamer *rn, mp__stmt_id id,
                     const stored_row *row, mp_err *err) {
  cJSON *j = row->json ? cJSON_Parse(row->json) : NULL;
  if (j == NULL)
    return mp_err_set(err, MP_ESTATE, "stored row %lld is not JSON",
                      (long long)row->id);
  rewrite_resource(rn, j);
  char *text = cJSON_PrintUnformatted(j);
  const cJSON *urn = cJSON_GetObjectItemCaseSensitive(j, "urn");
  sqlite3_stmt *q = mp__stmt(s, id, err);
  int rc = err->code;
  if (q != NULL) {
    sqlite3_bind_int64(q, 1, row->id);
    if (id == ST_RES_REWRITE) {
      mp__bind_text(q, 2, cJSON_IsString(urn) ? urn->valuestring : "");
      mp__bind_text(q, 3, text);
    } else {
      mp__bind_text(q, 2, text);
    }
    rc = mp__stmt_exec(s, q, "cannot rewrite a stored resource", err);
  }
  cJSON_free(text);
  cJSON_Delete(j);
  return rc;
}

static int rename_table(mp_store *s, const renamer *rn, int64_t stack_id,
                        mp__stmt_id load, int json_col, mp__stmt_id write,
                        mp_err *err) {
  stored_row *rows = NULL;
  size_t n = 0;
  int rc = read_rows(s, load, json_col, stack_id, &rows, &n, err);
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = write_row(s, rn, write, &rows[i], err);
  for (size_t i = 0; i < n; i++)
    free(rows[i].json);
  free(rows);
  return rc;
}

int mp__rename_urns(mp_store *s, int64_t stack_id, const char *project,
                    const char *new_name, mp_err *err) {
  renamer rn = {project, new_name};
  if (rename_table(s, &rn, stack_id, ST_RES_LOAD, 1, ST_RES_REWRITE, err) < 0)
    return err->code;
  return rename_table(s, &rn, stack_id, ST_PENDING_LOAD, 2, ST_PENDING_REWRITE,
                      err);
}
