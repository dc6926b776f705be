/* One request to Azure Blob Storage through libcurl, authorized with
 * Shared Key (HMAC-SHA256 of the canonical string that Azure's
 * "Authorize with Shared Key" defines, OpenSSL's HMAC) or carrying a SAS
 * token, and retried as the Azure SDK for Go's retry policy does
 * (azcore/runtime/policy_retry.go): 4 tries in all on 408, 429, 500, 502,
 * 503, 504 and transport failures; the server's Retry-After if it gives
 * one (not retried past 60 s), else (2^try - 1) x 0.8 s with jitter. */
#include "state/az_int.h"
#include "state/blob_util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "engine/crypto.h"

#define AZ_TRIES 4
#define AZ_VERSION "2021-08-06"

char *mp__az_url(const az_conf *c, const char *blob, const char *query) {
  char *eb = blob ? mp__url_encode(blob, 1) : NULL;
  const char *sep = "?";
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_printf(&b, "%s/%s", c->service, c->container);
  if (eb)
    mp_buf_printf(&b, "/%s", eb);
  if (query && *query) {
    mp_buf_printf(&b, "?%s", query);
    sep = "&";
  }
  if (c->sas && *c->sas)
    mp_buf_printf(&b, "%s%s", sep, c->sas);
  free(eb);
  return mp_buf_detach(&b, NULL);
}

/* An HTTP date (RFC 1123) of now, in English whatever the locale. */
static void http_date(char out[40]) {
  static const char *const days[] = {"Sun", "Mon", "Tue", "Wed",
                                     "Thu", "Fri", "Sat"};
  static const char *const months[] = {"Jan", "Feb", "Mar", "Apr",
                                       "May", "Jun", "Jul", "Aug",
                                       "Sep", "Oct", "Nov", "Dec"};
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  snprintf(out, 40, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday],
           tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour,
           tm.tm_min, tm.tm_sec);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The canonicalized resource: /ACCOUNT, the URL's path as sent, then each
 * query parameter, lower-cased and sorted, as "\nname:value" (decoded). */
static void canonical_resource(const az_conf *c, const char *url,
                               mp_buf *out) {
  const char *path = strstr(url, "://");
  path = path ? strchr(path + 3, '/') : NULL;
  if (path == NULL)
    path = "/";
  size_t pl = strcspn(path, "?");
  mp_buf_printf(out, "/%s%.*s", c->key_account, (int)pl, path);
  if (path[pl] != '?')
    return;
  mp_strv params;
  mp_strv_init(&params);
  char *q = mp_xstrdup(path + pl + 1);
  for (char *tok = q, *next; tok && *tok; tok = next) {
    next = strchr(tok, '&');
    if (next)
      *next++ = '\0';
    char *eq = strchr(tok, '=');
    char *k = mp__url_unescape(tok, eq ? (size_t)(eq - tok) : strlen(tok));
    char *v = eq ? mp__url_unescape(eq + 1, strlen(eq + 1)) : mp_xstrdup("");
    for (char *p = k; *p; p++)
      *p = (char)tolower((unsigned char)*p);
    mp_strv_push_take(&params, mp_xasprintf("%s:%s", k, v));
    free(k);
    free(v);
  }
  free(q);
  /* sorted by name ("name:"), each name once (our queries repeat none) */
  qsort(params.items, params.len, sizeof(char *), cmp_str);
  for (size_t i = 0; i < params.len; i++)
    mp_buf_printf(out, "\n%s", params.items[i]);
  mp_strv_destroy(&params);
}

/* "SharedKey ACCOUNT:SIGNATURE" for the request. |xms| holds the x-ms-*
 * headers, "name:value", lower-case and sorted. */
static char *shared_key(const az_conf *c, const char *method,
                        const char *url, size_t len, const char *ctype,
                        const mp_strv *xms) {
  mp_buf s;
  mp_buf_init(&s);
  mp_buf_printf(&s, "%s\n\n\n", method); /* Content-Encoding, -Language */
  if (len > 0)
    mp_buf_printf(&s, "%zu", len);       /* Content-Length ("" for 0) */
  mp_buf_printf(&s, "\n\n%s\n", ctype ? ctype : ""); /* MD5, Type */
  /* Date (x-ms-date is sent), If-Modified-Since, If-Match,
   * If-None-Match, If-Unmodified-Since, Range */
  mp_buf_puts(&s, "\n\n\n\n\n\n");
  for (size_t i = 0; i < xms->len; i++)
    mp_buf_printf(&s, "%s\n", xms->items[i]);
  canonical_resource(c, url, &s);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int maclen = 0;
  HMAC(EVP_sha256(), c->key, (int)c->key_len, (const unsigned char *)s.data,
       s.len, mac, &maclen);
  mp_buf_destroy(&s);
  mp_buf sig;
  mp_buf_init(&sig);
  mp_buf_printf(&sig, "Authorization: SharedKey %s:", c->key_account);
  mp_base64_encode(mac, maclen, &sig);
  return mp_buf_detach(&sig, NULL);
}

