/* Stacks in the SQLite store: create, list, remove, rename, the selected
 * stack of a project, and each stack's secrets provider. */
#include "state/sqlite_int.h"

#include <stdlib.h>
#include <string.h>

int mp__sqlite_stack_create(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (mp__store_check_new_stack(st, err) < 0)
    return err->code;
  int rc = mp__sqlite_stack_exists(base, st, err);
  if (rc < 0)
    return rc;
  if (rc == 1)
    return mp__store_exists_err(st.name, err);
  sqlite3_stmt *q = mp__stmt(s, ST_STACK_INSERT, err);
  if (q == NULL)
    return err->code;
  char *now = mp_now_rfc3339();
  mp__bind_text(q, 1, st.project);
  mp__bind_text(q, 2, st.name);
  mp__bind_text(q, 3, now);
  rc = mp__stmt_exec(s, q, "cannot create the stack", err);
  free(now);
  if (rc < 0 && sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE)
    return mp__store_exists_err(st.name, err);
  return rc;
}

int mp__sqlite_stack_exists(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  int rc = mp__stack_id(s, st, &id, err);
  if (rc == MP_ENOENT) {
    mp_err_clear(err);
    return 0;
  }
  return rc < 0 ? rc : 1;
}

int mp__sqlite_stack_list(mp_store *base, const char *project,
                          mp_stack_info **out, size_t *n, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  sqlite3_stmt *q = mp__stmt(s, ST_STACK_LIST, err);
  if (q == NULL)
    return err->code;
  mp__bind_text(q, 1, project);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    mp_stack_info *i = &(*out)[(*n)++];
    i->project = mp__column_dup(q, 0);
    i->name = mp__column_dup(q, 1);
    i->resource_count = sqlite3_column_int64(q, 2);
    i->last_update = mp__column_dup(q, 3);
  }
  int ret = rc == SQLITE_DONE ? 0 : mp__sql_err(s, "cannot list stacks", err);
  mp__stmt_done(q);
  return ret;
}

static int count_resources(mp_sqlite *s, int64_t id, int64_t *n, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_STACK_COUNT, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc = sqlite3_step(q);
  *n = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
  mp__stmt_done(q);
  return rc == SQLITE_ROW ? 0 : mp__sql_err(s, "cannot count resources", err);
}

static int delete_stack_rows(mp_sqlite *s, mp_stack_ref st, int64_t id,
                             mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_STACK_DELETE, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id); /* resources, pending, locks: cascade */
  if (mp__stmt_exec(s, q, "cannot remove the stack", err) < 0)
    return err->code;
  if ((q = mp__stmt(s, ST_SELECTED_DELETE, err)) == NULL)
    return err->code;
  mp__bind_text(q, 1, st.project);
  mp__bind_text(q, 2, st.name);
  return mp__stmt_exec(s, q, "cannot unselect the stack", err);
}

/* The body of remove, inside its transaction. */
static int remove_tx(mp_sqlite *s, mp_stack_ref st, int force, mp_err *err) {
  int64_t id, n;
  char *label = mp__store_label(st);
  int rc = mp__stack_id(s, st, &id, err);
  if (rc == 0)
    rc = mp__lock_check_free(s, id, label, err);
  free(label);
  if (rc == 0)
    rc = count_resources(s, id, &n, err);
  if (rc == 0 && n > 0 && !force)
    rc = mp__store_not_empty(st, n, err);
  return rc < 0 ? rc : delete_stack_rows(s, st, id, err);
}

int mp__sqlite_stack_remove(mp_store *base, mp_stack_ref st, int force,
                            mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (mp__tx_begin(s, err) < 0)
    return err->code;
  int rc = remove_tx(s, st, force & MP_STORE_RM_FORCE, err);
  if (rc == 0)
    return mp__tx_commit(s, err);
  mp__tx_rollback(s);
  return rc;
}

