/* An update's engine events in the PostgreSQL store: the update_events
 * table (migration 0005), one row per event, each its own statement
 * (autocommit: one round trip) as the engine emits it. */
#include "state/pg_int.h"

#include <stdlib.h>

int mp__pg_update_event(mp_store_update *base, int64_t seq, int64_t time_ms,
                        const char *json, mp_err *err) {
  mp_pg_update *u = mp_container_of(base, mp_pg_update, base);
  mp_pg_params p = {0};
  mp__pg_int(&p, u->stack_id);
  mp__pg_int(&p, u->seq);
  mp__pg_int(&p, seq);
  mp__pg_int(&p, time_ms);
  mp__pg_text(&p, json);
  return mp__pg_exec(u->s, PQ_EVENT_INSERT, &p,
                     "cannot record the update's event", NULL, err);
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
