/* Whole snapshots in the PostgreSQL store: loading a stack's checkpoint in
 * order (one repeatable-read snapshot, so that resources and pending
 * operations agree), replacing it in one transaction (stack import), and
 * the write verification used by tests (as sqlite_snapshot.c). */
#include "state/pg_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/snapshot_json_int.h"

static int load_resources(mp_pg *s, int64_t id, const mp_crypter *c,
                          unsigned flags, mp_snapshot *snap, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  PGresult *r =
      mp__pg_run(s, PQ_RES_LOAD, &p, "cannot read the resources", err);
  if (r == NULL)
    return err->code;
  int rc = 0;
  for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
    mp_resource *res;
    int64_t row = mp__pg_int64(r, i, 0);
    rc =
        mp__store_parse_entry(PQgetvalue(r, i, 1), (size_t)PQgetlength(r, i, 1),
                              row, c, flags, &res, err);
    if (rc == 0) {
      res->row = row;
      mp_snapshot_append(snap, res);
    }
  }
  PQclear(r);
  return rc;
}

static int load_pending(mp_pg *s, int64_t id, const mp_crypter *c,
                        unsigned flags, mp_snapshot *snap, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  PGresult *r = mp__pg_run(s, PQ_PENDING_LOAD, &p,
                           "cannot read the pending operations", err);
  if (r == NULL)
    return err->code;
  int rc = 0;
  for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
    mp_resource *res;
    mp_pending_type t;
    const char *type = PQgetvalue(r, i, 1);
    int64_t row = mp__pg_int64(r, i, 0);
    if (mp_pending_type_parse(type, &t) < 0)
      rc =
          mp_err_set(err, MP_ESTATE,
                     "stored pending operation has an unknown type '%s'", type);
    else
      rc = mp__store_parse_entry(PQgetvalue(r, i, 2),
                                 (size_t)PQgetlength(r, i, 2), row, c, flags,
                                 &res, err);
    if (rc == 0) {
      mp_snapshot_append_pending(snap, res, t);
      snap->pending[snap->npending - 1].row = row;
    }
  }
  PQclear(r);
  return rc;
}

/* Loads everything of stack |id| into a new snapshot, inside the open
 * transaction or one repeatable-read snapshot of its own. */
static int load_all(mp_pg *s, int64_t id, const mp_crypter *c, unsigned flags,
                    mp_snapshot **out, mp_err *err) {
  mp_snapshot *snap = mp_snapshot_new();
  int in_tx = mp__pg_in_tx(s);
  int rc = in_tx ? 0 : mp__pg_tx_begin_read(s, err);
  if (rc == 0)
    rc = load_resources(s, id, c, flags, snap, err);
  if (rc == 0)
    rc = load_pending(s, id, c, flags, snap, err);
  if (!in_tx)
    mp__pg_tx_rollback(s); /* read only: nothing to commit */
  if (rc < 0) {
    mp_snapshot_free(snap);
    return rc;
  }
  *out = snap;
  return 0;
}

int mp__pg_load(mp_store *base, mp_stack_ref st, const mp_crypter *c,
                mp_snapshot **out, mp_err *err) {
  mp_pg *s = mp__pg(base);
  *out = NULL;
  int64_t id;
  mp_snapshot *snap;
  if (mp__pg_stack_id(s, st, MP__PG_READ, &id, err) < 0)
    return err->code;
  if (load_all(s, id, c, 0, &snap, err) < 0)
    return mp_err_prefix(err, "cannot load stack '%s/%s'", st.project, st.name);
  if (mp__pg_secrets_get(base, st, &snap->secrets_type, &snap->secrets_state,
                         err) < 0) {
    mp_snapshot_free(snap);
    return err->code;
  }
  *out = snap;
  return 0;
}

