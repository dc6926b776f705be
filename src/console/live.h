/* Live updates (live.c): /api/stack/PROJECT/STACK/update/N/events is a
 * stream of server-sent events, one `update` event with the update's JSON
 * (model.h, mp_console_update) each time it changes, polled from the store
 * every quarter second, then an `end` event once the update has ended.
 * The stream reads as any reader does: never the stack's lock. */
#ifndef MP_CONSOLE_LIVE_H
#define MP_CONSOLE_LIVE_H

#include <stdint.h>

#include "console/console.h"

typedef struct mp_live mp_live;

/* A stream for |path| if it is an events path (owned, with copies of its
 * parts), else NULL. */
mp_live *mp_live_new(const mp_console_src *src, const char *path);
/* Up to |max| bytes of the stream into |buf|: what changed since the last
 * call, 0 when nothing did (the server then waits before asking again),
 * -1 at its end. Reads the store at most every 250 ms. */
long mp_live_read(mp_live *l, char *buf, size_t max);
void mp_live_free(mp_live *l);

#endif
