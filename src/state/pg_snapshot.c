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
  for (int i = 0; rc == 0 && i < PQntuples(r); i++)
    rc = mp__store_read_resource(mp__pg_int64(r, i, 0), PQgetvalue(r, i, 1),
                                 (size_t)PQgetlength(r, i, 1), c, flags, snap,
                                 err);
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
    mp_pending_type t;
    rc = mp__store_pending_type(PQgetvalue(r, i, 1), &t, err);
    if (rc == 0)
      rc = mp__store_read_pending(mp__pg_int64(r, i, 0), t, PQgetvalue(r, i, 2),
                                  (size_t)PQgetlength(r, i, 2), c, flags, snap,
                                  err);
  }
  PQclear(r);
  return rc;
}

static int load_extensions(mp_pg *s, int64_t id, mp_snapshot *snap,
                           mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  PGresult *r =
      mp__pg_run(s, PQ_EXT_LOAD, &p, "cannot read the extensions", err);
  if (r == NULL)
    return err->code;
  int rc = 0;
  for (int i = 0; rc == 0 && i < PQntuples(r); i++)
    rc = mp__store_parse_extension(PQgetvalue(r, i, 0), PQgetvalue(r, i, 1),
                                   (size_t)PQgetlength(r, i, 1), snap, err);
  PQclear(r);
  return rc;
}

/* The whole stack in the order the flow wants it (read_rows). */
static int read_rows(mp_store *base, int64_t id, const mp_crypter *c,
                     unsigned flags, mp_snapshot *snap, mp_err *err) {
  mp_pg *s = mp__pg(base);
  int rc = load_resources(s, id, c, flags, snap, err);
  if (rc == 0)
    rc = load_pending(s, id, c, flags, snap, err);
  return rc < 0 ? rc : load_extensions(s, id, snap, err);
}

/* ==== rows ==== */

void mp__pg_extension_stmt(int64_t stack_id, const char *ref,
                           const mp_buf *json, mp_pg_stmt *out) {
  out->id = PQ_EXT_INSERT;
  out->what = "cannot store an extension";
  mp__pg_int(&out->p, stack_id);
  mp__pg_text(&out->p, ref);
  mp__pg_text(&out->p, json->data ? json->data : "");
}

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

/* ==== the database of the shared flows (store_flow.c) ==== */

static int stack_id(mp_store *s, mp_stack_ref st, int64_t *id, mp_err *err) {
  return mp__pg_stack_id(mp__pg(s), st, MP__PG_READ, id, err);
}

static int in_tx(mp_store *s) { return mp__pg_in_tx(mp__pg(s)); }

static int begin_read(mp_store *s, mp_err *err) {
  return mp__pg_tx_begin_read(mp__pg(s), err);
}

static int pg_begin(mp_store *s, mp_err *err) {
  return mp__pg_tx_begin(mp__pg(s), err);
}

static int pg_commit(mp_store *s, mp_err *err) {
  return mp__pg_tx_commit(mp__pg(s), err);
}

static void pg_rollback(mp_store *s) { mp__pg_tx_rollback(mp__pg(s)); }

static int replace_start(mp_store *base, mp_stack_ref st, const char *label,
                         int64_t *id, mp_err *err) {
  mp_pg *s = mp__pg(base);
  int rc = mp__pg_stack_id(s, st, MP__PG_SHARE, id, err);
  return rc < 0 ? rc : mp__pg_lock_check_free(s, *id, label, err);
}

static int clear_stack(mp_store *s, int64_t id, mp_err *err) {
  static const mp__pg_stmt_id ids[] = {PQ_RES_DELETE_ALL,
                                       PQ_PENDING_DELETE_ALL,
                                       PQ_EXT_DELETE_ALL};
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  for (size_t i = 0; i < MP_ARRAY_LEN(ids); i++)
    if (mp__pg_exec(mp__pg(s), ids[i], &p, "cannot clear the stack", NULL,
                    err) < 0)
      return err->code;
  return 0;
}

/* Runs an INSERT ... RETURNING id built by one of the above; sets *row. */
static int insert(mp_store *s, const mp_pg_stmt *st, int64_t *row,
                  mp_err *err) {
  return mp__pg_query_int(mp__pg(s), st->id, &st->p, st->what, row, NULL, err);
}

static int insert_resource(mp_store *s, int64_t id, int64_t ord,
                           const mp_resource *r, const mp_buf *json,
                           int64_t *row, mp_err *err) {
  mp_pg_stmt st = {0};
  mp__pg_resource_stmt(id, ord, r, json, &st);
  return insert(s, &st, row, err);
}

static int insert_pending(mp_store *s, int64_t id, mp_pending_type t,
                          const mp_buf *json, int64_t *row, mp_err *err) {
  mp_pg_stmt st = {0};
  mp__pg_pending_stmt(id, t, json, &st);
  return insert(s, &st, row, err);
}

static int insert_extension(mp_store *s, int64_t id, const char *ref,
                            const mp_buf *json, mp_err *err) {
  mp_pg_stmt st = {0};
  mp__pg_extension_stmt(id, ref, json, &st);
  return mp__pg_exec(mp__pg(s), st.id, &st.p, st.what, NULL, err);
}

const mp__store_db mp__pg_db = {
    .stack_id = stack_id,
    .in_tx = in_tx,
    .begin_read = begin_read,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .write = mp__pg_write,
    .replace_start = replace_start,
    .clear = clear_stack,
    .insert_resource = insert_resource,
    .insert_pending = insert_pending,
    .insert_extension = insert_extension,
    .read_rows = read_rows,
};

int mp__pg_load(mp_store *base, mp_stack_ref st, const mp_crypter *c,
                mp_snapshot **out, mp_err *err) {
  return mp__store_load(&mp__pg_db, base, st, c, out, err);
}

int mp__pg_replace(mp_store *base, mp_stack_ref st, mp_snapshot *snap,
                   const mp_crypter *c, mp_err *err) {
  return mp__store_replace(&mp__pg_db, base, st, snap, c, err);
}
