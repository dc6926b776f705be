/* The tar Pulumi hashes an archive by (archive.go archiveTar): Go's
 * archive/tar Writer given, for each member, only a name, mode 0600 and
 * the size. Its headers are USTAR (a name of more than 100 bytes split
 * into prefix and name where it can be), else PAX (an "x" header with
 * the records Go could not fit); no owner, no time; the end is two zero
 * blocks, with no padding to a record. The bytes go straight into a
 * SHA-256, never to a file. */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/asset_int.h"
#include "engine/map.h"

#define BLOCK 512
#define NAME_SIZE 100
#define PREFIX_SIZE 155

typedef struct tar_hash {
  EVP_MD_CTX *sha;
  mp_map seen; /* names written */
} tar_hash;

static const unsigned char zeros[BLOCK];

static void put(tar_hash *t, const void *p, size_t n) {
  EVP_DigestUpdate(t->sha, p, n);
}

static void pad(tar_hash *t, uint64_t size) {
  size_t rem = (size_t)(size % BLOCK);
  if (rem) put(t, zeros, BLOCK - rem);
}

/* Go's formatter.formatString: as much as fits, NUL-terminated when
 * shorter; a cut name does not end in '/'. */
static void fmt_string(unsigned char *b, size_t len, const char *s) {
  size_t n = strlen(s);
  memcpy(b, s, n < len ? n : len);
  if (n < len) b[n] = '\0';
  if (n > len && b[len - 1] == '/') {
    size_t k = len;
    while (k > 0 && b[k - 1] == '/') k--;
    b[k] = '\0';
  }
}

/* Go's formatter.formatOctal: zero-padded, room left for a NUL; a number
 * that does not fit is written as 0 (Go's last resort). */
static void fmt_octal(unsigned char *b, size_t len, uint64_t x) {
  int fits = len - 1 >= 22 || x < ((uint64_t)1 << (3 * (len - 1)));
  char s[32];
  snprintf(s, sizeof(s), "%0*llo", (int)(len - 1),
           (unsigned long long)(fits ? x : 0));
  fmt_string(b, len, s);
}

/* Magic "ustar\0" "00" and the checksum (its field counted as spaces,
 * written as six octal digits, NUL, space). */
static void finish_header(unsigned char *b) {
  memcpy(b + 257, "ustar\0", 6);
  memcpy(b + 263, "00", 2);
  unsigned sum = 0;
  for (size_t i = 0; i < BLOCK; i++) sum += (i >= 148 && i < 156) ? ' ' : b[i];
  fmt_octal(b + 148, 7, sum);
  b[155] = ' ';
}

/* The fields Go's templateV7Plus fills for a member. */
static void template_v7plus(unsigned char *b, const char *name, char flag,
                            uint64_t size) {
  memset(b, 0, BLOCK);
  b[156] = (unsigned char)flag;
  fmt_string(b, NAME_SIZE, name);
  fmt_octal(b + 100, 8, 0600);
  fmt_octal(b + 108, 8, 0);
  fmt_octal(b + 116, 8, 0);
  fmt_octal(b + 124, 12, size);
  fmt_octal(b + 136, 12, 0);
  fmt_octal(b + 329, 8, 0); /* devmajor */
  fmt_octal(b + 337, 8, 0); /* devminor */
}

static int is_ascii(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80) return 0;
  return 1;
}

/* Go's toASCII: the bytes below 0x80 (and not NUL) of a name that is not
 * all ASCII. */
static char *to_ascii(const char *s) {
  char *out = mp_xstrdup(s), *w = out;
  if (is_ascii(s)) return out;
  for (; *s; s++)
    if ((unsigned char)*s < 0x80) *w++ = *s;
  *w = '\0';
  return out;
}

/* Go's splitUSTARPath: where a long ASCII name splits into a prefix of
 * at most 155 bytes and a name of at most 100; -1 when it cannot. */
static long ustar_split(const char *name) {
  size_t len = strlen(name), n = len;
  if (len <= NAME_SIZE || !is_ascii(name)) return -1;
  if (n > PREFIX_SIZE + 1)
    n = PREFIX_SIZE + 1;
  else if (name[n - 1] == '/')
    n--;
  long i = -1;
  for (size_t k = 0; k < n; k++)
    if (name[k] == '/') i = (long)k;
  size_t nlen = len - (size_t)i - 1;
  if (i <= 0 || nlen > NAME_SIZE || nlen == 0 || (size_t)i > PREFIX_SIZE)
    return -1;
  return i;
}

/* Go's formatPAXRecord: "<len> <key>=<value>\n", its length included. */
static void pax_record(mp_buf *b, const char *key, const char *value) {
  size_t size = strlen(key) + strlen(value) + 3;
  char digits[32];
  size += (size_t)snprintf(digits, sizeof(digits), "%zu", size);
  char *rec = mp_xasprintf("%zu %s=%s\n", size, key, value);
  if (strlen(rec) != size) {
    size = strlen(rec);
    free(rec);
    rec = mp_xasprintf("%zu %s=%s\n", size, key, value);
  }
  mp_buf_puts(b, rec);
  free(rec);
}

/* The "x" header and records of a member USTAR cannot hold, then its own
 * header with what fits (Go's writePAXHeader and writeRawFile). */
