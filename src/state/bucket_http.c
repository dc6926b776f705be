/* What every bucket service's requests share (bucket_int.h): one try
 * through libcurl, the headers read from its answer, an <Error> body, and
 * the head of a bucket URL. Signing and retrying stay with each service
 * (s3_http.c, az_http.c). */
#include "state/blob_util.h"
#include "state/bucket_int.h"
#include "state/store.h"
#include "state/store_int.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

static size_t on_header(char *p, size_t size, size_t n, void *ud) {
  mp_bucket_reply *r = ud;
  size_t len = size * n;
  mp__http_header(p, len, "ETag", r->etag, sizeof(r->etag));
  mp__http_header(p, len, "Last-Modified", r->last_modified,
                  sizeof(r->last_modified));
  mp__http_header(p, len, "x-ms-error-code", r->error_code,
                  sizeof(r->error_code));
  mp__http_header(p, len, "x-ms-copy-status", r->copy_status,
                  sizeof(r->copy_status));
  char v[32] = "";
  mp__http_header(p, len, "Retry-After", v, sizeof(v));
  if (*v && isdigit((unsigned char)*v))
    r->retry_after = strtol(v, NULL, 10);
  return len;
}

static void share_lock(CURL *h, curl_lock_data data, curl_lock_access how,
                       void *ud) {
  (void)h;
  (void)how;
  pthread_mutex_lock(&((mp_bucket *)ud)->share_mu[data]);
}

static void share_unlock(CURL *h, curl_lock_data data, void *ud) {
  (void)h;
  pthread_mutex_unlock(&((mp_bucket *)ud)->share_mu[data]);
}

void mp__bucket_share_open(mp_bucket *b) {
  mp__http_init();
  for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
    pthread_mutex_init(&b->share_mu[i], NULL);
  b->share = curl_share_init();
  if (b->share == NULL)
    MP_BUG("curl_share_init failed");
  curl_share_setopt(b->share, CURLSHOPT_LOCKFUNC, share_lock);
  curl_share_setopt(b->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
  curl_share_setopt(b->share, CURLSHOPT_USERDATA, b);
  curl_share_setopt(b->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  curl_share_setopt(b->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
}

void mp__bucket_share_close(mp_bucket *b) {
  curl_share_cleanup(b->share); /* closes the kept connections */
  b->share = NULL;
  for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
    pthread_mutex_destroy(&b->share_mu[i]);
}

CURL *mp__bucket_handle(mp_bucket *b) {
  CURL *h = curl_easy_init();
  if (h == NULL)
    MP_BUG("curl_easy_init failed");
  curl_easy_setopt(h, CURLOPT_SHARE, b->share);
  return h;
}

int mp__bucket_stall_seconds(long *out, mp_err *err) {
  *out = MP_BUCKET_STALL_SECONDS;
  const char *v = mp__store_env("MINIPULUMI_BUCKET_STALL_SECONDS");
  if (v == NULL)
    return 0;
  char *end = NULL;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (!isdigit((unsigned char)*v) || *end || errno || n <= 0 || n > 86400)
    return mp_err_set(err, MP_EINVAL,
                      "MINIPULUMI_BUCKET_STALL_SECONDS must be a whole number "
                      "of seconds from 1 to 86400, not '%s'",
                      v);
  *out = n;
  return 0;
}

int mp__bucket_cancelled(int cancellable) {
  return cancellable && mp__store_cancelled();
}

int mp__bucket_say_cancelled(const mp_bucket *b, const char *service,
                             const char *method, const char *key,
                             mp_err *err) {
  return mp_err_set(err, MP_ECANCELED,
                    "the %s request to %s for '%s/%s' was cancelled before "
                    "it was answered; the object is as it was before it, or "
                    "as that request left it if the server took it whole",
                    method, service, b->where, key ? key : "");
}

/* How long a request in flight when the cancel comes may still take: a
 * healthy server answers well within it (the write the cancelled
 * operation is making lands whole), a stalled one is left. */
#define CANCEL_GRACE_MS 2000

typedef struct try_state {
  int cancellable;
  int64_t seen_ms; /* when the cancel was first seen; 0: not yet */
} try_state;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* libcurl calls it about once a second even while nothing moves; a
 * non-zero answer ends the try (CURLE_ABORTED_BY_CALLBACK). */
static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut,
                       curl_off_t un) {
  (void)dt;
  (void)dn;
  (void)ut;
  (void)un;
  try_state *t = ud;
  if (!mp__bucket_cancelled(t->cancellable))
    return 0;
  int64_t now = now_ms();
  if (t->seen_ms == 0)
    t->seen_ms = now;
  return now - t->seen_ms >= CANCEL_GRACE_MS;
}

CURLcode mp__bucket_perform(const mp_bucket *b, CURL *h, const char *method,
                            const char *url, struct curl_slist **hs,
                            const char *data, size_t len, mp_bucket_reply *r,
                            char *cerr, int cancellable) {
  mp_buf_reset(&r->body);
  r->etag[0] = r->last_modified[0] = r->error_code[0] = '\0';
  r->copy_status[0] = '\0';
  r->status = 0;
  r->retry_after = -1;
  cerr[0] = '\0';
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT, 300L);
  /* a server that takes the request and then says nothing */
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME,
                   b->stall_seconds > 0 ? b->stall_seconds
                                        : (long)MP_BUCKET_STALL_SECONDS);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
  try_state ts = {cancellable, 0};
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &ts);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)MP_BLOB_MAX_BODY);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, mp__http_on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &r->body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
  if (strcmp(method, "HEAD") == 0) {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else if (strcmp(method, "PUT") == 0) {
    /* the body as POST fields, so that a signer hashes it too */
    *hs = curl_slist_append(*hs, "Content-Type: application/octet-stream");
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, data ? data : "");
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
  } else if (strcmp(method, "GET") != 0) {
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, *hs);
  CURLcode cc = curl_easy_perform(h);
  if (cc == CURLE_OK)
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
  curl_easy_cleanup(h);
  return cc;
}

