/* Internal to the Azure Blob objects of a DIY store (az_*.c,
 * diy_obj_az.c): where the container is, the credentials, and one
 * request signed with Shared Key (or carrying a SAS token). */
#ifndef MP_AZ_INT_H
#define MP_AZ_INT_H

#include "state/bucket_int.h"

typedef struct az_conf {
  char *container;
  char *prefix;    /* "" or "some/prefix" (no slash at either end) */
  char *account;   /* the storage account in the service URL */
  char *service;   /* the service URL: https://ACCOUNT.DOMAIN, or
                    * http://127.0.0.1:10000/ACCOUNT for an emulator */
  char *key_account; /* the account that signs (AZURE_STORAGE_ACCOUNT) */
  unsigned char *key; /* the decoded account key, or NULL (SAS) */
  size_t key_len;
  char *sas;       /* the SAS token (no leading '?'), or NULL */
  char *root;      /* the `root` paths start with: azblob://C[/prefix] */
  char *where;     /* azblob://CONTAINER */
} az_conf;

/* The objects of one store: the bucket layer, then the service's own. */
typedef struct az_objs {
  mp_bucket b;
  az_conf c;
} az_objs;

static inline az_conf *az_conf_of(mp_bucket *b) {
  return &((az_objs *)b)->c;
}

/* Parses `azblob://CONTAINER[/PREFIX][?params]` (gocloud's azureblob
 * parameters, the environment's AZURE_STORAGE_* defaults) and finds the
 * credentials as gocloud does. */
int mp__az_conf_parse(const char *url, az_conf *c, mp_err *err);
void mp__az_conf_free(az_conf *c);

/* The client's request (bucket_int.h) for |c|: up to 4 extra headers
 * (x-ms-* only, lower case); retried as the Azure SDKs do (408, 429,
 * 500, 502, 503, 504 and lost connections; 4 tries). */
int mp__az_request(mp_bucket *b, const char *method, const char *blob,
                   const char *query, const char *data, size_t len,
                   const char *const *headers, mp_bucket_reply *r,
                   mp_err *err);

/* The URL of |blob| (NULL: the container) with |query| and the SAS token.
 * Owned. */
char *mp__az_url(const az_conf *c, const char *blob, const char *query);

#endif