static int retryable(CURLcode cc, long status) {
  if (cc != CURLE_OK) /* an answer over the size limit is no accident */
    return cc != CURLE_URL_MALFORMAT && cc != CURLE_UNSUPPORTED_PROTOCOL &&
           cc != CURLE_FILESIZE_EXCEEDED && cc != CURLE_WRITE_ERROR;
  return status == 408 || status == 429 || status == 500 || status == 502 ||
         status == 503 || status == 504;
}

/* The wait before try |try| + 1 (|try| >= 1), in ms: the server's
 * Retry-After, else (2^try - 1) x 800 ms x [0.8, 1.3). -1: do not retry
 * (a Retry-After past 60 s). */
static long delay_ms(int try, long retry_after) {
  if (retry_after > 60)
    return -1;
  if (retry_after > 0)
    return retry_after * 1000;
  unsigned seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)&try ^
                  (unsigned)clock();
  double jitter = 0.8 + (double)(rand_r(&seed) % 500) / 1000.0;
  return (long)((double)((1L << try) - 1) * 800.0 * jitter);
}

int mp__az_request(mp_bucket *b, const char *method, const char *blob,
                   const char *query, const char *data, size_t len,
                   const char *const *headers, mp_bucket_reply *r,
                   mp_err *err) {
  const az_conf *c = az_conf_of(b);
  memset(r, 0, sizeof(*r));
  mp_buf_init(&r->body);
  char *url = mp__az_url(c, blob, query);
  int put = strcmp(method, "PUT") == 0;
  const char *ctype = put ? "application/octet-stream" : NULL;
  CURLcode cc = CURLE_OK;
  char cerr[CURL_ERROR_SIZE];
  int tries = 0;
  /* a request begun after a cancel (recording the end, unlocking) runs */
  int cancellable = !mp__bucket_cancelled(1);
  for (int try = 1;; try++) {
    tries = try;
    if (mp__bucket_cancelled(cancellable)) {
      cc = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    char date[40];
    http_date(date);
    mp_strv xms; /* signed: every x-ms-* header, sorted */
    mp_strv_init(&xms);
    mp_strv_push_take(&xms, mp_xasprintf("x-ms-date:%s", date));
    mp_strv_push(&xms, "x-ms-version:" AZ_VERSION);
    for (size_t i = 0; headers && headers[i]; i++) {
      const char *colon = strchr(headers[i], ':');
      const char *v = colon + 1;
      while (*v == ' ')
        v++;
      mp_strv_push_take(&xms, mp_xasprintf("%.*s:%s",
                                           (int)(colon - headers[i]),
                                           headers[i], v));
    }
    qsort(xms.items, xms.len, sizeof(char *), cmp_str);
    struct curl_slist *hs = NULL;
    for (size_t i = 0; i < xms.len; i++) {
      char *h = mp_xstrdup(xms.items[i]);
      char *colon = strchr(h, ':');
      *colon = '\0';
      char *line = mp_xasprintf("%s: %s", h, colon + 1);
      hs = curl_slist_append(hs, line);
      free(line);
      free(h);
    }
    if (c->key) {
      char *auth = shared_key(c, method, url, put ? len : 0, ctype, &xms);
      hs = curl_slist_append(hs, auth);
      free(auth);
    }
    mp_strv_destroy(&xms);
    hs = curl_slist_append(hs, "Expect:"); /* not signed: no 100-continue */
    CURL *h = mp__bucket_handle(b);
    cc = mp__bucket_perform(b, h, method, url, &hs, data, len, r, cerr,
                            cancellable);
    curl_slist_free_all(hs);
    if (cc == CURLE_ABORTED_BY_CALLBACK || try == AZ_TRIES ||
        !retryable(cc, r->status))
      break;
    long ms = delay_ms(try, r->retry_after);
    if (ms < 0)
      break;
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  int rc = 0;
  if (cc == CURLE_ABORTED_BY_CALLBACK) {
    rc = mp__bucket_say_cancelled(b, "Azure", method, blob, err);
    mp_buf_destroy(&r->body);
  } else if (cc == CURLE_FILESIZE_EXCEEDED || cc == CURLE_WRITE_ERROR) {
    rc = mp_err_set(err, MP_EPROTO,
                    "the answer of Azure for 'azblob://%s/%s' is larger "
                    "than 2 GiB; check the domain",
                    c->container, blob ? blob : "");
    mp_buf_destroy(&r->body);
  } else if (cc != CURLE_OK) {
    rc = mp_err_set(err, MP_EIO,
                    "no answer from Azure for 'azblob://%s/%s' at %s after %d "
                    "attempt%s: %s; check the storage account, the domain "
                    "and that the server is up",
                    c->container, blob ? blob : "", c->service, tries,
                    tries == 1 ? "" : "s",
                    cerr[0] ? cerr : curl_easy_strerror(cc));
    mp_buf_destroy(&r->body);
  }
  free(url);
  return rc;
}
