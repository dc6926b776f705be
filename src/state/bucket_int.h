/* The objects of a DIY store in a bucket (diy_obj_bucket.c), whatever the
 * service: a key is the store's prefix then the path under its root, a
 * folder is a key prefix ending in '/', a put is one whole object (a
 * reader sees the old one or the new one, never a torn one). Each service
 * (diy_obj_s3.c, diy_obj_az.c) fills a client table with what differs:
 * how a request is signed and retried, the names of its listing's XML,
 * how its errors read, and how it copies. */
#ifndef MP_BUCKET_INT_H
#define MP_BUCKET_INT_H

#include <curl/curl.h>
#include <libxml/tree.h>
#include <pthread.h>

#include "state/diy_obj.h"

/* One answer, with the headers any service's callers read. */
typedef struct mp_bucket_reply {
  long status;
  mp_buf body;
  char etag[80];
  char last_modified[64];
  char error_code[64];  /* x-ms-error-code (Azure: a HEAD's only word) */
  char copy_status[32]; /* x-ms-copy-status (Azure) */
  long retry_after;     /* Retry-After in seconds, or -1 */
} mp_bucket_reply;

typedef struct mp_bucket mp_bucket;

typedef struct mp_bucket_client {
  /* Sends |method| for object |key| (the bucket's key, not a path; NULL:
   * the bucket itself) with the encoded query |query| (or NULL), the body
   * |data| and the extra headers |headers| ("name: value",
   * NULL-terminated, or NULL), retried as the service's SDKs do. 0 with
   * the reply for any HTTP status; MP_EIO when no answer came. The caller
   * frees r->body. */
  int (*request)(mp_bucket *b, const char *method, const char *key,
                 const char *query, const char *data, size_t len,
                 const char *const *headers, mp_bucket_reply *r, mp_err *err);
  /* |err| from an error reply, naming |what| was done to |key|; MP_ENOENT
   * for a missing object. */
  int (*fail)(mp_bucket *b, const char *what, const char *key,
              const mp_bucket_reply *r, mp_err *err);
  /* |to_key| becomes a copy of |from_key|; MP_ENOENT if it is missing. */
  int (*copy)(mp_bucket *b, const char *from_key, const char *to_key,
              mp_err *err);
  /* the headers of a put (or NULL) */
  const char *const *put_headers;
  /* a DELETE answered 404 is a missing object, whatever the error */
  int delete_404_is_missing;
  /* The query of one page of the listing of |eprefix| (encoded), with the
   * delimiter '/' unless |deep|, from the page |etoken| (encoded, or
   * NULL: the first). Owned. */
  char *(*list_query)(const char *eprefix, int deep, const char *etoken);
  /* The token of the page after the one |root| answered, or NULL. */
  char *(*list_next)(xmlNode *root);
  /* a listing's XML: its root element, the element holding the entries
   * (NULL: the root), an object's element and the child naming it, a
   * folder's element and the child naming it */
  const char *list_root, *list_entries, *obj_elem, *obj_name, *dir_elem,
      *dir_name;
  /* frees what the service keeps past struct mp_bucket */
  void (*free)(mp_bucket *b);
} mp_bucket_client;

struct mp_bucket {
  mp_diy_objs base;
  const mp_bucket_client *cl;
  const char *root;   /* "s3://BUCKET[/PREFIX]": the root of every path */
  const char *prefix; /* "" or "PREFIX" (no slash at either end) */
  const char *where;  /* "s3://BUCKET": what errors name before a key */
  /* The connections (and resolved names) every request of this store
   * shares, so that requests reuse a kept-alive connection instead of
   * opening one each: any thread may send (the loop thread, a write
   * session's writer), so libcurl takes |share_mu| around the share. */
  CURLSH *share;
  pthread_mutex_t share_mu[CURL_LOCK_DATA_LAST];
  /* A try that moves less than a byte a second for this long fails
   * (MINIPULUMI_BUCKET_STALL_SECONDS, mp__bucket_stall_seconds). */
  long stall_seconds;
};

