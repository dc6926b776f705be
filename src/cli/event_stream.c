#include "cli/event_stream.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "cli/json_out.h"
#include "lang/nodejs.h"
#include "pulumi/events.pb-c.h"
#include "rpc/client.h"

struct mp_event_stream {
  int port;
  uv_thread_t thread;
  uv_loop_t loop;
  uv_async_t wake;
  uv_mutex_t mu;   /* guards |pending|, |closing|, |abort| and |done| */
  uv_cond_t ended; /* signalled when |done| is set */
  mp_buf pending;  /* JSON lines not yet handed to the call */
  int closing;     /* the operation is over: end the stream */
  int abort;       /* give up: drop the connection and what is unsent */
  int done;        /* the stream's thread has finished its loop */
  /* The stream's thread only, until it has ended: */
  mp_rpc_client *client;
  mp_rpc_call *call; /* NULL once its callback has run */
  int finishing;
  int rc;
  mp_err err;
};

int mp_event_stream_is_tcp(const char *target) {
  return target && strncmp(target, "tcp://", 6) == 0;
}

/* ---- the stream's thread ---- */

static void send_line(mp_rpc_call *call, const char *line, size_t n) {
  char *event = mp_xstrndup(line, n);
  Pulumirpc__EventRequest req = PULUMIRPC__EVENT_REQUEST__INIT;
  req.event = event;
  size_t sz = pulumirpc__event_request__get_packed_size(&req);
  uint8_t *msg = mp_xmalloc(sz ? sz : 1);
  pulumirpc__event_request__pack(&req, msg);
  mp_rpc_call_send(call, msg, sz);
  free(msg);
  free(event);
}

static void on_wake_closed(uv_handle_t *h) { (void)h; }

static void on_client_closed(void *arg) {
  mp_event_stream *s = arg;
  uv_close((uv_handle_t *)&s->wake, on_wake_closed);
}

/* Once the operation is over and the call has its answer, the client and
 * the wake-up go, and with them the thread's loop. */
static void maybe_finish(mp_event_stream *s, int closing) {
  if (!closing || s->call || s->finishing) return;
  s->finishing = 1;
  if (s->client)
    mp_rpc_client_close(s->client, on_client_closed, s);
  else
    on_client_closed(s);
}

static void on_answer(int rc, mp_rpc_reply *reply, const mp_err *err,
                      void *arg) {
  (void)reply;
  mp_event_stream *s = arg;
  s->call = NULL;
  s->rc = rc;
  if (rc < 0) s->err = *err;
  uv_mutex_lock(&s->mu);
  int closing = s->closing;
  uv_mutex_unlock(&s->mu);
  maybe_finish(s, closing);
}

/* Hands every queued event to the call, in order; ends the stream once
 * the operation is over. Told to give up (a server that does not read,
 * an interrupt), drops the connection, which ends the call. */
static void on_wake(uv_async_t *h) {
  mp_event_stream *s = mp_container_of(h, mp_event_stream, wake);
  mp_buf lines;
  uv_mutex_lock(&s->mu);
  lines = s->pending;
  mp_buf_init(&s->pending);
  int closing = s->closing, abort = s->abort;
  uv_mutex_unlock(&s->mu);
  if (abort) {
    mp_buf_destroy(&lines);
    if (!s->finishing) {
      s->finishing = 1;
      if (s->client)
        mp_rpc_client_close(s->client, on_client_closed, s);
      else
        on_client_closed(s);
    }
    return;
  }
  for (size_t i = 0; s->call && i < lines.len;) {
    const char *nl = memchr(lines.data + i, '\n', lines.len - i);
    size_t n = (size_t)(nl - (lines.data + i));
    send_line(s->call, lines.data + i, n);
    i += n + 1;
  }
  mp_buf_destroy(&lines);
  if (closing && s->call) mp_rpc_call_close_send(s->call);
  maybe_finish(s, closing);
}

static void stream_main(void *arg) {
  mp_event_stream *s = arg;
  int rc = mp_rpc_client_new(&s->loop, "engine events (--event-log)", s->port,
                             0, &s->client, &s->err);
  mp_rpc_call_opts o = {.open = 1};
  if (rc == 0)
    rc = mp_rpc_call_start(s->client, "/pulumirpc.Events/StreamEvents", NULL,
                           0, &o, on_answer, s, &s->call, &s->err);
  if (rc < 0) s->rc = rc;
  /* Events may have come before the loop ran. */
  uv_async_send(&s->wake);
  uv_run(&s->loop, UV_RUN_DEFAULT);
  uv_mutex_lock(&s->mu);
  s->done = 1;
  uv_cond_signal(&s->ended);
  uv_mutex_unlock(&s->mu);
}