static void pax_headers(tar_hash *t, const char *name, char flag,
                        uint64_t size, int long_name, int big) {
  mp_buf recs;
  mp_buf_init(&recs);
  if (long_name) pax_record(&recs, "path", name);
  if (big) {
    char v[32];
    snprintf(v, sizeof(v), "%llu", (unsigned long long)size);
    pax_record(&recs, "size", v);
  }
  const char *slash = strrchr(name, '/');
  char *dir = slash ? mp_xstrndup(name, (size_t)(slash - name + 1)) : mp_xstrdup("");
  char *sub = mp__path_join(dir, "PaxHeaders.0");
  char *xname = mp__path_join(sub, slash ? slash + 1 : name);
  char *ascii = to_ascii(xname);
  if (strlen(ascii) > NAME_SIZE) ascii[NAME_SIZE] = '\0';
  for (size_t k = strlen(ascii); k > 0 && ascii[k - 1] == '/'; k--) ascii[k - 1] = '\0';
  unsigned char b[BLOCK];
  memset(b, 0, BLOCK);
  b[156] = 'x';
  fmt_string(b, NAME_SIZE, ascii);
  fmt_octal(b + 100, 8, 0);
  fmt_octal(b + 108, 8, 0);
  fmt_octal(b + 116, 8, 0);
  fmt_octal(b + 124, 12, recs.len);
  fmt_octal(b + 136, 12, 0);
  finish_header(b);
  put(t, b, BLOCK);
  put(t, recs.data, recs.len);
  pad(t, recs.len);
  char *main_name = to_ascii(name);
  template_v7plus(b, main_name, flag, size);
  finish_header(b);
  put(t, b, BLOCK);
  free(main_name);
  free(ascii);
  free(xname);
  free(sub);
  free(dir);
  mp_buf_destroy(&recs);
}

/* Go's WriteHeader for a member: USTAR when its name and size fit,
 * else PAX. A name ending in '/' makes a folder entry (Go's promotion of
 * the type flag), which can hold no bytes. */
static void header(tar_hash *t, const char *name, uint64_t size) {
  size_t len = strlen(name);
  char flag = len && name[len - 1] == '/' ? '5' : '0';
  int big = size >= ((uint64_t)1 << 33);
  long split = ustar_split(name);
  int long_name = (!is_ascii(name) || len > NAME_SIZE) && split < 0;
  /* Go's allowedFormats records the path for PAX even when USTAR can
   * split it; PAX is used only when USTAR cannot hold the member. */
  int pax_path = !is_ascii(name) || len > NAME_SIZE;
  if (long_name || big) {
    pax_headers(t, name, flag, size, pax_path, big);
    return;
  }
  unsigned char b[BLOCK];
  if (split > 0) {
    char *prefix = mp_xstrndup(name, (size_t)split);
    template_v7plus(b, name + split + 1, flag, size);
    fmt_string(b + 345, PREFIX_SIZE, prefix);
    free(prefix);
  } else {
    template_v7plus(b, name, flag, size);
  }
  finish_header(b);
  put(t, b, BLOCK);
}

static int add_member(void *ud, const char *name, mp__blob *blob, mp_err *err) {
  tar_hash *t = ud;
  /* The same name twice (a folder and a folder inside it): Pulumi keeps
   * the first. */
  if (mp_map_has(&t->seen, name)) return 0;
  mp_map_put(&t->seen, name, NULL);
  size_t len = strlen(name);
  if (len && name[len - 1] == '/' && blob->size > 0)
    return mp_err_set(err, MP_EINVAL,
                      "incorrect blob size for %s: expected %llu, got 0", name,
                      (unsigned long long)blob->size);
  header(t, name, blob->size);
  uint64_t n = 0;
  unsigned char buf[65536];
  for (;;) {
    long got = mp__blob_read(blob, buf, sizeof(buf), err);
    if (got < 0) return (int)got;
    if (got == 0) break;
    if (n + (uint64_t)got > blob->size)
      return mp_err_set(err, MP_EIO,
                        "incorrect blob size for %s: expected %llu, got more",
                        name, (unsigned long long)blob->size);
    put(t, buf, (size_t)got);
    n += (uint64_t)got;
  }
  if (n != blob->size)
    return mp_err_set(err, MP_EIO,
                      "incorrect blob size for %s: expected %llu, got %llu",
                      name, (unsigned long long)blob->size,
                      (unsigned long long)n);
  pad(t, n);
  return 0;
}

int mp__archive_tar_hash(const mp_value *arc, const mp_asset_hash_opts *o,
                         char hex[65], mp_err *err) {
  tar_hash t;
  t.sha = EVP_MD_CTX_new();
  if (t.sha == NULL || EVP_DigestInit_ex(t.sha, EVP_sha256(), NULL) != 1) {
    EVP_MD_CTX_free(t.sha);
    return mp_err_set(err, MP_EIO, "cannot start a SHA-256");
  }
  mp_map_init(&t.seen);
  int rc = mp__archive_members(arc, o, add_member, &t, err);
  if (rc == 0) {
    put(&t, zeros, BLOCK);
    put(&t, zeros, BLOCK);
    unsigned char d[32];
    unsigned int dlen = 0;
    EVP_DigestFinal_ex(t.sha, d, &dlen);
    for (size_t i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", d[i]);
  }
  mp_map_destroy(&t.seen);
  EVP_MD_CTX_free(t.sha);
  return rc;
}