static int rename_rows(mp_sqlite *s, mp_stack_ref st, int64_t id,
                       const char *new_name, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_STACK_RENAME, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  mp__bind_text(q, 2, new_name);
  if (mp__stmt_exec(s, q, "cannot rename the stack", err) < 0)
    return err->code;
  if ((q = mp__stmt(s, ST_SELECTED_RENAME, err)) == NULL)
    return err->code;
  mp__bind_text(q, 1, st.project);
  mp__bind_text(q, 2, st.name);
  mp__bind_text(q, 3, new_name);
  if (mp__stmt_exec(s, q, "cannot rename the selected stack", err) < 0)
    return err->code;
  return mp__rename_urns(s, id, st.project, new_name, err);
}

static int rename_tx(mp_sqlite *s, mp_stack_ref st, const char *new_name,
                     mp_err *err) {
  int64_t id;
  mp_stack_ref to = {st.project, new_name};
  int rc = mp__stack_id(s, st, &id, err);
  if (rc < 0)
    return rc;
  rc = mp__sqlite_stack_exists(&s->base, to, err);
  if (rc < 0)
    return rc;
  if (rc == 1)
    return mp__store_exists_err(new_name, err);
  char *label = mp__store_label(st);
  rc = mp__lock_check_free(s, id, label, err);
  free(label);
  if (rc < 0)
    return rc;
  return rename_rows(s, st, id, new_name, err);
}

int mp__sqlite_stack_rename(mp_store *base, mp_stack_ref st,
                            const char *new_name, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (mp__store_check_new_name(new_name, err) < 0)
    return err->code;
  if (mp__tx_begin(s, err) < 0)
    return err->code;
  int rc = rename_tx(s, st, new_name, err);
  if (rc == 0)
    return mp__tx_commit(s, err);
  mp__tx_rollback(s);
  return rc;
}

/* ==== selected stack ==== */

int mp__sqlite_selected_get(mp_store *base, const char *project, char **out,
                            mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  *out = NULL;
  sqlite3_stmt *q = mp__stmt(s, ST_SELECTED_GET, err);
  if (q == NULL)
    return err->code;
  mp__bind_text(q, 1, project);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW)
    *out = mp__column_dup(q, 0);
  mp__stmt_done(q);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return mp__sql_err(s, "cannot read the selected stack", err);
  return 0;
}

int mp__sqlite_selected_set(mp_store *base, const char *project,
                            const char *name, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (name == NULL) { /* unselect: forget whichever is selected */
    char *cur = NULL;
    int rc = mp__sqlite_selected_get(base, project, &cur, err);
    sqlite3_stmt *d = rc == 0 && cur ? mp__stmt(s, ST_SELECTED_DELETE, err) : NULL;
    if (d) {
      mp__bind_text(d, 1, project);
      mp__bind_text(d, 2, cur);
      rc = mp__stmt_exec(s, d, "cannot unselect the stack", err);
    } else if (cur) {
      rc = err->code;
    }
    free(cur);
    return rc;
  }
  mp_stack_ref st = {project, name};
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  sqlite3_stmt *q = mp__stmt(s, ST_SELECTED_SET, err);
  if (q == NULL)
    return err->code;
  mp__bind_text(q, 1, project);
  mp__bind_text(q, 2, name);
  return mp__stmt_exec(s, q, "cannot select the stack", err);
}

/* ==== secrets provider ==== */

int mp__sqlite_secrets_get(mp_store *base, mp_stack_ref st, char **type,
                           char **state, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  *type = *state = NULL;
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  sqlite3_stmt *q = mp__stmt(s, ST_SECRETS_GET, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    *type = mp__column_dup(q, 0);
    *state = mp__column_dup(q, 1);
  }
  mp__stmt_done(q);
  if (rc != SQLITE_ROW)
    return mp__sql_err(s, "cannot read the secrets provider", err);
  return 0;
}

int mp__sqlite_secrets_set(mp_store *base, mp_stack_ref st, const char *type,
                           const char *state, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  sqlite3_stmt *q = mp__stmt(s, ST_SECRETS_SET, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  mp__bind_text(q, 2, type);
  mp__bind_text(q, 3, state);
  return mp__stmt_exec(s, q, "cannot record the secrets provider", err);
}
