/* `stack rename` in the SQLite store: every stored entry of the stack
 * (resources and pending operations) is read, moved to the new stack name
 * by mp__store_rename_entry (store_rename.c) and written back. */
#include "state/sqlite_int.h"

#include <stdlib.h>

/* One stored row, read before anything is rewritten. */
typedef struct stored_row {
  int64_t id;
  char *json;
} stored_row;

static int read_rows(mp_sqlite *s, mp__stmt_id id, int json_col,
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

static int write_row(mp_sqlite *s, const char *project, const char *new_name,
                     mp__stmt_id id, const stored_row *row, mp_err *err) {
  char *text, *urn;
  if (mp__store_rename_entry(row->json, row->id, project, new_name, &text, &urn,
                             err) < 0)
    return err->code;
  sqlite3_stmt *q = mp__stmt(s, id, err);
  int rc = err->code;
  if (q != NULL) {
    sqlite3_bind_int64(q, 1, row->id);
    if (id == ST_RES_REWRITE) {
      mp__bind_text(q, 2, urn);
      mp__bind_text(q, 3, text);
    } else {
      mp__bind_text(q, 2, text);
    }
    rc = mp__stmt_exec(s, q, "cannot rewrite a stored resource", err);
  }
  free(text);
  free(urn);
  return rc;
}

static int rename_table(mp_sqlite *s, const char *project, const char *new_name,
                        int64_t stack_id, mp__stmt_id load, int json_col,
                        mp__stmt_id write, mp_err *err) {
  stored_row *rows = NULL;
  size_t n = 0;
  int rc = read_rows(s, load, json_col, stack_id, &rows, &n, err);
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = write_row(s, project, new_name, write, &rows[i], err);
  for (size_t i = 0; i < n; i++)
    free(rows[i].json);
  free(rows);
  return rc;
}

int mp__rename_urns(mp_sqlite *s, int64_t stack_id, const char *project,
                    const char *new_name, mp_err *err) {
  if (rename_table(s, project, new_name, stack_id, ST_RES_LOAD, 1,
                   ST_RES_REWRITE, err) < 0)
    return err->code;
  return rename_table(s, project, new_name, stack_id, ST_PENDING_LOAD, 2,
                      ST_PENDING_REWRITE, err);
}
