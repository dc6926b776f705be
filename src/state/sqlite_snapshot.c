/* Whole snapshots in the SQLite store: loading a stack's checkpoint in
 * order, replacing it in one transaction (stack import), and the
 * write-verification used by tests (MINIPULUMI_VERIFY_WRITES). */
#include "state/sqlite_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/snapshot_json_int.h"

static int parse_entry(sqlite3_stmt *q, int col, const mp_crypter *c,
                       unsigned flags, mp_resource **out, mp_err *err) {
  const char *text = (const char *)sqlite3_column_text(q, col);
  int len = sqlite3_column_bytes(q, col);
  return mp__store_parse_entry(text, (size_t)len, sqlite3_column_int64(q, 0), c,
                               flags, out, err);
}

static int load_resources(mp_sqlite *s, int64_t id, const mp_crypter *c,
                          unsigned flags, mp_snapshot *snap, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_RES_LOAD, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc, ret = 0;
  while (ret == 0 && (rc = sqlite3_step(q)) == SQLITE_ROW) {
    mp_resource *r;
    ret = parse_entry(q, 1, c, flags, &r, err);
    if (ret < 0)
      break;
    r->row = sqlite3_column_int64(q, 0);
    mp_snapshot_append(snap, r);
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
    mp_resource *r;
    mp_pending_type t;
    const char *type = (const char *)sqlite3_column_text(q, 1);
    if (mp_pending_type_parse(type, &t) < 0) {
      ret = mp_err_set(err, MP_ESTATE,
                       "stored pending operation has an "
                       "unknown type '%s'",
                       type ? type : "");
      break;
    }
    if ((ret = parse_entry(q, 2, c, flags, &r, err)) < 0)
      break;
    mp_snapshot_append_pending(snap, r, t);
    snap->pending[snap->npending - 1].row = sqlite3_column_int64(q, 0);
  }
  if (ret == 0 && rc != SQLITE_DONE)
    ret = mp__sql_err(s, "cannot read the pending operations", err);
  mp__stmt_done(q);
  return ret;
}

/* Loads everything of stack |id| into a new snapshot (in one read
 * transaction, so that resources and pending operations agree). */
static int load_all(mp_sqlite *s, int64_t id, const mp_crypter *c,
                    unsigned flags, mp_snapshot **out, mp_err *err) {
  mp_snapshot *snap = mp_snapshot_new();
  int in_tx = sqlite3_get_autocommit(s->db) == 0;
  int rc = in_tx ? 0 : mp__tx_begin_read(s, err);
  if (rc == 0)
    rc = load_resources(s, id, c, flags, snap, err);
  if (rc == 0)
    rc = load_pending(s, id, c, flags, snap, err);
  if (!in_tx)
    mp__tx_rollback(s); /* read only: nothing to commit */
  if (rc < 0) {
    mp_snapshot_free(snap);
    return rc;
  }
  *out = snap;
  return 0;
}

int mp__sqlite_load(mp_store *base, mp_stack_ref st, const mp_crypter *c,
                    mp_snapshot **out, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  *out = NULL;
  int64_t id;
  mp_snapshot *snap;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  if (load_all(s, id, c, 0, &snap, err) < 0)
    return mp_err_prefix(err, "cannot load stack '%s/%s'", st.project, st.name);
  if (mp__sqlite_secrets_get(base, st, &snap->secrets_type,
                             &snap->secrets_state, err) < 0) {
    mp_snapshot_free(snap);
    return err->code;
  }
  *out = snap;
  return 0;
}

int mp__verify_stored(mp_sqlite *s, int64_t stack_id, const char *label,
                      mp_err *err) {
  mp_snapshot *snap;
  if (load_all(s, stack_id, NULL, MP__RES_SKIP_VALUES, &snap, err) < 0)
    return err->code;
  int rc = mp_snapshot_verify(snap, err);
  mp_snapshot_free(snap);
  if (rc < 0)
    return mp_err_prefix(err,
                         "the snapshot written for stack '%s' fails "
                         "verification",
                         label);
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

/* Encodes and inserts one entry of a replaced snapshot: a resource at
 * |ord|, or a pending operation when |op| is set. */
static int replace_one(mp_sqlite *s, int64_t id, int64_t ord,
                       const mp_resource *r, const mp_pending_op *op,
                       const mp_crypter *c, int64_t *row, mp_err *err) {
  mp_buf json;
  mp_buf_init(&json);
  int rc = mp_resource_to_json(op ? op->res : r, c, 0, &json, err);
  if (rc == 0 && op)
    rc = mp__row_insert_pending(s, id, op->type, &json, row, err);
  else if (rc == 0)
    rc = mp__row_insert_resource(s, id, ord, r, &json, row, err);
  mp_buf_destroy(&json);
  return rc;
}

static int clear_stack(mp_sqlite *s, int64_t id, mp_err *err) {
  static const mp__stmt_id ids[] = {ST_RES_DELETE_ALL, ST_PENDING_DELETE_ALL};
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

/* Writes every entry; |rows| receives the new rows (resources, then
 * pending operations), assigned to |snap| only after the commit. */
static int replace_tx(mp_sqlite *s, mp_stack_ref st, const mp_snapshot *snap,
                      const mp_crypter *c, int64_t *rows, mp_err *err) {
  int64_t id;
  char *label = mp__store_label(st);
  int rc = mp__stack_id(s, st, &id, err);
  if (rc == 0)
    rc = mp__lock_check_free(s, id, label, err);
  free(label);
  if (rc == 0)
    rc = clear_stack(s, id, err);
  for (size_t i = 0; rc == 0 && i < snap->nres; i++)
    rc = replace_one(s, id, (int64_t)i, snap->res[i], NULL, c, &rows[i], err);
  for (size_t i = 0; rc == 0 && i < snap->npending; i++)
    rc = replace_one(s, id, 0, NULL, &snap->pending[i], c,
                     &rows[snap->nres + i], err);
  if (rc == 0 && snap->secrets_type)
    rc = mp__sqlite_secrets_set(&s->base, st, snap->secrets_type,
                                snap->secrets_state, err);
  return rc;
}

int mp__sqlite_replace(mp_store *base, mp_stack_ref st, mp_snapshot *snap,
                       const mp_crypter *c, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (mp__store_verify_writes_enabled() && mp_snapshot_verify(snap, err) < 0)
    return mp_err_prefix(err,
                         "refusing to store an invalid snapshot in "
                         "stack '%s/%s'",
                         st.project, st.name);
  int64_t *rows = mp_xcalloc(snap->nres + snap->npending, sizeof(*rows));
  int rc = mp__tx_begin(s, err);
  if (rc == 0) {
    rc = replace_tx(s, st, snap, c, rows, err);
    if (rc == 0)
      rc = mp__tx_commit(s, err);
    else
      mp__tx_rollback(s);
  }
  for (size_t i = 0; rc == 0 && i < snap->nres; i++)
    snap->res[i]->row = rows[i];
  for (size_t i = 0; rc == 0 && i < snap->npending; i++)
    snap->pending[i].row = rows[snap->nres + i];
  free(rows);
  if (rc < 0)
    return mp_err_prefix(err, "cannot replace the snapshot of stack '%s/%s'",
                         st.project, st.name);
  return 0;
}
