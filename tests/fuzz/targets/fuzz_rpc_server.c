/* The gRPC server (rpc/server.h) fed a client's byte stream: the input is
 * what a client sends over one TCP connection, to a server that serves
 * the Engine service (rpc/engine_service.h), nghttp2 with the project's
 * callbacks. The client writes the input, ends its side and reads until
 * the server closes; the server must survive any stream, answer or refuse
 * it, close the connection and free everything. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <uv.h>

#include "fuzz_util.h"
#include "rpc/engine_service.h"
#include "rpc/server.h"

typedef struct client {
  uv_tcp_t tcp;
  uv_connect_t connect;
  uv_write_t write;
  uv_shutdown_t shutdown;
  mp_rpc_server *srv;
  uv_buf_t input;
  char rbuf[65536];
} client;

static void on_log(const mp_rpc_log_entry *e, void *arg) {
  (void)e;
  (void)arg;
}

/* Closes with a reset: a million connections that each left a socket in
 * TIME_WAIT would use up the ephemeral ports. */
static void end(client *c) {
  if (!uv_is_closing((uv_handle_t *)&c->tcp)) {
    uv_os_fd_t fd;
    struct linger now = {1, 0};
    if (uv_fileno((uv_handle_t *)&c->tcp, &fd) == 0)
      (void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof(now));
    uv_close((uv_handle_t *)&c->tcp, NULL);
    mp_rpc_server_close(c->srv, NULL, NULL);
  }
}

static void on_alloc(uv_handle_t *h, size_t n, uv_buf_t *buf) {
  (void)n;
  client *c = h->data;
  *buf = uv_buf_init(c->rbuf, sizeof(c->rbuf));
}

/* The server's answers are read and dropped until it closes. */
static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  (void)buf;
  if (n < 0) end(s->data);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  (void)req;
  (void)status;
}

static void on_write(uv_write_t *req, int status) {
  client *c = req->data;
  if (status < 0) {
    end(c);
    return;
  }
  c->shutdown.data = c;
  if (uv_shutdown(&c->shutdown, (uv_stream_t *)&c->tcp, on_shutdown) < 0)
    end(c);
}

static void on_connect(uv_connect_t *req, int status) {
  client *c = req->data;
  FUZZ_CHECK(status == 0, "cannot connect to the server");
  FUZZ_CHECK(uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0,
             "cannot read");
  c->write.data = c;
  if (uv_write(&c->write, (uv_stream_t *)&c->tcp, &c->input, 1, on_write) < 0)
    end(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uv_loop_t loop;
  mp_rpc_engine_service svc;
  mp_err err;
  int port = 0;
  client *c = mp_xcalloc(1, sizeof(*c));
  FUZZ_CHECK(uv_loop_init(&loop) == 0, "uv_loop_init");
  mp_rpc_engine_service_init(&svc, on_log, NULL);
  /* A small receive limit, so that RESOURCE_EXHAUSTED is reachable. */
  FUZZ_CHECK(mp_rpc_server_new(&loop, 4096, &c->srv, &err) == 0 &&
                 mp_rpc_engine_service_register(&svc, c->srv, &err) == 0 &&
                 mp_rpc_server_listen(c->srv, &port, &err) == 0,
             "cannot start the server");
  struct sockaddr_in addr;
  uv_ip4_addr("127.0.0.1", port, &addr);
  FUZZ_CHECK(uv_tcp_init(&loop, &c->tcp) == 0, "uv_tcp_init");
  c->tcp.data = c;
  c->connect.data = c;
  c->input = uv_buf_init((char *)data, (unsigned)size);
  FUZZ_CHECK(uv_tcp_connect(&c->connect, &c->tcp,
                            (const struct sockaddr *)&addr, on_connect) == 0,
             "uv_tcp_connect");
  uv_run(&loop, UV_RUN_DEFAULT);
  FUZZ_CHECK(uv_loop_close(&loop) == 0, "a handle is left open");
  mp_rpc_engine_service_destroy(&svc);
  free(c);
  return 0;
}
