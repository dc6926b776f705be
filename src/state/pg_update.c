/* Write sessions in the PostgreSQL store (as sqlite_update.c): an
 * operation takes the stack's lock and starts its history row in one
 * transaction, records each step's effect with one short transaction that
 * first renews the lock (and so fails at once if the lock was broken or
 * taken over), and ends by recording its result and releasing the lock.
 * While the session is open a renewal thread keeps the lease alive
 * (pg_lease.c). New states go below every old one by `ord`
 * (MP__STORE_ORD_SPAN, BEHAVIOUR.md C.7). */
#include "state/pg_int.h"

#include <stdlib.h>
#include <string.h>

static int read_int(mp_pg *s, mp__pg_stmt_id id, int64_t stack_id, int64_t *out,
                    int *is_null, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  return mp__pg_query_int(s, id, &p, "cannot read the stack", out, is_null,
                          err);
}

/* The body of begin, inside its transaction. */
static int begin_tx(mp_pg *s, mp_pg_update *u, mp_stack_ref st,
                    const char *kind, const char *message, mp_lock_info *stale,
                    mp_err *err) {
  int64_t min_ord;
  int empty, ignored;
  if (mp__pg_stack_id(s, st, MP__PG_SHARE, &u->stack_id, err) < 0 ||
      mp__pg_lock_acquire(s, u->stack_id, u->label, kind, u->token, stale,
                          err) < 0 ||
      mp__pg_history_begin(s, u->stack_id, kind, message, &u->seq, err) < 0 ||
      read_int(s, PQ_RES_MIN_ORD, u->stack_id, &min_ord, &empty, err) < 0 ||
      read_int(s, PQ_PENDING_MAX, u->stack_id, &u->pending_high, &ignored,
               err) < 0)
    return err->code;
  u->next_ord = empty ? 0 : min_ord - MP__STORE_ORD_SPAN;
  return 0;
}

static void update_free(mp_pg_update *u) {
  free(u->label);
  free(u);
}

int mp__pg_update_begin(mp_store *base, mp_stack_ref st, const char *kind,
                        const char *message, const mp_crypter *c,
                        mp_lock_info *stale, mp_store_update **out,
                        mp_err *err) {
  mp_pg *s = mp__pg(base);
  *out = NULL;
  mp_pg_update *u = mp_xcalloc(1, sizeof(*u));
  u->base.s = base;
  u->s = s;
  u->c = c;
  u->verify = mp__store_verify_writes_enabled();
  u->label = mp__store_label(st);
  int rc = mp__pg_tx_begin(s, err);
  if (rc == 0) {
    rc = begin_tx(s, u, st, kind, message, stale, err);
    if (rc == 0)
      rc = mp__pg_tx_commit(s, err);
    else
      mp__pg_tx_rollback(s);
  }
  if (rc == 0)
    rc = mp__pg_lease_start(s->url, s->base.location, u->stack_id, u->token,
                            s->lease_ms, &u->lease, err);
  if (rc < 0) {
    if (stale)
      memset(stale, 0, sizeof(*stale));
    if (u->seq > 0) { /* locked but no lease: do not leave the lock */
      mp_err ignored;
      mp__pg_lock_release(u, &ignored);
    }
    update_free(u);
    return rc;
  }
  u->next = s->updates;
  s->updates = u;
  *out = &u->base;
  return 0;
}

/* ==== apply ==== */

/* Runs a row-level UPDATE/DELETE and requires that it touched a row. */
static int exec_one_row(mp_pg_update *u, mp__pg_stmt_id id,
                        const mp_pg_params *p, int64_t row, const char *what,
                        mp_err *err) {
  int64_t n = 0;
  if (mp__pg_exec(u->s, id, p, what, &n, err) < 0)
    return err->code;
  return n == 0 ? mp__store_no_row(what, u->label, row, err) : 0;
}

/* UPDATE (|ord| NULL: keep the position) or UPDATE_NEW (take *ord). */
static int apply_update(mp_pg_update *u, const mp_resource *r,
                        const mp_buf *json, int64_t *ord, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, u->stack_id);
  mp__pg_int(&p, r->row);
  mp__pg_text(&p, r->urn);
  mp__pg_int(&p, r->delete_ ? 1 : 0);
  mp__pg_text(&p, json->data ? json->data : "");
  if (ord)
    mp__pg_int(&p, (*ord)++);
  return exec_one_row(u, ord ? PQ_RES_UPDATE_NEW : PQ_RES_UPDATE, &p, r->row,
                      "cannot update a resource", err);
}

/* MOVE_NEW (|ord| set), DELETE or PENDING_REMOVE of row |row|. */
static int apply_row(mp_pg_update *u, mp__pg_stmt_id id, int64_t row,
                     int64_t *ord, const char *what, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, u->stack_id);
  mp__pg_int(&p, row);
  if (ord)
    mp__pg_int(&p, (*ord)++);
  return exec_one_row(u, id, &p, row, what, err);
}

/* Applies change |ch| whose resource JSON (if any) is |json|; a new row
 * goes to *row and a new ord is taken from *ord. */
