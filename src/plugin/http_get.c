/* HTTP GETs with Pulumi's retries, proxy and certificates
 * (plugin/http_get.h), with libcurl. */
#include "plugin/http_get.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

void mp_http_init(void) { pthread_once(&once, global_init); }

void mp_http_setopts(CURL *c, const mp_http_opts *o, const char *url) {
  curl_easy_setopt(c, CURLOPT_URL, url);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, (long)MP_HTTP_MAX_REDIRECTS);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
  /* A server that answers and then sends nothing would hold the command
   * for ever: less than a byte a second over the stall limit ends it. */
  long stall = o && o->stall_seconds > 0 ? o->stall_seconds
                                         : MP_HTTP_STALL_SECONDS;
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, stall);
  if (o && o->ca_file && *o->ca_file) {
    curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file);
    curl_easy_setopt(c, CURLOPT_PROXY_CAINFO, o->ca_file);
  }
  if (o && o->ca_dir && *o->ca_dir) {
    curl_easy_setopt(c, CURLOPT_CAPATH, o->ca_dir);
    curl_easy_setopt(c, CURLOPT_PROXY_CAPATH, o->ca_dir);
  }
  int https = strncmp(url, "https:", 6) == 0;
  const char *proxy = o ? (https ? o->https_proxy : o->http_proxy) : NULL;
  /* "" keeps libcurl from reading the environment itself. */
  curl_easy_setopt(c, CURLOPT_PROXY, proxy ? proxy : "");
  if (proxy && *proxy) {
    /* Go never sends localhost or a loopback address to a proxy. */
    const char *own = o->no_proxy && *o->no_proxy ? o->no_proxy : NULL;
    char *skip = mp_xasprintf("localhost,127.0.0.0/8,::1%s%s", own ? "," : "",
                              own ? own : "");
    curl_easy_setopt(c, CURLOPT_NOPROXY, skip);
    free(skip); /* libcurl copies string options */
  }
}

static size_t on_data(char *p, size_t size, size_t n, void *ud) {
  mp_buf_append(ud, p, size * n);
  return size * n;
}

int mp_http_get(const mp_http_opts *o, const char *url, mp_buf *body,
                mp_err *err) {
  mp_http_init();
  long delay_ms = 100;
  for (int attempt = 1;; attempt++) {
    CURL *c = curl_easy_init();
    if (c == NULL) return mp_err_set(err, MP_EIO, "cannot start libcurl");
    char errbuf[CURL_ERROR_SIZE];
    errbuf[0] = '\0';
    mp_buf_reset(body);
    mp_http_setopts(c, o, url);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "Go-http-client/1.1");
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, body);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    CURLcode r = curl_easy_perform(c);
    long code = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    curl_easy_cleanup(c);
    int again = r != CURLE_OK || code == 429 || (code >= 500 && code <= 599);
    if (!again || (attempt == 5 && r == CURLE_OK)) return 0;
    if (attempt == 5)
      return mp_err_set(err, MP_EIO, "Get \"%s\": %s", url,
                        errbuf[0] ? errbuf : curl_easy_strerror(r));
    struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    delay_ms = delay_ms * 3 / 2;
    if (delay_ms > 5000) delay_ms = 5000;
  }
}

int mp_http_fetch_asset(void *ud, const char *url, mp_buf *body,
                        mp_err *err) {
  return mp_http_get(ud, url, body, err);
}