/* The stall limit of every try, in seconds: MINIPULUMI_BUCKET_STALL_SECONDS
 * if set (a whole number of seconds above 0, else MP_EINVAL), else
 * MP_BUCKET_STALL_SECONDS. */
#define MP_BUCKET_STALL_SECONDS 60
int mp__bucket_stall_seconds(long *out, mp_err *err);

/* Makes |b| the objects of its service; |b| is the head of the
 * service's own struct, with cl, root, prefix and where set. Its
 * free closes the shared connections, then calls cl->free. */
void mp__bucket_init(mp_bucket *b);

static inline int mp__bucket_ok(const mp_bucket_reply *r) {
  return r->status >= 200 && r->status < 300;
}

/* ==== one HTTP try (bucket_http.c) ==== */

/* A new libcurl handle for one try of |b|'s, on the connections |b|
 * shares, on which the service sets its own options (signing). */
CURL *mp__bucket_handle(mp_bucket *b);
/* The connection share of |b| (mp__bucket_init), and its end. */
void mp__bucket_share_open(mp_bucket *b);
void mp__bucket_share_close(mp_bucket *b);
/* Sends |method| to |url| on |h| with the headers |*hs| (a PUT adds its
 * content type to them) and the body |data|; fills |r| (status and
 * headers) and |cerr| (CURL_ERROR_SIZE bytes), and frees |h|. The try
 * ends with CURLE_OPERATION_TIMEDOUT when it stalls for b->stall_seconds
 * and, if |cancellable|, with CURLE_ABORTED_BY_CALLBACK when the process
 * was cancelled (mp_store_set_cancel) and the try has not ended within
 * 2 s of it: a healthy server's answer is still taken. */
CURLcode mp__bucket_perform(const mp_bucket *b, CURL *h, const char *method,
                            const char *url, struct curl_slist **hs,
                            const char *data, size_t len, mp_bucket_reply *r,
                            char *cerr, int cancellable);
/* 1 when a request begun before any cancel (|cancellable|) is to end:
 * the process was cancelled since. Its error: "the request to SERVICE
 * for 'WHERE/KEY' was cancelled ...", MP_ECANCELED. */
int mp__bucket_cancelled(int cancellable);
int mp__bucket_say_cancelled(const mp_bucket *b, const char *service,
                             const char *method, const char *key,
                             mp_err *err);
/* Code and message of an <Error> answer (owned; NULL if none). */
void mp__bucket_error_xml(const mp_bucket_reply *r, char **code,
                          char **msg);
/* |err| (MP_ENOENT if |missing|, else MP_EIO): "cannot WHAT 'WHERE/KEY':
 * SERVICE answered STATUS CODE: MSG" then |hint|; frees |code| and
 * |msg|. */
int mp__bucket_say_fail(const mp_bucket *b, const char *service,
                        const char *what, const char *key,
                        const mp_bucket_reply *r, char *code, char *msg,
                        int missing, const char *hint, mp_err *err);

/* ==== a bucket URL (bucket_http.c) ==== */

/* The parts of `SCHEME://NAME[/PATH][?QUERY]` (|head| is "SCHEME://"):
 * *name, *path (decoded) and *query (NULL if none), all owned. Refuses
 * a missing name (|usage| says the form) and a user or password in the
 * URL (|creds| says where credentials come from). */
int mp__bucket_url_split(const char *url, const char *head, const char *noun,
                         const char *usage, const char *creds, char **name,
                         char **path, char **query, mp_err *err);
/* The next "k=v" of the query |*cursor| (changed in place), decoded into
 * |*k| and |*v| (owned); 0 when there is none left. */
int mp__bucket_query_next(char **cursor, char **k, char **v);
/* The key prefix, gocloud's ?prefix= |qprefix| (or NULL) then Pulumi's
 * path |path|, with no slash at either end. Owned. */
char *mp__bucket_prefix(const char *qprefix, const char *path);

#endif
