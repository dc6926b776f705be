/* Write sessions: an operation takes the stack's lock, then records each
 * step's effect with mp_store_apply (one short transaction touching only
 * the rows named), and finally records its result in the history.
 *
 * Order (tests/conformance/scenarios/S17-cbd-replacement.scn): states
 * produced in this deployment come first in completion order, then the old
 * states still present in their old order. Rows are ordered by `ord`; at
 * begin the session picks a base below every existing ord, so each
 * INSERT_NEW (or UPDATE_NEW / MOVE_NEW) lands after the earlier new states
 * and before every old one, and UPDATE keeps a row where it is. */
#include "state/sqlite_int.h"

#include <stdlib.h>
#include <string.h>

static int read_int(mp_sqlite *s, mp__stmt_id id, int64_t stack_id,
                    int64_t *out, int *is_null, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, id, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  int rc = sqlite3_step(q);
  *is_null = rc != SQLITE_ROW || sqlite3_column_type(q, 0) == SQLITE_NULL;
  *out = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
  mp__stmt_done(q);
  return rc == SQLITE_ROW ? 0 : mp__sql_err(s, "cannot read the stack", err);
}

/* The body of begin, inside its transaction. */
static int begin_tx(mp_sqlite *s, mp_sqlite_update *u, const char *kind,
                    const char *message, mp_lock_info *stale, mp_err *err) {
  int64_t min_ord;
  int empty, ignored;
  if (mp__lock_acquire(s, u->stack_id, u->label, kind, stale, err) < 0 ||
      mp__history_begin(s, u->stack_id, kind, message, &u->seq, err) < 0 ||
      read_int(s, ST_RES_MIN_ORD, u->stack_id, &min_ord, &empty, err) < 0 ||
      read_int(s, ST_PENDING_MAX, u->stack_id, &u->pending_high, &ignored,
               err) < 0)
    return err->code;
  u->next_ord = empty ? 0 : min_ord - MP__STORE_ORD_SPAN;
  return 0;
}

int mp__sqlite_update_begin(mp_store *base, mp_stack_ref st, const char *kind,
                            const char *message, const mp_crypter *c,
                            mp_lock_info *stale, mp_store_update **out,
                            mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  *out = NULL;
  mp_sqlite_update *u = mp_xcalloc(1, sizeof(*u));
  u->base.s = base;
  u->s = s;
  u->c = c;
  u->verify = base->verify_writes;
  u->label = mp__store_label(st);
  int rc = mp__stack_id(s, st, &u->stack_id, err);
  if (rc == 0)
    rc = mp__tx_begin(s, err);
  if (rc == 0) {
    rc = begin_tx(s, u, kind, message, stale, err);
    if (rc == 0)
      rc = mp__tx_commit(s, err);
    else
      mp__tx_rollback(s);
  }
  if (rc < 0) {
    if (stale)
      memset(stale, 0, sizeof(*stale));
    free(u->label);
    free(u);
    return rc;
  }
  u->next = s->updates;
  s->updates = u;
  *out = &u->base;
  return 0;
}

/* ==== apply ==== */

/* Fails unless this process still holds the stack's lock (`cancel` may
 * have broken it, and then another writer may be at work). */
static int check_still_locked(mp_sqlite_update *u, mp_err *err) {
  mp_sqlite *s = u->s;
  sqlite3_stmt *q = mp__stmt(s, ST_LOCK_GET, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, u->stack_id);
  int rc = sqlite3_step(q);
  const char *host =
      rc == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 1) : NULL;
  int ours = host && sqlite3_column_int64(q, 0) == s->pid &&
             strcmp(host, s->host) == 0;
  mp__stmt_done(q);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return mp__sql_err(s, "cannot read the stack lock", err);
  if (!ours)
    return mp__store_lock_lost(u->label, err);
  return 0;
}

/* Runs a row-level UPDATE/DELETE and requires that it touched a row. */
static int exec_one_row(mp_sqlite_update *u, sqlite3_stmt *q, int64_t row,
                        const char *what, mp_err *err) {
  if (mp__stmt_exec(u->s, q, what, err) < 0)
    return err->code;
  if (sqlite3_changes(u->s->db) == 0)
    return mp__store_no_row(what, u->label, row, err);
  return 0;
}

/* UPDATE (|ord| NULL: keep the position) or UPDATE_NEW (take *ord). */
static int apply_update(mp_sqlite_update *u, const mp_resource *r,
                        const mp_buf *json, int64_t *ord, mp_err *err) {
  sqlite3_stmt *q =
      mp__stmt(u->s, ord ? ST_RES_UPDATE_NEW : ST_RES_UPDATE, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, u->stack_id);
  sqlite3_bind_int64(q, 2, r->row);
  mp__bind_text(q, 3, r->urn);
  sqlite3_bind_int(q, 4, r->delete_ ? 1 : 0);
  sqlite3_bind_text(q, 5, json->data, (int)json->len, SQLITE_STATIC);
  if (ord)
    sqlite3_bind_int64(q, 6, (*ord)++);
  return exec_one_row(u, q, r->row, "cannot update a resource", err);
}

