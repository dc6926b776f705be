/* Whole snapshots in the SQLite store: loading a stack's checkpoint in
 * order, replacing it in one transaction (stack import), and the
 * write-verification used by tests (MINIPULUMI_VERIFY_WRITES). */
#include "state/sqlite_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/snapshot_json_int.h"

static const char *text_of(sqlite3_stmt *q, int col, size_t *len) {
  const char *text = (const char *)sqlite3_column_text(q, col);
  /* the length after the text, as SQLite asks */
  *len = (size_t)sqlite3_column_bytes(q, col);
  return text;
}

static int load_resources(mp_sqlite *s, int64_t id, const mp_crypter *c,
                          unsigned flags, mp_snapshot *snap, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_RES_LOAD, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc, ret = 0;
  while (ret == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW) {
    size_t len;
    const char *json = text_of(q, 1, &len);
    ret = mp__store_read_resource(sqlite3_column_int64(q, 0), json, len, c,
                                  flags, snap, err);
  }
  if (ret == 0 && rc != SQLITE_DONE)
    ret = mp__sql_err(s, "cannot read the resources", err);
  mp__stmt_done(q);
  return ret;
}

static int load_pending(mp_sqlite *s, int64_t id, const mp_crypter *c,
                        unsigned flags, mp_snapshot *snap, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_PENDING_LOAD, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc, ret = 0;
  while (ret == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW) {
    mp_pending_type t;
    size_t len;
    const char *json = text_of(q, 2, &len);
    ret = mp__store_pending_type((const char *)sqlite3_column_text(q, 1), &t,
                                 err);
    if (ret == 0)
      ret = mp__store_read_pending(sqlite3_column_int64(q, 0), t, json, len, c,
                                   flags, snap, err);
  }
  if (ret == 0 && rc != SQLITE_DONE)
    ret = mp__sql_err(s, "cannot read the pending operations", err);
  mp__stmt_done(q);
  return ret;
}

static int load_extensions(mp_sqlite *s, int64_t id, mp_snapshot *snap,
                           mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_EXT_LOAD, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc, ret = 0;
  while (ret == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW)
    ret = mp__store_parse_extension(
        (const char *)sqlite3_column_text(q, 0),
        (const char *)sqlite3_column_text(q, 1),
        (size_t)sqlite3_column_bytes(q, 1), snap, err);
  if (ret == 0 && rc != SQLITE_DONE)
    ret = mp__sql_err(s, "cannot read the extensions", err);
  mp__stmt_done(q);
  return ret;
}

/* The whole stack in the order the flow wants it (read_rows). */
static int read_rows(mp_store *base, int64_t id, const mp_crypter *c,
                     unsigned flags, mp_snapshot *snap, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int rc = load_resources(s, id, c, flags, snap, err);
  if (rc == 0)
    rc = load_pending(s, id, c, flags, snap, err);
  return rc < 0 ? rc : load_extensions(s, id, snap, err);
}

int mp__row_insert_extension(mp_sqlite *s, int64_t stack_id, const char *ref,
                             const mp_buf *json, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_EXT_INSERT, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  mp__bind_text(q, 2, ref);
  sqlite3_bind_text(q, 3, json->data ? json->data : "", (int)json->len,
                    SQLITE_STATIC);
  if (mp__stmt_exec(s, q, "cannot store an extension", err) < 0)
    return err->code;
  return 0;
}

/* ==== replace ==== */

int mp__row_insert_resource(mp_sqlite *s, int64_t stack_id, int64_t ord,
                            const mp_resource *r, const mp_buf *json,
                            int64_t *row, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_RES_INSERT, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  sqlite3_bind_int64(q, 2, ord);
  mp__bind_text(q, 3, r->urn);
  sqlite3_bind_int(q, 4, r->delete_ ? 1 : 0);
  sqlite3_bind_text(q, 5, json->data ? json->data : "", (int)json->len,
                    SQLITE_STATIC);
  if (mp__stmt_exec(s, q, "cannot store a resource", err) < 0)
    return err->code;
  *row = sqlite3_last_insert_rowid(s->db);
  return 0;
}

