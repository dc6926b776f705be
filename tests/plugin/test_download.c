/* Plugin downloads (plugin/download.c) against a small HTTP server on
 * 127.0.0.1 that this test runs on a thread of its own: the URL a source
 * gives, a tarball fetched whole, a 404 and a 500 (not tried again), a
 * body cut short and a connection closed before any answer (tried again,
 * five attempts in all), a redirect followed and a redirect loop refused,
 * a server that stalls, a cancelled download, a checksum that does not
 * match, and the overrides. End to end, with the CLI, these are in
 * tests/plugin_processes/t0700-download.sh and
 * tests/cli/t0616-plugin-download-limits.sh. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/semver.h"
#include "plugin/download.h"
#include "testutil.h"

#define BODY "not really a tarball, but bytes all the same\n"

/* ---- the server ---- */

typedef struct server {
  int fd;
  int port;
  pthread_t thread;
  pthread_mutex_t mu;
  int stop;
  int hits[8]; /* requests per route, by route index */
} server;

static server srv;

enum {
  ROUTE_OK,
  ROUTE_MISSING,
  ROUTE_ERROR,
  ROUTE_TRUNC,
  ROUTE_REDIR,
  ROUTE_LOOP,
  ROUTE_FLAKY,
  ROUTE_STALL
};
static const char *const routes[] = {"/ok/",    "/missing/", "/error/",
                                     "/trunc/", "/redir/",   "/loop/",
                                     "/flaky/", "/stall/"};

static int hits(int route) {
  pthread_mutex_lock(&srv.mu);
  int n = srv.hits[route];
  pthread_mutex_unlock(&srv.mu);
  return n;
}

static void reset_hits(void) {
  pthread_mutex_lock(&srv.mu);
  memset(srv.hits, 0, sizeof(srv.hits));
  pthread_mutex_unlock(&srv.mu);
}

static void say(int fd, const char *text) {
  (void)!send(fd, text, strlen(text), MSG_NOSIGNAL);
}

static void answer(int fd) {
  char req[4096] = "";
  size_t len = 0;
  while (len < sizeof(req) - 1 && !strstr(req, "\r\n\r\n")) {
    ssize_t n = recv(fd, req + len, sizeof(req) - 1 - len, 0);
    if (n <= 0)
      return;
    len += (size_t)n;
    req[len] = '\0';
  }
  char path[1024] = "";
  if (sscanf(req, "GET %1023s ", path) != 1)
    return;
  int route = -1;
  for (int i = 0; i < 8 && route < 0; i++)
    if (strncmp(path, routes[i], strlen(routes[i])) == 0)
      route = i;
  pthread_mutex_lock(&srv.mu);
  int nth = route >= 0 ? ++srv.hits[route] : 0;
  pthread_mutex_unlock(&srv.mu);
  char head[2048];
  const char *file = strrchr(path, '/') + 1;
  switch (route) {
  case ROUTE_OK:
    snprintf(head, sizeof(head),
             "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close"
             "\r\n\r\n%s",
             strlen(BODY), BODY);
    say(fd, head);
    break;
  case ROUTE_ERROR:
    say(fd, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n"
            "Connection: close\r\n\r\noops");
    break;
  case ROUTE_TRUNC:
    /* promises 1000 bytes, sends 10, hangs up */
    say(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close"
            "\r\n\r\n0123456789");
    break;
  case ROUTE_REDIR:
    snprintf(head, sizeof(head),
             "HTTP/1.1 302 Found\r\nLocation: /ok/%s\r\nContent-Length: 0\r\n"
             "Connection: close\r\n\r\n",
             file);
    say(fd, head);
    break;
  case ROUTE_LOOP:
    snprintf(head, sizeof(head),
             "HTTP/1.1 302 Found\r\nLocation: %s\r\nContent-Length: 0\r\n"
             "Connection: close\r\n\r\n",
             path);
    say(fd, head);
    break;
  case ROUTE_FLAKY:
    /* the first two connections end before any answer */
    if (nth > 2) {
      snprintf(head, sizeof(head),
               "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close"
               "\r\n\r\n%s",
               strlen(BODY), BODY);
      say(fd, head);
    }
    break;
  case ROUTE_STALL:
    /* an answer begun, then nothing for 8 s or until the client hangs
     * up */
    say(fd, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close"
            "\r\n\r\n");
    for (int i = 0; i < 80; i++) {
      struct pollfd p = {fd, POLLIN, 0};
      char c;
      if (poll(&p, 1, 100) > 0 && recv(fd, &c, 1, 0) <= 0)
        break;
    }
    break;
  default:
    say(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n"
            "Connection: close\r\n\r\nnot found");
    break;
  }
}

