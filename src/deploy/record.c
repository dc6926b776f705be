/* Each event of an update is kept with it in the store (the console's
 * update page and timeline read them, live or later). They wait in
 * d->kept and go to the store together, in one transaction: one per event
 * cost more than the rest of a no-op `up` (20,000 transactions for 10,000
 * resources). A tick of the loop writes what waits, so a live page is at
 * most about 100 ms behind; a killed process loses at most that much of
 * the record, never any state. A store that fails to keep them is warned
 * about once, and the update goes on without keeping more: the events are
 * a record, not the state. Loop thread. */
#include <stdlib.h>

#include "deploy/deploy_int.h"

/* Past this many waiting events they are written without waiting for the
 * tick (a fast no-op emits thousands in 100 ms). */
#define KEPT_BATCH 512

static void drop(kept_events *k) {
  for (size_t i = 0; i < k->len; i++) free(k->items[i].json);
  k->len = 0;
}

void mp__deploy_record_flush(deploy *d) {
  kept_events *k = &d->kept;
  if (k->len == 0 || d->upd == NULL) return;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_store_update_events(d->upd, k->items, k->len, &err);
  drop(k);
  if (rc == 0 || k->stopped) return;
  k->stopped = 1; /* before the warning, which is an event too */
  char *msg = mp_xasprintf("the update's events are no longer kept (the "
                           "console shows it without its later steps): %s",
                           err.msg);
  mp__deploy_diag(d, "warning", NULL, msg);
  free(msg);
}

void mp__deploy_record(deploy *d, const mp_event *ev, int64_t time_ms) {
  kept_events *k = &d->kept;
  if (d->upd == NULL || d->o->event_text == NULL || k->stopped) return;
  char *text = d->o->event_text(ev);
  if (text == NULL) return;
  if (k->len == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 64;
    k->items = mp_xreallocarray(k->items, k->cap, sizeof(*k->items));
  }
  k->items[k->len++] = (mp_update_event){(int64_t)ev->sequence, time_ms, text};
  if (k->len >= KEPT_BATCH) mp__deploy_record_flush(d);
}

void mp__deploy_record_end(deploy *d) {
  mp__deploy_record_flush(d);
  drop(&d->kept); /* the failure's warning, if the last write failed */
  d->kept.stopped = 1;
  free(d->kept.items);
  d->kept.items = NULL;
  d->kept.cap = 0;
}
