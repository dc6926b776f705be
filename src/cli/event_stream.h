/* --event-log tcp://127.0.0.1:PORT: the engine events streamed to a
 * pulumirpc.Events server (the Automation API's, above Pulumi 3.205.0)
 * as they happen: one StreamEvents call for the whole operation, each
 * event one EventRequest of its JSON, sent when the engine emits it. A
 * thread of its own runs the call, so that the engine never waits for
 * the server; closing ends the stream and waits for the server's answer
 * before the command exits (the API stops its server once the command
 * has exited). */
#ifndef MP_CLI_EVENT_STREAM_H
#define MP_CLI_EVENT_STREAM_H

#include <signal.h>

#include "engine/err.h"
#include "engine/events.h"

typedef struct mp_event_stream mp_event_stream;

/* 1 if |target| is a tcp:// address rather than a file. */
int mp_event_stream_is_tcp(const char *target);

/* Opens the stream to |target| and starts its call. Returns 0 or
 * MP_EINVAL (an address that is not 127.0.0.1:PORT or localhost:PORT);
 * a server that cannot be reached is reported by the close. */
int mp_event_stream_open(const char *target, mp_event_stream **out,
                         mp_err *err);

/* Sends |ev| as its JSON (mp_cli_event_json with |flags|). Any one
 * thread at a time; never waits for the server. */
void mp_event_stream_send(mp_event_stream *s, const mp_event *ev,
                          unsigned flags);

/* Ends the stream, waits for the server's answer and frees |s|. The
 * wait is bounded: after |timeout_ms|, or as soon as |interrupt| (may be
 * NULL) turns on during it, the connection is dropped with what was not
 * sent (MP_EIO, MP_ECANCELED). Returns 0 or an MP_E code with |err|
 * naming the server. */
int mp_event_stream_close(mp_event_stream *s,
                          const volatile sig_atomic_t *interrupt,
                          int timeout_ms, mp_err *err);

#endif
