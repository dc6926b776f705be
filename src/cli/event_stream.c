#include "cli/event_stream.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "lang/nodejs.h"
#include "pulumi/events.pb-c.h"
#include "rpc/client.h"
#include "rpc/frame.h"

struct mp_event_stream {
  int port;
  FILE *f;
  char *text; /* what |f| wrote: JSON lines */
  size_t len;
};

int mp_event_stream_is_tcp(const char *target) {
  return target && strncmp(target, "tcp://", 6) == 0;
}

int mp_event_stream_open(const char *target, mp_event_stream **out,
                         FILE **events, mp_err *err) {
  int port = 0;
  int rc = mp_nodejs_client_port(target + 6, &port, err);
  if (rc < 0) {
    mp_err_set(err, MP_EINVAL,
               "--event-log '%s': expected a file or tcp://127.0.0.1:PORT",
               target);
    return rc;
  }
  mp_event_stream *s = mp_xcalloc(1, sizeof(*s));
  s->port = port;
  s->f = open_memstream(&s->text, &s->len);
  if (s->f == NULL) {
    free(s);
    return mp_err_set(err, MP_EIO, "--event-log '%s': out of memory", target);
  }
  *out = s;
  *events = s->f;
  return 0;
}

/* Each line of |text| as a framed EventRequest, appended to |b|. */
static void frame_events(const char *text, size_t len, mp_buf *b) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (n) {
      char *line = mp_xstrndup(p, n);
      Pulumirpc__EventRequest req = PULUMIRPC__EVENT_REQUEST__INIT;
      req.event = line;
      size_t sz = pulumirpc__event_request__get_packed_size(&req);
      uint8_t prefix[MP_RPC_PREFIX_LEN];
      mp_rpc_frame_prefix(prefix, sz);
      uint8_t *msg = mp_xmalloc(sz ? sz : 1);
      pulumirpc__event_request__pack(&req, msg);
      mp_buf_append(b, prefix, sizeof(prefix));
      mp_buf_append(b, msg, sz);
      free(msg);
      free(line);
    }
    p += n + 1;
  }
}

typedef struct sent {
  int done, rc;
  mp_err err;
} sent;

static void on_sent(int rc, mp_rpc_reply *reply, const mp_err *err,
                    void *arg) {
  (void)reply;
  sent *r = arg;
  r->done = 1;
  r->rc = rc;
  if (rc < 0) r->err = *err;
}

static void on_client_closed(void *arg) { *(int *)arg = 1; }

int mp_event_stream_close(mp_event_stream *s, mp_err *err) {
  if (s == NULL) return 0;
  fclose(s->f);
  mp_buf body;
  mp_buf_init(&body);
  frame_events(s->text, s->len, &body);
  uv_loop_t loop;
  int rc = uv_loop_init(&loop);
  mp_rpc_client *c = NULL;
  sent r = {0};
  mp_err_clear(&r.err);
  if (rc < 0) {
    rc = mp_err_from_uv(err, rc, "cannot send the engine events");
  } else {
    rc = mp_rpc_client_new(&loop, "engine events (--event-log)", s->port, 0,
                           &c, err);
    mp_rpc_call_opts o = {.framed = 1};
    if (rc == 0)
      rc = mp_rpc_call_start(c, "/pulumirpc.Events/StreamEvents", body.data,
                             body.len, &o, on_sent, &r, NULL, err);
    while (rc == 0 && !r.done) uv_run(&loop, UV_RUN_ONCE);
    if (rc == 0 && r.rc < 0) {
      rc = r.rc;
      *err = r.err;
    }
    int closed = c == NULL;
    if (c) mp_rpc_client_close(c, on_client_closed, &closed);
    while (!closed) uv_run(&loop, UV_RUN_ONCE);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
  }
  mp_buf_destroy(&body);
  free(s->text);
  free(s);
  return rc;
}