int mp__pg_verify_stored(mp_pg *s, int64_t stack_id, const char *label,
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

/* ==== rows ==== */

void mp__pg_resource_stmt(int64_t stack_id, int64_t ord, const mp_resource *r,
                          const mp_buf *json, mp_pg_stmt *out) {
  out->id = PQ_RES_INSERT;
  out->what = "cannot store a resource";
  mp__pg_int(&out->p, stack_id);
  mp__pg_int(&out->p, ord);
  mp__pg_text(&out->p, r->urn);
  mp__pg_int(&out->p, r->delete_ ? 1 : 0);
  mp__pg_text(&out->p, json->data ? json->data : "");
}

void mp__pg_pending_stmt(int64_t stack_id, mp_pending_type t,
                         const mp_buf *json, mp_pg_stmt *out) {
  out->id = PQ_PENDING_INSERT;
  out->what = "cannot store a pending operation";
  mp__pg_int(&out->p, stack_id);
  mp__pg_text(&out->p, mp_pending_type_name(t));
  mp__pg_text(&out->p, json->data ? json->data : "");
}

/* Runs an INSERT ... RETURNING id built by one of the above; sets *row. */
static int insert(mp_pg *s, const mp_pg_stmt *st, int64_t *row, mp_err *err) {
  return mp__pg_query_int(s, st->id, &st->p, st->what, row, NULL, err);
}

/* ==== replace ==== */

/* Encodes and inserts one entry of a replaced snapshot: a resource at
 * |ord|, or a pending operation when |op| is set. */
static int replace_one(mp_pg *s, int64_t id, int64_t ord, const mp_resource *r,
                       const mp_pending_op *op, const mp_crypter *c,
                       int64_t *row, mp_err *err) {
  mp_buf json;
  mp_buf_init(&json);
  mp_pg_stmt st = {0};
  int rc = mp_resource_to_json(op ? op->res : r, c, 0, &json, err);
  if (op)
    mp__pg_pending_stmt(id, op->type, &json, &st);
  else
    mp__pg_resource_stmt(id, ord, r, &json, &st);
  if (rc == 0)
    rc = insert(s, &st, row, err);
  mp_buf_destroy(&json);
  return rc;
}

static int clear_stack(mp_pg *s, int64_t id, mp_err *err) {
  static const mp__pg_stmt_id ids[] = {PQ_RES_DELETE_ALL,
                                       PQ_PENDING_DELETE_ALL};
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  for (size_t i = 0; i < MP_ARRAY_LEN(ids); i++)
    if (mp__pg_exec(s, ids[i], &p, "cannot clear the stack", NULL, err) < 0)
      return err->code;
  return 0;
}

/* Writes every entry; |rows| receives the new rows (resources, then
 * pending operations), assigned to |snap| only after the commit. */
static int replace_tx(mp_pg *s, mp_stack_ref st, const mp_snapshot *snap,
                      const mp_crypter *c, int64_t *rows, mp_err *err) {
  int64_t id;
  char *label = mp__store_label(st);
  int rc = mp__pg_stack_id(s, st, MP__PG_SHARE, &id, err);
  if (rc == 0)
    rc = mp__pg_lock_check_free(s, id, label, err);
  free(label);
  if (rc == 0)
    rc = clear_stack(s, id, err);
  for (size_t i = 0; rc == 0 && i < snap->nres; i++)
    rc = replace_one(s, id, (int64_t)i, snap->res[i], NULL, c, &rows[i], err);
  for (size_t i = 0; rc == 0 && i < snap->npending; i++)
    rc = replace_one(s, id, 0, NULL, &snap->pending[i], c,
                     &rows[snap->nres + i], err);
  if (rc == 0 && snap->secrets_type)
    rc = mp__pg_secrets_set(&s->base, st, snap->secrets_type,
                            snap->secrets_state, err);
  return rc;
}

int mp__pg_replace(mp_store *base, mp_stack_ref st, mp_snapshot *snap,
                   const mp_crypter *c, mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (mp__store_verify_writes_enabled() && mp_snapshot_verify(snap, err) < 0)
    return mp_err_prefix(err,
                         "refusing to store an invalid snapshot in "
                         "stack '%s/%s'",
                         st.project, st.name);
  int64_t *rows = mp_xcalloc(snap->nres + snap->npending + 1, sizeof(*rows));
  int rc = mp__pg_tx_begin(s, err);
  if (rc == 0) {
    rc = replace_tx(s, st, snap, c, rows, err);
    if (rc == 0)
      rc = mp__pg_tx_commit(s, err);
    else
      mp__pg_tx_rollback(s);
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