static int apply_one(mp_pg_update *u, const mp_store_change *ch,
                     const mp_buf *json, int64_t *ord, int64_t *row,
                     mp_err *err) {
  switch (ch->kind) {
  case MP_STORE_INSERT_NEW:
    return mp__pg_insert_resource(u->s, u->stack_id, (*ord)++, ch->res, json,
                                  row, err);
  case MP_STORE_UPDATE:
    return apply_update(u, ch->res, json, NULL, err);
  case MP_STORE_UPDATE_NEW:
    return apply_update(u, ch->res, json, ord, err);
  case MP_STORE_MOVE_NEW:
    return apply_row(u, PQ_RES_MOVE, ch->row, ord, "cannot move a resource",
                     err);
  case MP_STORE_DELETE:
    return apply_row(u, PQ_RES_DELETE, ch->row, NULL,
                     "cannot delete a resource", err);
  case MP_STORE_PENDING_ADD:
    return mp__pg_insert_pending(u->s, u->stack_id, ch->type, json, row, err);
  case MP_STORE_PENDING_REMOVE:
    return apply_row(u, PQ_PENDING_DELETE, ch->row, NULL,
                     "cannot remove a pending operation", err);
  }
  return mp_err_set(err, MP_EINVAL, "unknown store change kind %d",
                    (int)ch->kind);
}

static int apply_tx(mp_pg_update *u, const mp_store_change *ch, size_t n,
                    const mp_buf *json, int64_t *ord, int64_t *rows,
                    mp_err *err) {
  if (mp__pg_lock_renew(u, err) < 0)
    return err->code;
  for (size_t i = 0; i < n; i++)
    if (apply_one(u, &ch[i], &json[i], ord, &rows[i], err) < 0)
      return err->code;
  return 0;
}

int mp__pg_apply(mp_store_update *base, const mp_store_change *changes,
                 size_t n, mp_err *err) {
  mp_pg_update *u = mp__pg_update(base);
  if (n == 0)
    return 0;
  mp_buf *json = mp_xcalloc(n, sizeof(*json));
  int64_t *rows = mp_xcalloc(n, sizeof(*rows));
  int64_t ord = u->next_ord;
  int rc = mp__store_encode_changes(changes, n, u->c, json, err);
  if (rc == 0)
    rc = mp__pg_tx_begin(u->s, err);
  if (rc == 0) {
    rc = apply_tx(u, changes, n, json, &ord, rows, err);
    if (rc == 0)
      rc = mp__pg_tx_commit(u->s, err);
    else
      mp__pg_tx_rollback(u->s);
  }
  if (rc == 0) {
    u->next_ord = ord;
    mp__store_assign_rows(changes, n, rows);
  }
  for (size_t i = 0; i < n; i++)
    mp_buf_destroy(&json[i]);
  free(json);
  free(rows);
  if (rc == 0 && u->verify)
    rc = mp__pg_verify_stored(u->s, u->stack_id, u->label, err);
  return rc;
}

int mp__pg_drop_old_pending(mp_store_update *base, mp_err *err) {
  mp_pg_update *u = mp__pg_update(base);
  mp_pg_params p = {0};
  mp__pg_int(&p, u->stack_id);
  mp__pg_int(&p, u->pending_high);
  return mp__pg_exec(u->s, PQ_PENDING_DROP_OLD, &p,
                     "cannot drop old pending operations", NULL, err);
}

/* ==== end ==== */

static void unlink_update(mp_pg_update *u) {
  for (mp_pg_update **p = &u->s->updates; *p; p = &(*p)->next) {
    if (*p == u) {
      *p = u->next;
      return;
    }
  }
}

static int end_tx(mp_pg_update *u, const char *result,
                  const mp_update_counts *counts, mp_err *err) {
  mp_pg *s = u->s;
  int rc = mp__pg_tx_begin(s, err);
  if (rc == 0) {
    rc = mp__pg_history_end(s, u->stack_id, u->seq, result, counts, err);
    if (rc == 0)
      rc = mp__pg_lock_release(u, err);
    if (rc == 0)
      rc = mp__pg_tx_commit(s, err);
    else
      mp__pg_tx_rollback(s);
  }
  return rc;
}

int mp__pg_update_end(mp_store_update *base, const char *result,
                      const mp_update_counts *counts, mp_err *err) {
  mp_pg_update *u = mp__pg_update(base);
  mp_pg *s = u->s;
  mp__pg_lease_stop(u->lease); /* no renewal after the release */
  int rc = end_tx(u, result, counts, err);
  if (rc < 0 && PQstatus(s->conn) != CONNECTION_OK) {
    /* The connection was lost mid-update: one new connection records the
     * result and releases the lock, so the stack is not left locked. */
    mp_err again;
    if (mp__pg_reconnect(s, &again) == 0 &&
        end_tx(u, result, counts, &again) == 0)
      rc = 0;
  }
  if (rc < 0) {
    mp_err ignored; /* the lock must not outlive us even if history fails */
    mp__pg_lock_release(u, &ignored);
  }
  unlink_update(u);
  update_free(u);
  return rc;
}
