/* Helpers shared by the state tests: fixtures, scratch directories, file
 * digests and a cheap reversible crypter. Header-only (static). */
#ifndef TEST_STATE_UTIL_H
#define TEST_STATE_UTIL_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "engine/value.h"

/* Reads a whole file; NULL if it cannot. Owned result, NUL-terminated. */
static inline char *tst_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, len);
}

/* tests/state/fixtures/<name>, found next to this header's source path. */
static inline char *tst_read_fixture(const char *name, size_t *len) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof(dir), "%s", __FILE__);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  char *path = mp_xasprintf("%s/fixtures/%s", slash ? dir : ".", name);
  char *text = tst_read_file(path, len);
  if (text == NULL)
    fprintf(stderr, "cannot read fixture '%s'\n", path);
  free(path);
  return text;
}

/* A fresh scratch directory (owned path). */
static inline char *tst_mkdtemp(void) {
  const char *base = getenv("TMPDIR");
  char *tmpl =
      mp_xasprintf("%s/mp-state-XXXXXX", base && *base ? base : "/tmp");
  if (mkdtemp(tmpl) == NULL) {
    perror("mkdtemp");
    abort();
  }
  return tmpl;
}

/* Removes |dir| and the files directly in it. */
static inline void tst_rmdir(const char *dir) {
  char *cmd = mp_xasprintf("rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", dir);
  free(cmd);
}

/* SHA-256 hex of a file's bytes ("" if it cannot be read). */
static inline void tst_file_sha(const char *path, char hex[65]) {
  size_t len;
  char *text = tst_read_file(path, &len);
  if (text == NULL) {
    hex[0] = '\0';
    return;
  }
  mp_sha256_hex(text, len, hex);
  free(text);
}

/* 1 if |needle| occurs in the bytes of |path|. */
static inline int tst_file_contains(const char *path, const char *needle) {
  size_t len, n = strlen(needle);
  char *text = tst_read_file(path, &len);
  int found = 0;
  for (size_t i = 0; text && !found && i + n <= len; i++)
    found = memcmp(text + i, needle, n) == 0;
  free(text);
  return found;
}

/* A cheap reversible crypter for tests: "x1:" + hex of each byte ^ 0x5a. */
static inline int tst_xor_encrypt(void *ctx, const char *plain, size_t len,
                                  mp_buf *out, mp_err *err) {
  (void)ctx;
  (void)err;
  mp_buf_puts(out, "x1:");
  for (size_t i = 0; i < len; i++)
    mp_buf_printf(out, "%02x", (unsigned char)plain[i] ^ 0x5a);
  return 0;
}

static inline int tst_xor_decrypt(void *ctx, const char *cipher, size_t len,
                                  mp_buf *out, mp_err *err) {
  (void)ctx;
  if (len < 3 || strncmp(cipher, "x1:", 3) != 0 || (len - 3) % 2)
    return mp_err_set(err, MP_EINVAL, "not an x1 ciphertext");
  for (size_t i = 3; i < len; i += 2) {
    unsigned v;
    if (sscanf(cipher + i, "%2x", &v) != 1)
      return mp_err_set(err, MP_EINVAL, "bad hex");
    mp_buf_putc(out, (char)(v ^ 0x5a));
  }
  return 0;
}

static inline mp_crypter tst_xor_crypter(void) {
  mp_crypter c = {tst_xor_encrypt, tst_xor_decrypt, NULL, NULL};
  return c;
}

#endif
