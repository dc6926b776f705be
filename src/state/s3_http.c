/* One request to S3 through libcurl, signed by libcurl's own SigV4
 * (CURLOPT_AWS_SIGV4) with the x-amz-content-sha256 header S3 wants
 * (SHA-256 from OpenSSL), retried as the AWS SDKs' standard mode does:
 * three attempts in all for throttling, 5xx and lost connections, with
 * exponential backoff and jitter. */
#include "state/blob_util.h"
#include "state/s3_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>
#include <openssl/sha.h>

#define S3_ATTEMPTS 3

static void sha256_hex(const char *data, size_t len, char out[65]) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256((const unsigned char *)data, len, d);
  for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
    snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* The URL of |key| (NULL: the bucket) with |query|. */
static char *url_of(const s3_conf *c, const char *key, const char *query) {
  char *ek = mp__url_encode(key ? key : "", 1);
  char *u;
  if (c->path_style)
    u = mp_xasprintf("%s://%s%s/%s%s%s%s%s", c->scheme, c->host, c->base_path,
                     c->bucket, key ? "/" : "", ek, query ? "?" : "",
                     query ? query : "");
  else
    u = mp_xasprintf("%s://%s.%s%s/%s%s%s", c->scheme, c->bucket, c->host,
                     c->base_path, ek, query ? "?" : "", query ? query : "");
  free(ek);
  return u;
}

static int retryable(CURLcode cc, long status) {
  if (cc != CURLE_OK)
    return cc == CURLE_COULDNT_CONNECT || cc == CURLE_RECV_ERROR ||
           cc == CURLE_SEND_ERROR || cc == CURLE_OPERATION_TIMEDOUT ||
           cc == CURLE_GOT_NOTHING || cc == CURLE_PARTIAL_FILE;
  return status == 429 || status == 500 || status == 502 || status == 503 ||
         status == 504;
}

/* Backoff before attempt |i| (1-based retries): random up to
 * 2^i * 50 ms, as the SDKs' full jitter, capped at 20 s. */
static void backoff(int i) {
  unsigned seed = (unsigned)time(NULL) ^ (unsigned)(uintptr_t)&i;
  long max_ms = 50L << i;
  if (max_ms > 20000)
    max_ms = 20000;
  long ms = 10 + (long)(rand_r(&seed) % (unsigned)max_ms);
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

int mp__s3_request(mp_bucket *b, const char *method, const char *key,
                   const char *query, const char *data, size_t len,
                   const char *const *headers, mp_bucket_reply *r,
                   mp_err *err) {
  const s3_conf *c = s3_conf_of(b);
  memset(r, 0, sizeof(*r));
  mp_buf_init(&r->body);
  char *url = url_of(c, key, query);
  char hash[65];
  sha256_hex(data ? data : "", data ? len : 0, hash);
  char *sigv4 = mp_xasprintf("aws:amz:%s:s3", c->region);
  char *userpwd = mp_xasprintf("%s:%s", c->key_id, c->secret);
  char *h_hash = mp_xasprintf("x-amz-content-sha256: %s", hash);
  char *h_token =
      c->token ? mp_xasprintf("x-amz-security-token: %s", c->token) : NULL;
  CURLcode cc = CURLE_OK;
  char cerr[CURL_ERROR_SIZE];
  /* a request begun after a cancel (recording the end, unlocking) runs */
  int cancellable = !mp__bucket_cancelled(1);
  for (int attempt = 0; attempt < S3_ATTEMPTS; attempt++) {
    if (attempt > 0)
      backoff(attempt);
    if (mp__bucket_cancelled(cancellable)) {
      cc = CURLE_ABORTED_BY_CALLBACK;
      break;
    }
    CURL *h = mp__bucket_handle(b);
    struct curl_slist *hs = NULL;
    hs = curl_slist_append(hs, h_hash);
    if (h_token)
      hs = curl_slist_append(hs, h_token);
    for (size_t i = 0; headers && headers[i]; i++)
      hs = curl_slist_append(hs, headers[i]);
    /* no "Expect:" to switch 100-continue off: libcurl's signer would
     * sign that header, which is then not sent (S3 refuses it) */
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4);
    curl_easy_setopt(h, CURLOPT_USERPWD, userpwd);
    cc = mp__bucket_perform(b, h, method, url, &hs, data, len, r, cerr,
                            cancellable);
    curl_slist_free_all(hs);
    if (!retryable(cc, r->status))
      break;
  }
  int rc = 0;
  if (cc == CURLE_ABORTED_BY_CALLBACK) {
    rc = mp__bucket_say_cancelled(b, "S3", method, key, err);
    mp_buf_destroy(&r->body);
  } else if (cc == CURLE_FILESIZE_EXCEEDED || cc == CURLE_WRITE_ERROR) {
    rc = mp_err_set(err, MP_EPROTO,
                    "the answer of S3 for 's3://%s/%s' is larger than 2 GiB; "
                    "check the endpoint",
                    c->bucket, key ? key : "");
    mp_buf_destroy(&r->body);
  } else if (cc != CURLE_OK) {
    rc = mp_err_set(err, MP_EIO,
                    "no answer from S3 for 's3://%s/%s' at %s://%s after %d "
                    "attempts: %s; check the endpoint and that the server "
                    "is up",
                    c->bucket, key ? key : "", c->scheme, c->host,
                    S3_ATTEMPTS, cerr[0] ? cerr : curl_easy_strerror(cc));
    mp_buf_destroy(&r->body);
  }
  free(h_token);
  free(h_hash);
  free(userpwd);
  free(sigv4);
  free(url);
  return rc;
}
