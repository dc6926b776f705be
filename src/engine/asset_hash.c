/* The hashes the engine gives the assets and archives a program sends
 * (engine/asset_hash.h), as Pulumi's resource monitor computes them. */
#include "engine/asset_hash.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/asset_int.h"
#include "engine/crypto.h"


/* The SHA-256 of a blob's bytes, which must be as many as it claims
 * (Pulumi: "incorrect blob size"). */
static int hash_blob(mp__blob *b, char hex[65], mp_err *err) {
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  if (md == NULL || EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1) {
    EVP_MD_CTX_free(md);
    return mp_err_set(err, MP_EIO, "cannot start a SHA-256");
  }
  unsigned char buf[65536];
  uint64_t n = 0;
  int rc = 0;
  for (;;) {
    long got = mp__blob_read(b, buf, sizeof(buf), err);
    if (got <= 0) {
      rc = (int)got;
      break;
    }
    EVP_DigestUpdate(md, buf, (size_t)got);
    n += (uint64_t)got;
  }
  if (rc == 0 && n != b->size)
    rc = mp_err_set(err, MP_EIO, "incorrect blob size: expected %llu, got %llu",
                    (unsigned long long)b->size, (unsigned long long)n);
  if (rc == 0) {
    unsigned char d[32];
    unsigned int dlen = 0;
    EVP_DigestFinal_ex(md, d, &dlen);
    for (size_t i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  }
  EVP_MD_CTX_free(md);
  return rc;
}

/* Pulumi's ReadSourceArchive: the bytes of a path or URI archive whose
 * name says it is a .tar, .tgz, .zip... as they are; 1 when there are
 * none (then the archive's tar is hashed). */
static int source_archive(const mp_value *a, const mp_asset_hash_opts *o,
                          char hex[65], mp_err *err) {
  const char *path = a->u.archive.path, *uri = a->u.archive.uri;
  mp_value *as = NULL;
  if (path && *path) {
    if (mp__archive_format(path) == MP__NOT_ARCHIVE) return 1;
    as = mp_value_new_asset(NULL, NULL, path, NULL);
  } else if (uri && *uri) {
    char *scheme = NULL, *upath = NULL;
    int local = 0;
    if (mp__uri_split(uri, &scheme, &upath, &local, NULL) < 0) return 1;
    enum mp__archive_format f = mp__archive_format(upath);
    free(scheme);
    free(upath);
    if (f == MP__NOT_ARCHIVE) return 1;
    as = mp_value_new_asset(NULL, NULL, NULL, uri);
  } else {
    return 1;
  }
  mp__blob b;
  mp__blob_init(&b);
  int rc = mp__asset_open(as, o, &b, err);
  if (rc == 0) rc = hash_blob(&b, hex, err);
  mp__blob_close(&b);
  mp_value_free(as);
  return rc;
}

int mp_asset_hash_of(const mp_value *a, const mp_asset_hash_opts *o,
                     char hex[65], mp_err *err) {
  if (a->kind == MP_VALUE_ASSET) {
    /* Its hash ignored: a hash alone is no content to read. */
    mp_value *bare = mp_value_new_asset(NULL, a->u.asset.text, a->u.asset.path,
                                        a->u.asset.uri);
    mp__blob b;
    mp__blob_init(&b);
    int rc = mp__asset_open(bare, o, &b, err);
    if (rc == 0) rc = hash_blob(&b, hex, err);
    mp__blob_close(&b);
    mp_value_free(bare);
    return rc;
  }
  if (a->kind != MP_VALUE_ARCHIVE)
    return mp_err_set(err, MP_EINVAL, "not an asset or an archive");
  int rc = source_archive(a, o, hex, err);
  if (rc != 1) return rc;
  mp_value *bare = mp_value_new_archive(
      NULL, a->u.archive.assets ? mp_value_dup(a->u.archive.assets) : NULL,
      a->u.archive.path, a->u.archive.uri);
  rc = mp__archive_tar_hash(bare, o, hex, err);
  mp_value_free(bare);
  return rc;
}

/* Calls |fn| on every asset and archive in |v| (an archive after its
 * members, as Pulumi unmarshals them), with the key of the object member
 * it is in ("" at the top), until one answers non-zero, which it
 * returns. Objects, arrays, secrets and outputs are walked. */
typedef int (*asset_fn)(mp_value *v, const char *key, void *ud);

static int each_asset(mp_value *v, const char *key, asset_fn fn, void *ud) {
  if (v == NULL) return 0;
  int rc = 0;
  switch (v->kind) {
  case MP_VALUE_ASSET:
    return fn(v, key, ud);
  case MP_VALUE_ARCHIVE:
    rc = each_asset(v->u.archive.assets, key, fn, ud);
    return rc ? rc : fn(v, key, ud);
  case MP_VALUE_ARRAY:
    for (size_t i = 0; i < v->u.arr.len && rc == 0; i++)
      rc = each_asset(v->u.arr.items[i], key, fn, ud);
    return rc;
  case MP_VALUE_OBJECT:
    for (size_t i = 0; i < v->u.obj.len && rc == 0; i++)
      rc = each_asset(v->u.obj.items[i].value, v->u.obj.items[i].key, fn, ud);
    return rc;
  case MP_VALUE_SECRET:
    return each_asset(v->u.secret, key, fn, ud);
  case MP_VALUE_OUTPUT:
    return each_asset(v->u.output.value, key, fn, ud);
  default:
    return 0;
  }
}

typedef struct hash_ctx {
  const mp_asset_hash_opts *o;
  mp_err *err;
} hash_ctx;

static int hash_one(mp_value *v, const char *key, void *ud) {
  hash_ctx *h = ud;
  char **slot = v->kind == MP_VALUE_ASSET ? &v->u.asset.hash
                                          : &v->u.archive.hash;
  if (*slot && **slot) return 0;
  char hex[65];
  int rc = mp_asset_hash_of(v, h->o, hex, h->err);
  if (rc < 0)
    return mp_err_prefix(h->err, "failed to compute %s hash for \"%s\"",
                         v->kind == MP_VALUE_ASSET ? "asset" : "archive", key);
  free(*slot);
  *slot = mp_xstrdup(hex);
  return 0;
}

int mp_value_hash_assets(mp_value *v, const mp_asset_hash_opts *o,
                         mp_err *err) {
  hash_ctx h = {o, err};
  return each_asset(v, "", hash_one, &h);
}

static int needs_io(mp_value *v, const char *key, void *ud) {
  (void)key, (void)ud;
  if (v->kind == MP_VALUE_ARCHIVE)
    return !(v->u.archive.hash && *v->u.archive.hash);
  return !(v->u.asset.hash && *v->u.asset.hash) &&
         ((v->u.asset.path && *v->u.asset.path) ||
          (v->u.asset.uri && *v->u.asset.uri) || v->u.asset.text == NULL);
}

int mp_value_assets_need_io(const mp_value *v) {
  /* needs_io changes nothing */
  return each_asset((mp_value *)v, "", needs_io, NULL);
}

static int hash_text(mp_value *v, const char *key, void *ud) {
  (void)key, (void)ud;
  /* An archive's hash covers its members; its members keep theirs. */
  if (v->kind == MP_VALUE_ASSET && v->u.asset.hash == NULL && v->u.asset.text) {
    char hex[65];
    mp_sha256_hex(v->u.asset.text, strlen(v->u.asset.text), hex);
    v->u.asset.hash = mp_xstrdup(hex);
  }
  return 0;
}

void mp_value_hash_text_assets(mp_value *v) {
  each_asset(v, "", hash_text, NULL);
}
