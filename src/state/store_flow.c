/* The flows both state store backends share: loading a snapshot, a
 * step's write (mp_store_apply) and replacing a whole snapshot
 * (mp_store_replace). The order of things, what happens on failure and
 * when rows are handed out live here once; each backend supplies its
 * transactions, row reads and row writes (mp__store_db). */
#include "state/store_int.h"

#include <stdlib.h>

#include "engine/snapshot_json_int.h"

/* ==== loading ==== */

/* Loads everything of stack |id| into a new snapshot, inside the open
 * transaction or a read snapshot of its own, so that resources and
 * pending operations agree. */
static int load_all(const mp__store_db *db, mp_store *s, int64_t id,
                    const mp_crypter *c, unsigned flags, mp_snapshot **out,
                    mp_err *err) {
  mp_snapshot *snap = mp_snapshot_new();
  int in_tx = db->in_tx(s);
  int rc = in_tx ? 0 : db->begin_read(s, err);
  if (rc == 0)
    rc = db->read_rows(s, id, c, flags, snap, err);
  if (!in_tx)
    db->rollback(s); /* read only: nothing to commit */
  if (rc < 0) {
    mp_snapshot_free(snap);
    return rc;
  }
  *out = snap;
  return 0;
}

int mp__store_load(const mp__store_db *db, mp_store *s, mp_stack_ref st,
                   const mp_crypter *c, mp_snapshot **out, mp_err *err) {
  *out = NULL;
  int64_t id;
  mp_snapshot *snap;
  if (db->stack_id(s, st, &id, err) < 0)
    return err->code;
  if (load_all(db, s, id, c, 0, &snap, err) < 0)
    return mp_err_prefix(err, "cannot load stack '%s/%s'", st.project, st.name);
  if (s->ops->secrets_get(s, st, &snap->secrets_type, &snap->secrets_state,
                          err) < 0) {
    mp_snapshot_free(snap);
    return err->code;
  }
  *out = snap;
  return 0;
}

