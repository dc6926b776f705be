/* Each event of an update is kept with it in the store as it is emitted
 * (the console's update page and timeline read them, live or later). A
 * store that fails to keep one is warned about once, and the update goes
 * on without keeping more: the events are a record, not the state.
 * Loop thread. */
#include <stdlib.h>

#include "deploy/deploy_int.h"

void mp__deploy_record(deploy *d, const mp_event *ev, int64_t time_ms) {
  if (d->upd == NULL || d->o->event_text == NULL || d->events_lost) return;
  char *text = d->o->event_text(ev);
  if (text == NULL) return;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_store_update_event(d->upd, (int64_t)ev->sequence, time_ms, text,
                                 &err);
  free(text);
  if (rc == 0) return;
  d->events_lost = 1; /* before the warning, which is an event too */
  char *msg = mp_xasprintf("the update's events are no longer kept (the "
                           "console shows it without its later steps): %s",
                           err.msg);
  mp__deploy_diag(d, "warning", NULL, msg);
  free(msg);
}