static int apply_move(mp_sqlite_update *u, int64_t row, int64_t *ord,
                      mp_err *err) {
  sqlite3_stmt *q = mp__stmt(u->s, ST_RES_MOVE, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, u->stack_id);
  sqlite3_bind_int64(q, 2, row);
  sqlite3_bind_int64(q, 3, (*ord)++);
  return exec_one_row(u, q, row, "cannot move a resource", err);
}

static int apply_delete(mp_sqlite_update *u, mp__stmt_id id, int64_t row,
                        const char *what, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(u->s, id, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, u->stack_id);
  sqlite3_bind_int64(q, 2, row);
  return exec_one_row(u, q, row, what, err);
}

/* Applies change |ch| whose resource JSON (if any) is |json|; a new row
 * goes to *row and a new ord is taken from *ord. */
static int apply_one(mp_sqlite_update *u, const mp_store_change *ch,
                     const mp_buf *json, int64_t *ord, int64_t *row,
                     mp_err *err) {
  switch (ch->kind) {
  case MP_STORE_INSERT_NEW:
    return mp__row_insert_resource(u->s, u->stack_id, (*ord)++, ch->res, json,
                                   row, err);
  case MP_STORE_UPDATE:
    return apply_update(u, ch->res, json, NULL, err);
  case MP_STORE_UPDATE_NEW:
    return apply_update(u, ch->res, json, ord, err);
  case MP_STORE_MOVE_NEW:
  case MP_STORE_MOVE_LAZY: /* made eager by mp__store_apply */
    return apply_move(u, ch->row, ord, err);
  case MP_STORE_DELETE:
    return apply_delete(u, ST_RES_DELETE, ch->row, "cannot delete a resource",
                        err);
  case MP_STORE_PENDING_ADD:
    return mp__row_insert_pending(u->s, u->stack_id, ch->type, json, row, err);
  case MP_STORE_PENDING_REMOVE:
    return apply_delete(u, ST_PENDING_DELETE, ch->row,
                        "cannot remove a pending operation", err);
  case MP_STORE_EXTENSION:
    return mp__row_insert_extension(u->s, u->stack_id, ch->ext->ref, json,
                                    err);
  }
  return mp_err_set(err, MP_EINVAL, "unknown store change kind %d",
                    (int)ch->kind);
}

int mp__sqlite_write(mp_store_update *base, const mp_store_change *ch, size_t n,
                     const mp_buf *json, int64_t *ord, int64_t *rows,
                     mp_err *err) {
  mp_sqlite_update *u = mp__sqlite_update(base);
  if (mp__tx_begin(u->s, err) < 0 || check_still_locked(u, err) < 0)
    return err->code;
  for (size_t i = 0; i < n; i++)
    if (apply_one(u, &ch[i], &json[i], ord, &rows[i], err) < 0)
      return err->code;
  return 0;
}

int mp__sqlite_apply(mp_store_update *base, const mp_store_change *changes,
                     size_t n, mp_err *err) {
  mp_sqlite_update *u = mp__sqlite_update(base);
  int rc = mp__store_apply(&mp__sqlite_db, base, u->c, &u->next_ord, changes, n,
                           err);
  if (rc == 0 && n > 0 && u->verify)
    rc = mp__store_verify_stored(&mp__sqlite_db, base->s, u->stack_id, u->label,
                                 err);
  return rc;
}

int mp__sqlite_drop_old_pending(mp_store_update *base, mp_err *err) {
  mp_sqlite_update *u = mp__sqlite_update(base);
  sqlite3_stmt *q = mp__stmt(u->s, ST_PENDING_DROP_OLD, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, u->stack_id);
  sqlite3_bind_int64(q, 2, u->pending_high);
  return mp__stmt_exec(u->s, q, "cannot drop old pending operations", err);
}

/* ==== end ==== */

static void unlink_update(mp_sqlite_update *u) {
  for (mp_sqlite_update **p = &u->s->updates; *p; p = &(*p)->next) {
    if (*p == u) {
      *p = u->next;
      return;
    }
  }
}

int mp__sqlite_update_end(mp_store_update *base, const char *result,
                          const mp_update_counts *counts, mp_err *err) {
  mp_sqlite_update *u = mp__sqlite_update(base);
  mp_sqlite *s = u->s;
  int rc = mp__tx_begin(s, err);
  if (rc == 0) {
    rc = mp__history_end(s, u->stack_id, u->seq, result, counts, &u->base,
                         err);
    if (rc == 0)
      rc = mp__lock_release(s, u->stack_id, err);
    if (rc == 0)
      rc = mp__tx_commit(s, err);
    else
      mp__tx_rollback(s);
  }
  if (rc < 0) {
    mp_err ignored; /* the lock must not outlive us even if history fails */
    mp__lock_release(s, u->stack_id, &ignored);
  }
  unlink_update(u);
  free(u->base.lazy);
  free(u->label);
  free(u);
  return rc;
}