static void *serve(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&srv.mu);
    int stop = srv.stop;
    pthread_mutex_unlock(&srv.mu);
    if (stop)
      return NULL;
    struct pollfd p = {srv.fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0)
      continue;
    int c = accept(srv.fd, NULL, NULL);
    if (c < 0)
      continue;
    answer(c);
    close(c);
  }
}

static void server_start(void) {
  pthread_mutex_init(&srv.mu, NULL);
  srv.fd = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(srv.fd >= 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  CHECK(bind(srv.fd, (struct sockaddr *)&a, sizeof(a)) == 0);
  CHECK(listen(srv.fd, 16) == 0);
  socklen_t alen = sizeof(a);
  CHECK(getsockname(srv.fd, (struct sockaddr *)&a, &alen) == 0);
  srv.port = ntohs(a.sin_port);
  CHECK(pthread_create(&srv.thread, NULL, serve, NULL) == 0);
}

static void server_stop(void) {
  pthread_mutex_lock(&srv.mu);
  srv.stop = 1;
  pthread_mutex_unlock(&srv.mu);
  pthread_join(srv.thread, NULL);
  close(srv.fd);
  pthread_mutex_destroy(&srv.mu);
}

/* ---- the tests ---- */

static char dir[64];
static mp_semver v123;

static char *url_of(const char *route) {
  return mp_xasprintf("http://127.0.0.1:%d%s", srv.port, route);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  char buf[4096];
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  return mp_xstrdup(buf);
}

/* Downloads foo 1.2.3 from the server's |route|; returns the rc. */
static int download(const char *route, mp_plugin_download_opts *o,
                    mp_err *err) {
  char *server = url_of(route);
  char *dest = mp_xasprintf("%s/foo.tar.gz", dir);
  o->server = server;
  int rc = mp_plugin_download("resource", "foo", &v123, o, dest, err);
  o->server = NULL;
  free(dest);
  free(server);
  return rc;
}

static char *downloaded(void) {
  char *dest = mp_xasprintf("%s/foo.tar.gz", dir);
  char *s = slurp(dest);
  free(dest);
  return s;
}

static void test_download_source_url(void) {
  mp_plugin_download_opts o = {0};
  o.server = "https://example.test/${NAME}/v${VERSION}/${OS}-${ARCH}/";
  char *url = NULL;
  mp_err err;
  CHECK(mp_plugin_download_source("resource", "foo", &v123, &o, &url, &err) ==
        0);
  char *want = mp_xasprintf(
      "https://example.test/foo/v1.2.3/%s-%s/pulumi-resource-foo-v1.2.3-%s-%s"
      ".tar.gz",
      mp_plugin_platform_os(), mp_plugin_platform_arch(),
      mp_plugin_platform_os(), mp_plugin_platform_arch());
  CHECK_STR(url, want);
  free(want);
  free(url);
  /* no server: Pulumi's default, the GitHub release */
  o.server = NULL;
  CHECK(mp_plugin_download_source("resource", "foo", &v123, &o, &url, &err) ==
        0);
  CHECK_STR(url, "github://api.github.com/pulumi/pulumi-foo");
  free(url);
  /* an override list that is not "regexp=URL,..." */
  o.overrides = "no-equals-sign";
  CHECK(mp_plugin_download_source("resource", "foo", &v123, &o, &url, &err) ==
        MP_EINVAL);
  CHECK_CONTAINS(err.msg, "error parsing `pluginDownloadURLOverrides`");
  CHECK(url == NULL);
  /* an unknown scheme */
  mp_plugin_download_opts u = {0};
  u.server = "ftp://example.test/x";
  char *dest = mp_xasprintf("%s/never.tar.gz", dir);
  CHECK(mp_plugin_download("resource", "foo", &v123, &u, dest, &err) ==
        MP_EINVAL);
  CHECK_STR(err.msg, "unknown plugin source scheme: ftp");
  free(dest);
}

static void test_download_ok(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  mp_err err;
  CHECK(download("/ok/", &o, &err) == 0);
  char *got = downloaded();
  CHECK_STR(got, BODY);
  free(got);
  CHECK(hits(ROUTE_OK) == 1);
}

static void test_download_404_and_500_not_retried(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  mp_err err;
  CHECK(download("/missing/", &o, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg,
                 "404 HTTP error fetching plugin from http://127.0.0.1:");
  CHECK_CONTAINS(err.msg, "/missing/pulumi-resource-foo-v1.2.3-");
  CHECK(hits(ROUTE_MISSING) == 1);
  CHECK(download("/error/", &o, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "500 HTTP error fetching plugin from");
  CHECK(hits(ROUTE_ERROR) == 1);
}

static void test_download_truncated_body_retried(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  mp_err err;
  CHECK(download("/trunc/", &o, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "failed all 5 attempts: http://127.0.0.1:");
  CHECK(hits(ROUTE_TRUNC) == 5);
}

static void test_download_transport_failure_then_ok(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  mp_err err;
  CHECK(download("/flaky/", &o, &err) == 0);
  CHECK(hits(ROUTE_FLAKY) == 3);
  /* the file holds the last attempt's bytes only */
  char *got = downloaded();
  CHECK_STR(got, BODY);
  free(got);
}

static void test_download_redirects(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  mp_err err;
  CHECK(download("/redir/", &o, &err) == 0);
  CHECK(hits(ROUTE_REDIR) == 1 && hits(ROUTE_OK) == 1);
  char *got = downloaded();
  CHECK_STR(got, BODY);
  free(got);
  /* a loop: Go's client gives up at the 11th redirect, and so do we,
   * without trying again */
  CHECK(download("/loop/", &o, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "/loop/pulumi-resource-foo-v1.2.3-");
  CHECK(strstr(err.msg, "attempts") == NULL);
  CHECK(hits(ROUTE_LOOP) == MP_HTTP_MAX_REDIRECTS + 1);
}

static void test_download_stall_and_cancel(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  o.http.stall_seconds = 1;
  mp_err err;
  CHECK(download("/stall/", &o, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "Operation too slow");
  CHECK(strstr(err.msg, "attempts") == NULL); /* not tried again */
  CHECK(hits(ROUTE_STALL) == 1);
  /* cancelled: ends within a second, MP_ECANCELED, no other attempt */
  volatile sig_atomic_t cancel = 1;
  mp_plugin_download_opts c = {0};
  c.cancel = &cancel;
  CHECK(download("/stall/", &c, &err) == MP_ECANCELED);
  CHECK_CONTAINS(err.msg, "was cancelled");
  CHECK(hits(ROUTE_STALL) <= 2);
}

static void test_download_checksum(void) {
  mp_plugin_download_opts o = {0};
  o.checksum = "00";
  mp_err err;
  CHECK(download("/ok/", &o, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid checksum, expected 00, actual ");
  /* the right one, in capitals, passes */
  char *cmd = mp_xasprintf("sha256sum '%s/foo.tar.gz' | cut -c1-64 | "
                           "tr a-f A-F > '%s/sum'",
                           dir, dir);
  CHECK(system(cmd) == 0);
  free(cmd);
  char *sumfile = mp_xasprintf("%s/sum", dir);
  char *sum = slurp(sumfile);
  free(sumfile);
  if (sum == NULL)
    return;
  sum[strcspn(sum, "\n")] = '\0';
  o.checksum = sum;
  CHECK(download("/ok/", &o, &err) == 0);
  free(sum);
}

static void test_download_override_replaces_default(void) {
  reset_hits();
  mp_plugin_download_opts o = {0};
  char *over = mp_xasprintf(
      "^github://api\\.github\\.com/pulumi/pulumi-(?P<pkg>[a-z]+)$="
      "http://127.0.0.1:%d/ok/${pkg}",
      srv.port);
  o.overrides = over;
  char *dest = mp_xasprintf("%s/foo.tar.gz", dir);
  mp_err err;
  CHECK(mp_plugin_download("resource", "foo", &v123, &o, dest, &err) == 0);
  CHECK(hits(ROUTE_OK) == 1);
  char *url = NULL;
  CHECK(mp_plugin_download_source("resource", "foo", &v123, &o, &url, &err) ==
        0);
  CHECK_CONTAINS(url, "/ok/foo/pulumi-resource-foo-v1.2.3-");
  free(url);
  /* an http source has no latest version */
  mp_semver latest;
  CHECK(mp_plugin_latest_version("resource", "foo", &o, &latest, &err) ==
        MP_EINVAL);
  CHECK_STR(err.msg,
            "GetLatestVersion is not supported for plugins from http sources");
  free(dest);
  free(over);
}

int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/mp-test-download-XXXXXX");
  CHECK(mkdtemp(dir) != NULL);
  mp_err err;
  CHECK(mp_semver_parse("1.2.3", &v123, &err) == 0);
  server_start();
  RUN(test_download_source_url);
  RUN(test_download_ok);
  RUN(test_download_404_and_500_not_retried);
  RUN(test_download_truncated_body_retried);
  RUN(test_download_transport_failure_then_ok);
  RUN(test_download_redirects);
  RUN(test_download_stall_and_cancel);
  RUN(test_download_checksum);
  RUN(test_download_override_replaces_default);
  server_stop();
  char *cmd = mp_xasprintf("rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  free(cmd);
  return mp_test_summary();
}