/* ---- the operation's side ---- */

int mp_event_stream_open(const char *target, mp_event_stream **out,
                         mp_err *err) {
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
  mp_err_clear(&s->err);
  mp_buf_init(&s->pending);
  rc = uv_loop_init(&s->loop);
  if (rc == 0) {
    rc = uv_async_init(&s->loop, &s->wake, on_wake);
    if (rc < 0) uv_loop_close(&s->loop);
  }
  if (rc == 0) {
    uv_mutex_init(&s->mu);
    uv_cond_init(&s->ended);
    rc = uv_thread_create(&s->thread, stream_main, s);
    if (rc < 0) {
      uv_close((uv_handle_t *)&s->wake, NULL);
      uv_run(&s->loop, UV_RUN_DEFAULT);
      uv_loop_close(&s->loop);
      uv_cond_destroy(&s->ended);
      uv_mutex_destroy(&s->mu);
    }
  }
  if (rc < 0) {
    free(s);
    return mp_err_from_uv(err, rc, "cannot stream the engine events");
  }
  *out = s;
  return 0;
}

void mp_event_stream_send(mp_event_stream *s, const mp_event *ev,
                          unsigned flags) {
  cJSON *j = mp_cli_event_json(ev, flags);
  mp_buf line;
  mp_buf_init(&line);
  mp_cli_cjson_print(j, 0, &line); /* one line: no raw newline */
  cJSON_Delete(j);
  uv_mutex_lock(&s->mu);
  mp_buf_append(&s->pending, line.data, line.len);
  mp_buf_putc(&s->pending, '\n');
  uv_mutex_unlock(&s->mu);
  mp_buf_destroy(&line);
  uv_async_send(&s->wake);
}

/* Waits for the stream's thread to end its loop: at most |timeout_ms|,
 * and no longer once |interrupt| turns on (a signal that came during the
 * wait; one from before it is the operation's). Returns 0, or why it gave
 * up: MP_EIO or MP_ECANCELED. */
static int wait_ended(mp_event_stream *s,
                      const volatile sig_atomic_t *interrupt, int timeout_ms) {
  int was = interrupt && *interrupt;
  uint64_t end = uv_hrtime() + (uint64_t)timeout_ms * 1000000u;
  int why = 0;
  uv_mutex_lock(&s->mu);
  while (!s->done && why == 0) {
    if (interrupt && *interrupt && !was)
      why = MP_ECANCELED;
    else if (uv_hrtime() >= end)
      why = MP_EIO;
    else
      (void)uv_cond_timedwait(&s->ended, &s->mu, 100 * 1000000u);
  }
  uv_mutex_unlock(&s->mu);
  return why;
}

int mp_event_stream_close(mp_event_stream *s,
                          const volatile sig_atomic_t *interrupt,
                          int timeout_ms, mp_err *err) {
  if (s == NULL) return 0;
  /* Woken under the lock: the thread closes |wake| only after it has
   * seen |closing|, so never before this send. */
  uv_mutex_lock(&s->mu);
  s->closing = 1;
  uv_async_send(&s->wake);
  uv_mutex_unlock(&s->mu);
  int gave_up = wait_ended(s, interrupt, timeout_ms);
  if (gave_up) { /* the connection goes; the thread ends promptly */
    uv_mutex_lock(&s->mu);
    s->abort = 1;
    if (!s->done)
      uv_async_send(&s->wake);
    uv_mutex_unlock(&s->mu);
  }
  uv_thread_join(&s->thread);
  uv_loop_close(&s->loop);
  uv_cond_destroy(&s->ended);
  uv_mutex_destroy(&s->mu);
  mp_buf_destroy(&s->pending);
  int rc = s->rc;
  if (gave_up == MP_EIO)
    rc = mp_err_set(err, MP_EIO,
                    "the --event-log server (127.0.0.1:%d) did not take the "
                    "engine events within %d s of the operation's end; "
                    "they were dropped (the operation itself is done)",
                    s->port, timeout_ms / 1000);
  else if (gave_up)
    rc = mp_err_set(err, MP_ECANCELED,
                    "interrupted while sending the engine events to the "
                    "--event-log server (127.0.0.1:%d); the rest were "
                    "dropped (the operation itself is done)",
                    s->port);
  else if (rc < 0)
    *err = s->err;
  free(s);
  return rc;
}
