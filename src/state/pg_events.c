/* An update's engine events in the PostgreSQL store: the update_events
 * table (migration 0005), one row per event, the events of a batch sent
 * together in one transaction (libpq's pipeline: two round trips). */
#include "state/pg_int.h"

#include <stdlib.h>

int mp__pg_update_events(mp_store_update *base, const mp_update_event *ev,
                         size_t n, mp_err *err) {
  mp_pg_update *u = mp_container_of(base, mp_pg_update, base);
  mp_pg_stmt *st = mp_xcalloc(n, sizeof(*st));
  mp_pg_stmt **batch = mp_xcalloc(n, sizeof(*batch));
  PGresult **res = mp_xcalloc(n, sizeof(*res));
  for (size_t i = 0; i < n; i++) {
    st[i].id = PQ_EVENT_INSERT;
    st[i].what = "cannot record the update's events";
    mp__pg_int(&st[i].p, u->stack_id);
    mp__pg_int(&st[i].p, u->seq);
    mp__pg_int(&st[i].p, ev[i].seq);
    mp__pg_int(&st[i].p, ev[i].time_ms);
    mp__pg_text(&st[i].p, ev[i].json);
    batch[i] = &st[i];
  }
  int rc = mp__pg_batch(u->s, batch, n, res, err);
  for (size_t i = 0; rc == 0 && i < n; i++) PQclear(res[i]);
  if (rc == 0) rc = mp__pg_tx_commit(u->s, err);
  if (rc < 0) mp__pg_tx_rollback(u->s);
  free(res);
  free(batch);
  free(st);
  return rc;
}

int mp__pg_events(mp_store *base, mp_stack_ref st, int64_t version,
                  mp_update_event **out, size_t *n, mp_err *err) {
  mp_pg *s = mp__pg(base);
  mp_pg_params p;
  if (mp__pg_stack_param(s, st, &p, err) < 0) return err->code;
  mp__pg_int(&p, version);
  PGresult *r = mp__pg_run(s, PQ_EVENT_LIST, &p, "cannot read the events", err);
  if (r == NULL) return err->code;
  int rows = PQntuples(r);
  if (rows > 0)
    *out = mp_xreallocarray(*out, *n + (size_t)rows, sizeof(**out));
  for (int i = 0; i < rows; i++) {
    mp_update_event *e = &(*out)[(*n)++];
    e->seq = mp__pg_int64(r, i, 0);
    e->time_ms = mp__pg_int64(r, i, 1);
    e->json = mp__pg_dup(r, i, 2);
    if (e->json == NULL) e->json = mp_xstrdup("{}");
  }
  PQclear(r);
  return 0;
}
