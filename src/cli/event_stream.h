/* --event-log tcp://127.0.0.1:PORT: the engine events sent to a
 * pulumirpc.Events server (the Automation API's, above Pulumi 3.205.0)
 * as one StreamEvents call, each event one EventRequest of its JSON. The
 * events are written to a memory stream while the operation runs and go
 * in one call at its end, before the command exits (the API stops its
 * server once the command has exited). */
#ifndef MP_CLI_EVENT_STREAM_H
#define MP_CLI_EVENT_STREAM_H

#include <stdio.h>

#include "engine/err.h"

typedef struct mp_event_stream mp_event_stream;

/* 1 if |target| is a tcp:// address rather than a file. */
int mp_event_stream_is_tcp(const char *target);

/* Opens the stream to |target|: *out, and *events, the FILE the events
 * are written to as JSON lines. Returns 0 or MP_EINVAL (an address that
 * is not 127.0.0.1:PORT or localhost:PORT). */
int mp_event_stream_open(const char *target, mp_event_stream **out,
                         FILE **events, mp_err *err);

/* Sends the events written and frees |s| (its FILE too). Returns 0 or
 * an MP_E code with |err| naming the server. */
int mp_event_stream_close(mp_event_stream *s, mp_err *err);

#endif
