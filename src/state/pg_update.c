/* Write sessions in the PostgreSQL store (as sqlite_update.c): an
 * operation takes the stack's lock and starts its history row in one
 * transaction, records each step's effect with one short transaction that
 * first renews the lock (and so fails at once if the lock was broken or
 * taken over), and ends by recording its result and releasing the lock.
 * While the session is open a renewal thread keeps the lease alive
 * (pg_lease.c). New states go below every old one by `ord`
 * (MP__STORE_ORD_SPAN, tests/conformance/scenarios/S17-cbd-replacement.scn). */
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
  free(u->base.lazy);
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
  u->verify = base->verify_writes;
  u->label = mp__store_label(st);
  int locked = 0;
  int rc = mp__pg_tx_begin(s, err);
  if (rc == 0) {
    rc = begin_tx(s, u, st, kind, message, stale, err);
    if (rc == 0)
      locked = (rc = mp__pg_tx_commit(s, err)) == 0;
    else
      mp__pg_tx_rollback(s);
  }
  if (rc == 0)
    rc = mp__pg_lease_start(s->url, s->base.location, u->stack_id, u->token,
                            s->lease_ms, &u->lease, err);
  if (rc < 0) {
    if (stale)
      memset(stale, 0, sizeof(*stale));
    if (locked) { /* locked but no lease: do not leave the lock behind */
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

/* How a statement of a step's write is judged once it ran. */
typedef enum check_kind {
  CHECK_NONE,    /* the lock renewal: judged by the caller */
  CHECK_RETURNS, /* an INSERT ... RETURNING id: the new row */
  CHECK_ONE_ROW  /* an UPDATE/DELETE of |row|: it must touch it */
} check_kind;

typedef struct step_stmt {
  mp_pg_stmt st;
  check_kind check;
  int64_t row; /* CHECK_ONE_ROW: the row, for the message */
} step_stmt;

/* The statement for UPDATE (|ord| NULL: keep the position) or UPDATE_NEW
 * (take *ord) of resource |r|. */
static void build_update(mp_pg_update *u, const mp_resource *r,
                         const mp_buf *json, int64_t *ord, step_stmt *out) {
  out->st.id = ord ? PQ_RES_UPDATE_NEW : PQ_RES_UPDATE;
  out->st.what = "cannot update a resource";
  out->check = CHECK_ONE_ROW;
  out->row = r->row;
  mp__pg_int(&out->st.p, u->stack_id);
  mp__pg_int(&out->st.p, r->row);
  mp__pg_text(&out->st.p, r->urn);
  mp__pg_int(&out->st.p, r->delete_ ? 1 : 0);
  mp__pg_text(&out->st.p, json->data ? json->data : "");
  if (ord)
    mp__pg_int(&out->st.p, (*ord)++);
}

/* The statement for MOVE_NEW (|ord| set), DELETE or PENDING_REMOVE. */
static void build_row(mp_pg_update *u, mp__pg_stmt_id id, int64_t row,
                      int64_t *ord, const char *what, step_stmt *out) {
  out->st.id = id;
  out->st.what = what;
  out->check = CHECK_ONE_ROW;
  out->row = row;
  mp__pg_int(&out->st.p, u->stack_id);
  mp__pg_int(&out->st.p, row);
  if (ord)
    mp__pg_int(&out->st.p, (*ord)++);
}

/* The statement for change |ch| whose resource JSON (if any) is |json|; a
 * new ord is taken from *ord. */
static int build_change(mp_pg_update *u, const mp_store_change *ch,
                        const mp_buf *json, int64_t *ord, step_stmt *out,
                        mp_err *err) {
  switch (ch->kind) {
  case MP_STORE_INSERT_NEW:
    out->check = CHECK_RETURNS;
    mp__pg_resource_stmt(u->stack_id, (*ord)++, ch->res, json, &out->st);
    return 0;
  case MP_STORE_UPDATE:
    build_update(u, ch->res, json, NULL, out);
    return 0;
  case MP_STORE_UPDATE_NEW:
    build_update(u, ch->res, json, ord, out);
    return 0;
  case MP_STORE_MOVE_NEW:
  case MP_STORE_MOVE_LAZY: /* made eager by mp__store_apply */
    build_row(u, PQ_RES_MOVE, ch->row, ord, "cannot move a resource", out);
    return 0;
  case MP_STORE_DELETE:
    build_row(u, PQ_RES_DELETE, ch->row, NULL, "cannot delete a resource", out);
    return 0;
  case MP_STORE_PENDING_ADD:
    out->check = CHECK_RETURNS;
    mp__pg_pending_stmt(u->stack_id, ch->type, json, &out->st);
    return 0;
  case MP_STORE_PENDING_REMOVE:
    build_row(u, PQ_PENDING_DELETE, ch->row, NULL,
              "cannot remove a pending operation", out);
    return 0;
  case MP_STORE_EXTENSION:
    out->check = CHECK_NONE;
    mp__pg_extension_stmt(u->stack_id, ch->ext->ref, json, &out->st);
    return 0;
  }
  return mp_err_set(err, MP_EINVAL, "unknown store change kind %d",
                    (int)ch->kind);
}

/* Judges the results |res| of the statements |st| (the first renews the
 * lock); new rows go to |rows| (one per change). */
static int judge(mp_pg_update *u, const step_stmt *st, PGresult **res, size_t n,
                 int64_t *rows, mp_err *err) {
  if (strtoll(PQcmdTuples(res[0]), NULL, 10) != 1)
    return mp__store_lock_lost(u->label, err);
  for (size_t i = 1; i < n; i++) {
    if (st[i].check == CHECK_RETURNS)
      rows[i - 1] = PQntuples(res[i]) > 0 ? mp__pg_int64(res[i], 0, 0) : 0;
    else if (st[i].check == CHECK_ONE_ROW &&
             strtoll(PQcmdTuples(res[i]), NULL, 10) == 0)
      return mp__store_no_row(st[i].st.what, u->label, st[i].row, err);
  }
  return 0;
}

/* Starts a transaction, renews the lock and applies the changes, all sent
 * at once; leaves the transaction open for the caller to commit or roll
 * back. */
int mp__pg_write(mp_store_update *base, const mp_store_change *ch, size_t n,
                 const mp_buf *json, int64_t *ord, int64_t *rows, mp_err *err) {
  mp_pg_update *u = mp__pg_update(base);
  step_stmt *st = mp_xcalloc(n + 1, sizeof(*st));
  PGresult **res = mp_xcalloc(n + 1, sizeof(*res));
  mp_pg_stmt **batch = mp_xcalloc(n + 1, sizeof(*batch));
  mp__pg_lock_renew_stmt(u, &st[0].st);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < n; i++)
    rc = build_change(u, &ch[i], &json[i], ord, &st[i + 1], err);
  for (size_t i = 0; i <= n; i++)
    batch[i] = &st[i].st;
  if (rc == 0)
    rc = mp__pg_batch(u->s, batch, n + 1, res, err);
  if (rc == 0)
    rc = judge(u, st, res, n + 1, rows, err);
  for (size_t i = 0; i <= n; i++)
    PQclear(res[i]);
  free(batch);
  free(res);
  free(st);
  return rc;
}

int mp__pg_apply(mp_store_update *base, const mp_store_change *changes,
                 size_t n, mp_err *err) {
  mp_pg_update *u = mp__pg_update(base);
  int rc =
      mp__store_apply(&mp__pg_db, base, u->c, &u->next_ord, changes, n, err);
  if (rc == 0 && n > 0 && u->verify)
    rc = mp__store_verify_stored(&mp__pg_db, base->s, u->stack_id, u->label,
                                 err);
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
    rc = mp__pg_history_end(s, u->stack_id, u->seq, result, counts, &u->base,
                            err);
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
  if (rc < 0 && mp__pg_lost(s)) {
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
