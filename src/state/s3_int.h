/* Internal to the S3 objects of a DIY store (s3_*.c, diy_obj_s3.c): where
 * the bucket is, the credentials, and one signed request. */
#ifndef MP_S3_INT_H
#define MP_S3_INT_H

#include "state/bucket_int.h"

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
  char *where; /* s3://bucket */
} s3_conf;

/* The objects of one store: the bucket layer, then the service's own. */
typedef struct s3_objs {
  mp_bucket b;
  s3_conf c;
} s3_objs;

static inline s3_conf *s3_conf_of(mp_bucket *b) {
  return &((s3_objs *)b)->c;
}

/* Parses `s3://BUCKET[/PREFIX][?params]` (gocloud's s3blob parameters)
 * and finds the credentials and region as the AWS SDKs do. */
int mp__s3_conf_parse(const char *url, const char *home, s3_conf *c,
                      mp_err *err);
void mp__s3_conf_free(s3_conf *c);

/* The client's request (bucket_int.h) for |c|: the query |query| is
 * sorted as SigV4's canonical query wants; throttling, 5xx and lost
 * connections are retried as the AWS SDKs do. */
int mp__s3_request(mp_bucket *b, const char *method, const char *key,
                   const char *query, const char *data, size_t len,
                   const char *const *headers, mp_bucket_reply *r,
                   mp_err *err);

#endif
