/* HTTP GETs as Pulumi's Go runtime makes them: through the proxy its
 * environment names (Go's ProxyFromEnvironment: HTTPS_PROXY for https
 * URLs, HTTP_PROXY for http ones, NO_PROXY; never for localhost or a
 * loopback address), trusting the certificates SSL_CERT_FILE and
 * SSL_CERT_DIR name. The engine reads no environment: the CLI fills
 * mp_http_opts, and libcurl is told not to read it either. */
#ifndef MP_PLUGIN_HTTP_GET_H
#define MP_PLUGIN_HTTP_GET_H

#include <curl/curl.h>

#include "engine/err.h"
#include "engine/mem.h"

typedef struct mp_http_opts {
  /* Certificates to trust instead of the system's; NULL: the system's. */
  const char *ca_file, *ca_dir;
  /* Proxies ("host:port" or a URL) and the hosts that bypass them (Go's
   * and curl's "a.example,.b.example,10.0.0.0/8"); NULL or "": none. */
  const char *http_proxy, *https_proxy, *no_proxy;
  /* A transfer that moves no byte for this long fails ("Operation too
   * slow"); 0: MP_HTTP_STALL_SECONDS. */
  long stall_seconds;
} mp_http_opts;

/* The stall limit when none is set, and the redirects a GET follows (as
 * Go's http.Client: the 11th answer that redirects fails the GET). */
#define MP_HTTP_STALL_SECONDS 60
#define MP_HTTP_MAX_REDIRECTS 10

/* libcurl's global set-up, once a process; before any handle. Any
 * thread. */
void mp_http_init(void);

/* Sets |c| for a GET of |url| as every GET here makes it: up to
 * MP_HTTP_MAX_REDIRECTS redirects followed, no signals, 30 s to connect,
 * a failure when no byte moves for the stall limit, the certificates and
 * the proxy of |o| (NULL: no proxy, the system's certificates). */
void mp_http_setopts(CURL *c, const mp_http_opts *o, const char *url);

/* Pulumi's httputil.GetWithRetry as its assets use it (asset.go
 * readURI): five attempts, 100 ms growing by half each time (at most
 * 5 s), again after a transport failure or a 5xx or 429 answer (a
 * Retry-After is not waited for); the
 * body of the answer it ends with, whatever its status (Pulumi hashes
 * what it is given). Fills |body|. 0, or MP_EIO after the last
 * transport failure. Any thread. */
int mp_http_get(const mp_http_opts *o, const char *url, mp_buf *body,
                mp_err *err);

/* mp_http_get as an mp_asset_fetch_fn (engine/asset_hash.h); |ud| is
 * the const mp_http_opts * (or NULL). */
int mp_http_fetch_asset(void *ud, const char *url, mp_buf *body,
                        mp_err *err);

#endif
