/* The console's HTTP side, on libmicrohttpd in external polling mode: the
 * calling thread runs the daemon (mp_console_run), so every request is
 * answered on that thread and the store needs no locking. Each request
 * passes three gates before a route sees it: its Host header, its method
 * (GET or HEAD: the console is read-only) and its token. */
#include "console/console.h"

#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "console/guard.h"
#include "console/live.h"
#include "console/routes.h"

/* A live stream's connection (live.h): suspended while its update has
 * nothing new, resumed at each turn of the loop to look again. */
typedef struct stream {
  mp_console *c;
  struct MHD_Connection *conn;
  mp_live *live;
  int suspended;
  struct stream *next;
} stream;

struct mp_console {
  const mp_console_opts *o;
  stream *streams;
  struct MHD_Daemon *d;
  char token[65];
  char cookie[40]; /* the cookie's name: one per port, as cookies are not */
  const char *host;
  unsigned port;
};

/* Headers every answer carries: nothing may frame, sniff or cache it, or
 * leak the token in a Referer; no CORS header, so other origins cannot
 * read it. */
static void common_headers(struct MHD_Response *r, const char *type) {
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "X-Frame-Options", "DENY");
  MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
  MHD_add_response_header(
      r, "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; "
      "img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
      "frame-ancestors 'none'");
}

static enum MHD_Result send_text(struct MHD_Connection *conn, int status,
                                 const char *text) {
  struct MHD_Response *r = MHD_create_response_from_buffer(
      strlen(text), (void *)text, MHD_RESPMEM_MUST_COPY);
  common_headers(r, "text/plain; charset=utf-8");
  if (status == 405)
    MHD_add_response_header(r, "Allow", "GET, HEAD");
  enum MHD_Result ok = MHD_queue_response(conn, (unsigned)status, r);
  MHD_destroy_response(r);
  return ok;
}

static const char *query_arg(void *conn, const char *name) {
  return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

/* 1: the token came in the URL (a cookie is then set); 2: in the cookie or
 * an `Authorization: token|Bearer T` header; 0: missing or wrong. */
static int token_state(const mp_console *c, struct MHD_Connection *conn) {
  if (mp_console_token_equal(c->token, query_arg(conn, "token")))
    return 1;
  const char *cookie =
      MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, c->cookie);
  if (mp_console_token_equal(c->token, cookie))
    return 2;
  const char *auth =
      MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
  if (auth && !strncasecmp(auth, "token ", 6) &&
      mp_console_token_equal(c->token, auth + 6))
    return 2;
  if (auth && !strncasecmp(auth, "bearer ", 7) &&
      mp_console_token_equal(c->token, auth + 7))
    return 2;
  return 0;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  stream *s = cls;
  long n = mp_live_read(s->live, buf, max);
  if (n < 0) return MHD_CONTENT_READER_END_OF_STREAM;
  if (n == 0) { /* nothing new: wait for the loop's next turn */
    MHD_suspend_connection(s->conn);
    s->suspended = 1;
  }
  return (ssize_t)n;
}

static void stream_free(void *cls) {
  stream *s = cls;
  for (stream **p = &s->c->streams; *p; p = &(*p)->next)
    if (*p == s) {
      *p = s->next;
      break;
    }
  mp_live_free(s->live);
  free(s);
}

/* Starts the stream of |live| on |conn| (owns |live|). */
static enum MHD_Result send_stream(mp_console *c, struct MHD_Connection *conn,
                                   mp_live *live) {
  stream *s = mp_xcalloc(1, sizeof(*s));
  s->c = c;
  s->conn = conn;
  s->live = live;
  struct MHD_Response *r = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, 16384, stream_read, s, stream_free);
  if (r == NULL) {
    mp_live_free(live);
    free(s);
    return MHD_NO;
  }
  s->next = c->streams;
  c->streams = s;
  common_headers(r, "text/event-stream; charset=utf-8");
  enum MHD_Result ok = MHD_queue_response(conn, 200, r);
  MHD_destroy_response(r);
  return ok;
}

