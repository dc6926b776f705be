/* Internal to the S3 objects of a DIY store (s3_*.c, diy_obj_s3.c): where
 * the bucket is, the credentials, and one signed request. */
#ifndef MP_S3_INT_H
#define MP_S3_INT_H

#include "state/diy_obj.h"

typedef struct s3_conf {
  char *bucket;
  char *prefix;   /* "" or "some/prefix" (no slash at either end) */
  char *region;
  char *scheme;   /* "https" or "http" */
  char *host;     /* host[:port] of the endpoint */
  char *base_path; /* a path the endpoint URL carried ("" if none) */
  int path_style; /* the bucket in the path, not in the host name */
  char *key_id, *secret, *token; /* token may be NULL */
  /* the `root` paths start with: s3://bucket[/prefix] */
  char *root;
} s3_conf;

/* Parses `s3://BUCKET[/PREFIX][?params]` (gocloud's s3blob parameters)
 * and finds the credentials and region as the AWS SDKs do. */
int mp__s3_conf_parse(const char *url, const char *home, s3_conf *c,
                      mp_err *err);
void mp__s3_conf_free(s3_conf *c);

typedef struct s3_reply {
  long status;
  mp_buf body;
  char etag[80];
  char last_modified[64];
} s3_reply;

/* Sends |method| for object |key| (already the bucket's key, not a path;
 * NULL: the bucket itself) with the encoded, sorted query |query| (or
 * NULL), the body |data| and the extra header |header| (or NULL). Retries
 * throttling, 5xx and lost connections as the AWS SDKs do. 0 with the
 * reply for any HTTP status; MP_EIO (|err| naming |what|) when no answer
 * came. The caller frees r->body. */
int mp__s3_request(const s3_conf *c, const char *method, const char *key,
                   const char *query, const char *data, size_t len,
                   const char *header, s3_reply *r, mp_err *err);

/* |err| from an error reply: the bucket, the key, S3's code and message
 * (the code told by the status for a body-less HEAD); MP_ENOENT for
 * NoSuchKey. */
int mp__s3_fail(const s3_conf *c, const char *what, const char *key,
                const s3_reply *r, mp_err *err);

#endif
