/* An update's engine events in the SQLite store: the update_events table
 * (migration 0006), one row per event, the events of a batch in one
 * short transaction (WAL, synchronous=NORMAL: as durable as the history's
 * rows; no fsync per batch). */
#include "state/sqlite_int.h"

#include <stdlib.h>

int mp__sqlite_update_events(mp_store_update *base, const mp_update_event *ev,
                             size_t n, mp_err *err) {
  mp_sqlite_update *u = mp_container_of(base, mp_sqlite_update, base);
  mp_sqlite *s = u->s;
  int rc = mp__tx_begin(s, err);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    sqlite3_stmt *q = mp__stmt(s, ST_EVENT_INSERT, err);
    if (q == NULL) {
      rc = err->code;
      break;
    }
    sqlite3_bind_int64(q, 1, u->stack_id);
    sqlite3_bind_int64(q, 2, u->seq);
    sqlite3_bind_int64(q, 3, ev[i].seq);
    sqlite3_bind_int64(q, 4, ev[i].time_ms);
    mp__bind_text(q, 5, ev[i].json);
    rc = mp__stmt_exec(s, q, "cannot record the update's events", err);
  }
  if (rc == 0) rc = mp__tx_commit(s, err);
  if (rc < 0) mp__tx_rollback(s);
  return rc;
}

int mp__sqlite_events(mp_store *base, mp_stack_ref st, int64_t version,
                      mp_update_event **out, size_t *n, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0) return err->code;
  sqlite3_stmt *q = mp__stmt(s, ST_EVENT_LIST, err);
  if (q == NULL) return err->code;
  sqlite3_bind_int64(q, 1, id);
  sqlite3_bind_int64(q, 2, version);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    mp_update_event *e = &(*out)[(*n)++];
    e->seq = sqlite3_column_int64(q, 0);
    e->time_ms = sqlite3_column_int64(q, 1);
    e->json = mp__column_dup(q, 2);
    if (e->json == NULL) e->json = mp_xstrdup("{}");
  }
  mp__stmt_done(q);
  if (rc != SQLITE_DONE) return mp__sql_err(s, "cannot read the events", err);
  return 0;
}