static void resume_streams(mp_console *c) {
  for (stream *s = c->streams; s; s = s->next)
    if (s->suspended) {
      s->suspended = 0;
      MHD_resume_connection(s->conn);
    }
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls) {
  (void)version;
  (void)upload;
  (void)con_cls;
  mp_console *c = cls;
  if (upload_size)
    *upload_size = 0; /* a body is never read */
  const char *host = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
  if (!mp_console_host_ok(host, c->host, c->port))
    return send_text(conn, 403,
                     "403 Forbidden: this console answers only requests "
                     "addressed to this machine (Host header)\n");
  if (strcmp(method, "GET") && strcmp(method, "HEAD"))
    return send_text(conn, 405,
                     "405 Method Not Allowed: the console is read-only\n");
  int tok = token_state(c, conn);
  if (!tok)
    return send_text(conn, 403,
                     "403 Forbidden: open the URL that `minipulumi console` "
                     "printed (it carries the console's token)\n");
  mp_live *live = mp_live_new(&c->o->src, url);
  if (live) return send_stream(c, conn, live);
  mp_reply rep;
  mp_console_route(&c->o->src, url, query_arg, conn, &rep);
  struct MHD_Response *r =
      MHD_create_response_from_buffer(rep.len, rep.body, MHD_RESPMEM_MUST_FREE);
  common_headers(r, rep.type);
  if (tok == 1) {
    char *set = mp_xasprintf("%s=%s; Path=/; HttpOnly; SameSite=Strict",
                             c->cookie, c->token);
    MHD_add_response_header(r, "Set-Cookie", set);
    free(set);
  }
  enum MHD_Result ok = MHD_queue_response(conn, (unsigned)rep.status, r);
  MHD_destroy_response(r);
  return ok;
}

int mp_console_start(const mp_console_opts *o, mp_console **out, mp_err *err) {
  mp_console *c = mp_xcalloc(1, sizeof(*c));
  c->o = o;
  c->host = o->host ? o->host : "127.0.0.1";
  if (mp_console_token_new(c->token, err)) {
    free(c);
    return err->code;
  }
  struct addrinfo hints, *ai = NULL;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  int gai = getaddrinfo(c->host, NULL, &hints, &ai);
  if (gai != 0) {
    mp_err_set(err, MP_EINVAL,
               "cannot listen on '%s': %s (give --host an "
               "address of this machine, such as 127.0.0.1)",
               c->host, gai_strerror(gai));
    free(c);
    return err->code;
  }
  struct sockaddr_storage sa;
  memset(&sa, 0, sizeof(sa));
  memcpy(&sa, ai->ai_addr, ai->ai_addrlen);
  unsigned flags = MHD_ALLOW_SUSPEND_RESUME;
  if (ai->ai_family == AF_INET6) {
    ((struct sockaddr_in6 *)&sa)->sin6_port = htons((uint16_t)o->port);
    flags |= MHD_USE_IPv6;
  } else {
    ((struct sockaddr_in *)&sa)->sin_port = htons((uint16_t)o->port);
  }
  freeaddrinfo(ai);
  errno = 0;
  c->d = MHD_start_daemon(flags, (uint16_t)o->port, NULL, NULL, on_request, c,
                          MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
                          MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
                          MHD_OPTION_END);
  if (c->d == NULL) {
    mp_err_set(err, MP_EIO, "cannot listen on %s port %u: %s", c->host, o->port,
               errno ? strerror(errno) : "the HTTP server did not start");
    free(c);
    return err->code;
  }
  const union MHD_DaemonInfo *info =
      MHD_get_daemon_info(c->d, MHD_DAEMON_INFO_BIND_PORT);
  c->port = info ? info->port : o->port;
  snprintf(c->cookie, sizeof(c->cookie), "minipulumi-console-%u", c->port);
  *out = c;
  return 0;
}

char *mp_console_url(const mp_console *c, const char *path) {
  int v6 = strchr(c->host, ':') != NULL;
  const char *sep = strchr(path, '?') ? "&" : "?";
  return mp_xasprintf("http://%s%s%s:%u%s%stoken=%s", v6 ? "[" : "", c->host,
                      v6 ? "]" : "", c->port, path, sep, c->token);
}

void mp_console_run(mp_console *c) {
  /* suspended streams look again every quarter second (no sooner: the
   * loop turns at once after each request) */
  struct timespec last = {0, 0}, now;
  while (!*c->o->interrupt) {
    MHD_run_wait(c->d, 250);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((now.tv_sec - last.tv_sec) * 1000 +
            (now.tv_nsec - last.tv_nsec) / 1000000 >= 250) {
      resume_streams(c);
      last = now;
    }
  }
}

void mp_console_free(mp_console *c) {
  if (c == NULL)
    return;
  resume_streams(c); /* a suspended connection must not outlive the daemon */
  MHD_stop_daemon(c->d);
  free(c);
}