int mp__store_verify_stored(const mp__store_db *db, mp_store *s, int64_t id,
                            const char *label, mp_err *err) {
  mp_snapshot *snap;
  if (load_all(db, s, id, NULL, MP__RES_SKIP_VALUES, &snap, err) < 0)
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

/* ==== writing ==== */

/* Takes |n| changes of which none is lazy: one transaction. */
static int apply_now(const mp__store_db *w, mp_store_update *u,
                     const mp_crypter *c, int64_t *next_ord,
                     const mp_store_change *changes, size_t n, mp_err *err) {
  mp_buf *json = mp_xcalloc(n, sizeof(*json));
  int64_t *rows = mp_xcalloc(n, sizeof(*rows));
  int64_t ord = *next_ord;
  int rc = mp__store_encode_changes(changes, n, c, json, err);
  if (rc == 0) {
    rc = w->write(u, changes, n, json, &ord, rows, err);
    if (rc == 0)
      rc = w->commit(u->s, err);
    else
      w->rollback(u->s);
  }
  if (rc == 0) {
    *next_ord = ord;
    mp__store_assign_rows(changes, n, rows);
  }
  for (size_t i = 0; i < n; i++)
    mp_buf_destroy(&json[i]);
  free(json);
  free(rows);
  return rc;
}

static void defer_move(mp_store_update *u, int64_t row) {
  if (u->nlazy == u->lazy_cap) {
    u->lazy_cap = u->lazy_cap ? u->lazy_cap * 2 : 64;
    u->lazy = mp_xreallocarray(u->lazy, u->lazy_cap, sizeof(*u->lazy));
  }
  u->lazy[u->nlazy++] = row;
}

int mp__store_apply(const mp__store_db *w, mp_store_update *u,
                    const mp_crypter *c, int64_t *next_ord,
                    const mp_store_change *changes, size_t n, mp_err *err) {
  size_t eager = 0;
  for (size_t i = 0; i < n; i++)
    if (changes[i].kind != MP_STORE_MOVE_LAZY)
      eager++;
  if (eager == 0) {
    for (size_t i = 0; i < n; i++)
      defer_move(u, changes[i].row);
    return 0;
  }
  if (u->nlazy == 0 && eager == n)
    return apply_now(w, u, c, next_ord, changes, n, err);
  /* The deferred moves go first, in the order they were deferred, then
   * these changes with their own lazy moves made now. */
  size_t m = u->nlazy + n;
  mp_store_change *all = mp_xcalloc(m, sizeof(*all));
  for (size_t i = 0; i < u->nlazy; i++) {
    all[i].kind = MP_STORE_MOVE_NEW;
    all[i].row = u->lazy[i];
  }
  for (size_t i = 0; i < n; i++) {
    all[u->nlazy + i] = changes[i];
    if (changes[i].kind == MP_STORE_MOVE_LAZY)
      all[u->nlazy + i].kind = MP_STORE_MOVE_NEW;
  }
  int rc = apply_now(w, u, c, next_ord, all, m, err);
  if (rc == 0)
    u->nlazy = 0;
  free(all);
  return rc;
}

/* Encodes and inserts one entry of a replaced snapshot: a resource at
 * |ord|, or a pending operation when |op| is set. */
static int replace_one(const mp__store_db *w, mp_store *s, int64_t id,
                       int64_t ord, const mp_resource *r,
                       const mp_pending_op *op, const mp_crypter *c,
                       int64_t *row, mp_err *err) {
  mp_buf json;
  mp_buf_init(&json);
  int rc = mp_resource_to_json(op ? op->res : r, c, 0, &json, err);
  if (rc == 0 && op)
    rc = w->insert_pending(s, id, op->type, &json, row, err);
  else if (rc == 0)
    rc = w->insert_resource(s, id, ord, r, &json, row, err);
  mp_buf_destroy(&json);
  return rc;
}

/* Writes every entry; |rows| receives the new rows (resources, then
 * pending operations), assigned to |snap| only after the commit. */
static int replace_tx(const mp__store_db *w, mp_store *s, mp_stack_ref st,
                      const mp_snapshot *snap, const mp_crypter *c,
                      int64_t *rows, mp_err *err) {
  int64_t id;
  char *label = mp__store_label(st);
  int rc = w->replace_start(s, st, label, &id, err);
  free(label);
  if (rc == 0)
    rc = w->clear(s, id, err);
  for (size_t i = 0; rc == 0 && i < snap->nres; i++)
    rc =
        replace_one(w, s, id, (int64_t)i, snap->res[i], NULL, c, &rows[i], err);
  for (size_t i = 0; rc == 0 && i < snap->npending; i++)
    rc = replace_one(w, s, id, 0, NULL, &snap->pending[i], c,
                     &rows[snap->nres + i], err);
  for (size_t i = 0; rc == 0 && i < snap->extensions.len; i++) {
    const mp_extension *e = &snap->extensions.items[i];
    if (!mp_snapshot_uses_extension(snap, e->ref)) continue;
    mp_buf json;
    mp_buf_init(&json);
    mp_extension_to_json(e, &json);
    rc = w->insert_extension(s, id, e->ref, &json, err);
    mp_buf_destroy(&json);
  }
  if (rc == 0 && snap->secrets_type)
    rc = s->ops->secrets_set(s, st, snap->secrets_type, snap->secrets_state,
                             err);
  return rc;
}

int mp__store_replace(const mp__store_db *w, mp_store *s, mp_stack_ref st,
                      mp_snapshot *snap, const mp_crypter *c, mp_err *err) {
  if (s->verify_writes && mp_snapshot_verify(snap, err) < 0)
    return mp_err_prefix(err,
                         "refusing to store an invalid snapshot in "
                         "stack '%s/%s'",
                         st.project, st.name);
  int64_t *rows = mp_xcalloc(snap->nres + snap->npending + 1, sizeof(*rows));
  int rc = w->begin(s, err);
  if (rc == 0) {
    rc = replace_tx(w, s, st, snap, c, rows, err);
    if (rc == 0)
      rc = w->commit(s, err);
    else
      w->rollback(s);
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