void mp__bucket_error_xml(const mp_bucket_reply *r, char **code, char **msg) {
  *code = *msg = NULL;
  xmlDoc *doc = mp__xml_parse(&r->body);
  xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
  if (root && strcmp((const char *)root->name, "Error") == 0) {
    *code = mp__xml_text(mp__xml_child(root, "Code"));
    *msg = mp__xml_text(mp__xml_child(root, "Message"));
  }
  if (doc)
    xmlFreeDoc(doc);
}

int mp__bucket_say_fail(const mp_bucket *b, const char *service,
                        const char *what, const char *key,
                        const mp_bucket_reply *r, char *code, char *msg,
                        int missing, const char *hint, mp_err *err) {
  int rc = mp_err_set(err, missing ? MP_ENOENT : MP_EIO,
                      "cannot %s '%s/%s': %s answered %ld %s%s%s%s", what,
                      b->where, key ? key : "", service, r->status, code,
                      msg && *msg ? ": " : "", msg ? msg : "", hint);
  free(code);
  free(msg);
  return rc;
}

/* ==== a bucket URL ==== */

int mp__bucket_url_split(const char *url, const char *head, const char *noun,
                         const char *usage, const char *creds, char **name,
                         char **path, char **query, mp_err *err) {
  *name = *path = *query = NULL;
  const char *p = url + strlen(head);
  size_t hl = strcspn(p, "/?#");
  if (hl == 0)
    return mp_err_set(err, MP_EINVAL,
                      "the state store URL '%s' names no %s; use %s", url,
                      noun, usage);
  if (memchr(p, '@', hl)) {
    char *shown = mp_store_url_redact(url); /* never the password */
    mp_err_set(err, MP_EINVAL,
               "the state store URL '%s' has a user name or password; %s; "
               "see docs/state-backends.md",
               shown, creds);
    free(shown);
    return MP_EINVAL;
  }
  *name = mp_xstrndup(p, hl);
  p += hl;
  size_t pl = strcspn(p, "?#");
  *path = mp__url_unescape(p, pl);
  p += pl;
  *query = *p == '?' ? mp_xstrndup(p + 1, strcspn(p + 1, "#")) : NULL;
  return 0;
}

int mp__bucket_query_next(char **cursor, char **k, char **v) {
  char *tok = *cursor;
  if (tok == NULL || *tok == '\0')
    return 0;
  char *next = strchr(tok, '&');
  if (next)
    *next++ = '\0';
  *cursor = next;
  char *eq = strchr(tok, '=');
  *k = mp__url_unescape(tok, eq ? (size_t)(eq - tok) : strlen(tok));
  *v = eq ? mp__url_unescape(eq + 1, strlen(eq + 1)) : mp_xstrdup("");
  return 1;
}

char *mp__bucket_prefix(const char *qprefix, const char *path) {
  mp_buf pre;
  mp_buf_init(&pre);
  if (qprefix && *qprefix)
    mp_buf_puts(&pre, qprefix);
  const char *sub = path;
  while (*sub == '/')
    sub++;
  if (*sub)
    mp_buf_printf(&pre, "%s%s", sub, sub[strlen(sub) - 1] == '/' ? "" : "/");
  char *prefix = mp_buf_detach(&pre, NULL);
  size_t n = strlen(prefix);
  if (n > 0 && prefix[n - 1] == '/')
    prefix[--n] = '\0';
  return prefix;
}