int mp__row_insert_pending(mp_sqlite *s, int64_t stack_id, mp_pending_type t,
                           const mp_buf *json, int64_t *row, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_PENDING_INSERT, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  mp__bind_text(q, 2, mp_pending_type_name(t));
  sqlite3_bind_text(q, 3, json->data ? json->data : "", (int)json->len,
                    SQLITE_STATIC);
  if (mp__stmt_exec(s, q, "cannot store a pending operation", err) < 0)
    return err->code;
  *row = sqlite3_last_insert_rowid(s->db);
  return 0;
}

static int insert_extension(mp_store *s, int64_t id, const char *ref,
                            const mp_buf *json, mp_err *err) {
  return mp__row_insert_extension(mp__sqlite(s), id, ref, json, err);
}

/* ==== the database of the shared flows (store_flow.c) ==== */

static int stack_id(mp_store *s, mp_stack_ref st, int64_t *id, mp_err *err) {
  return mp__stack_id(mp__sqlite(s), st, id, err);
}

static int in_tx(mp_store *s) {
  return sqlite3_get_autocommit(mp__sqlite(s)->db) == 0;
}

static int begin_read(mp_store *s, mp_err *err) {
  return mp__tx_begin_read(mp__sqlite(s), err);
}

static int sq_begin(mp_store *s, mp_err *err) {
  return mp__tx_begin(mp__sqlite(s), err);
}

static int sq_commit(mp_store *s, mp_err *err) {
  return mp__tx_commit(mp__sqlite(s), err);
}

static void sq_rollback(mp_store *s) { mp__tx_rollback(mp__sqlite(s)); }

static int replace_start(mp_store *base, mp_stack_ref st, const char *label,
                         int64_t *id, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int rc = mp__stack_id(s, st, id, err);
  return rc < 0 ? rc : mp__lock_check_free(s, *id, label, err);
}

static int clear_stack(mp_store *base, int64_t id, mp_err *err) {
  static const mp__stmt_id ids[] = {ST_RES_DELETE_ALL, ST_PENDING_DELETE_ALL,
                                    ST_EXT_DELETE_ALL};
  mp_sqlite *s = mp__sqlite(base);
  for (size_t i = 0; i < MP_ARRAY_LEN(ids); i++) {
    sqlite3_stmt *q = mp__stmt(s, ids[i], err);
    if (q == NULL)
      return err->code;
    sqlite3_bind_int64(q, 1, id);
    if (mp__stmt_exec(s, q, "cannot clear the stack", err) < 0)
      return err->code;
  }
  return 0;
}

static int insert_resource(mp_store *s, int64_t id, int64_t ord,
                           const mp_resource *r, const mp_buf *json,
                           int64_t *row, mp_err *err) {
  return mp__row_insert_resource(mp__sqlite(s), id, ord, r, json, row, err);
}

static int insert_pending(mp_store *s, int64_t id, mp_pending_type t,
                          const mp_buf *json, int64_t *row, mp_err *err) {
  return mp__row_insert_pending(mp__sqlite(s), id, t, json, row, err);
}

const mp__store_db mp__sqlite_db = {
    .stack_id = stack_id,
    .in_tx = in_tx,
    .begin_read = begin_read,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .write = mp__sqlite_write,
    .replace_start = replace_start,
    .clear = clear_stack,
    .insert_resource = insert_resource,
    .insert_pending = insert_pending,
    .insert_extension = insert_extension,
    .read_rows = read_rows,
};

int mp__sqlite_load(mp_store *base, mp_stack_ref st, const mp_crypter *c,
                    mp_snapshot **out, mp_err *err) {
  return mp__store_load(&mp__sqlite_db, base, st, c, out, err);
}

int mp__sqlite_replace(mp_store *base, mp_stack_ref st, mp_snapshot *snap,
                       const mp_crypter *c, mp_err *err) {
  return mp__store_replace(&mp__sqlite_db, base, st, snap, c, err);
}
