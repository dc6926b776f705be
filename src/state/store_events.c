/* An update's engine events (store.h): the dispatch to the backends that
 * keep them; a backend without them records nothing and reads none. */
#include "state/store.h"

#include <stdlib.h>

int mp_store_update_events(mp_store_update *u, const mp_update_event *ev,
                           size_t n, mp_err *err) {
  if (n == 0 || u->s->ops->update_events == NULL) return 0;
  return u->s->ops->update_events(u, ev, n, err);
}

int mp_store_events(mp_store *s, mp_stack_ref st, int64_t version,
                    mp_update_event **out, size_t *n, mp_err *err) {
  if (s->ops->events == NULL) return 0;
  return s->ops->events(s, st, version, out, n, err);
}

void mp_update_events_free(mp_update_event *ev, size_t n) {
  for (size_t i = 0; i < n; i++) free(ev[i].json);
  free(ev);
}
