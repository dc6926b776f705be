/* Pulumi's passphrase secrets provider, byte-compatible with
 * pkg/secrets/passphrase and sdk/go/common/resource/config/crypt.go:
 * PBKDF2-HMAC-SHA256 (1,000,000 iterations, 32-byte key), AES-256-GCM with
 * a 12-byte nonce, `v1:<b64 nonce>:<b64 ciphertext||tag>`, standard base64
 * with padding. The salt state is `v1:<b64 salt>:<v1 ciphertext of
 * "pulumi">`; a key that does not decrypt it to "pulumi" is a wrong
 * passphrase. */
#include "engine/crypto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* derive_key uses the low-level SHA-256 calls (SHA256_Init/Update/Final
 * and SHA256_Transform), which OpenSSL 3 marks deprecated; see there for
 * why. */
#define OPENSSL_SUPPRESS_DEPRECATED

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <uv.h>

#define KDF_ITERATIONS 1000000
#define KEY_LEN 32
#define SALT_LEN 8
#define NONCE_LEN 12
#define TAG_LEN 16
#define MAX_SALT_LEN 1024
#define MAX_PASSPHRASE_FILE (1024 * 1024)
#define CHECK_PLAINTEXT "pulumi"
#define ENV_PASSPHRASE MP_PASSPHRASE_VAR
#define ENV_PASSPHRASE_FILE MP_PASSPHRASE_FILE_VAR

/* Owner: the thread that owns the store (no internal locking). */
struct mp_passphrase {
  char *state;       /* the whole salt state, "v1:<salt>:v1:<n>:<ct>" */
  const char *check; /* points into |state|: the encrypted "pulumi" */
  unsigned char salt[MAX_SALT_LEN];
  size_t salt_len;
  char *passphrase; /* NULL: ask |src| on first use */
  mp_passphrase_source src;
  unsigned char key[KEY_LEN];
  int key_ready;
  int failed;       /* 1 once the passphrase was found to be wrong */
  mp_err fail_err;  /* the error to repeat while |failed| */
  /* mp_passphrase_derive_ahead's thread: it writes only |ahead_key|,
   * which ensure_key reads after joining it. */
  uv_thread_t ahead;
  int ahead_running;
  unsigned char ahead_key[KEY_LEN];
};

/* ---- base64 (RFC 4648 standard alphabet, padded) ---- */

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void mp_base64_encode(const unsigned char *p, size_t n, mp_buf *out) {
  char quad[4];
  for (size_t i = 0; i < n; i += 3) {
    size_t rem = n - i;
    unsigned v = (unsigned)p[i] << 16;
    if (rem > 1) v |= (unsigned)p[i + 1] << 8;
    if (rem > 2) v |= p[i + 2];
    quad[0] = b64_alphabet[(v >> 18) & 63];
    quad[1] = b64_alphabet[(v >> 12) & 63];
    quad[2] = rem > 1 ? b64_alphabet[(v >> 6) & 63] : '=';
    quad[3] = rem > 2 ? b64_alphabet[v & 63] : '=';
    mp_buf_append(out, quad, 4);
  }
  if (out->data == NULL) mp_buf_append(out, "", 0);
}

static int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Decodes one 4-character group |q|; only the final group (|last|) may
 * end in "=" or "==". Returns the number of bytes written to |o| (1-3) or
 * -1 with *bad set to the offending index within the group. */
static int b64_group(const char q[4], int last, unsigned char o[3],
                     int *bad) {
  int pad = 0;
  if (last && q[3] == '=') pad = q[2] == '=' ? 2 : 1;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int d = i < 4 - pad ? b64_value(q[i]) : 0;
    if (d < 0) {
      *bad = i;
      return -1;
    }
    v = (v << 6) | (unsigned)d;
  }
  o[0] = (unsigned char)(v >> 16);
  o[1] = (unsigned char)(v >> 8);
  o[2] = (unsigned char)v;
  return 3 - pad;
}

int mp_base64_decode(const char *s, size_t n, mp_buf *out, mp_err *err) {
  char q[4];
  size_t nq = 0, groups = 0, start = out->len, total = 0;
  unsigned char o[3];
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\r' && s[i] != '\n') total++; /* Go skips CR and LF */
  }
  if (total % 4 != 0) {
    return mp_err_set(err, MP_EINVAL,
                      "malformed base64 text: its length %zu is not a "
                      "multiple of 4 (padding with '=' is required)",
                      total);
  }
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\r' || s[i] == '\n') continue;
    q[nq++] = s[i];
    if (nq < 4) continue;
    int bad = 0;
    int got = b64_group(q, (++groups) * 4 == total, o, &bad);
    if (got < 0) {
      out->len = start;
      if (out->data) out->data[start] = '\0';
      size_t at = i - 3 + (size_t)bad; /* approximate if CR/LF inside */
      return mp_err_set(err, MP_EINVAL,
                        "malformed base64 text: unexpected character '%c' "
                        "at offset %zu",
                        q[bad], at);
    }
    mp_buf_append(out, o, (size_t)got);
    nq = 0;
  }
  if (out->data == NULL) mp_buf_append(out, "", 0);
  return 0;
}

void mp_sha256_hex(const void *p, size_t n, char hex[65]) {
  static const char digits[] = "0123456789abcdef";
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned mdlen = 0;
  if (!EVP_Digest(p, n, md, &mdlen, EVP_sha256(), NULL) || mdlen != 32) {
    MP_BUG("SHA-256 digest failed");
  }
  for (unsigned i = 0; i < 32; i++) {
    hex[2 * i] = digits[md[i] >> 4];
    hex[2 * i + 1] = digits[md[i] & 15];
  }
  hex[64] = '\0';
}

/* ---- AES-256-GCM ---- */

/* Seals |plain| under |key| and |nonce| into |ct| (len bytes) + |tag|. */
static int gcm_seal(const unsigned char *key, const unsigned char *nonce,
                    const unsigned char *plain, size_t len,
                    unsigned char *ct, unsigned char tag[TAG_LEN]) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int outl = 0, ok = c != NULL && len <= (size_t)0x7fffffff;
  ok = ok && EVP_EncryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL);
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL);
  ok = ok && EVP_EncryptInit_ex(c, NULL, NULL, key, nonce);
  ok = ok && EVP_EncryptUpdate(c, ct, &outl, plain, (int)len);
  ok = ok && EVP_EncryptFinal_ex(c, ct + outl, &outl);
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_GET_TAG, TAG_LEN, tag);
  EVP_CIPHER_CTX_free(c);
  return ok ? 0 : -1;
}

/* Opens |ct| (len bytes, tag excluded) with |tag|. -1 on auth failure. */
static int gcm_open(const unsigned char *key, const unsigned char *nonce,
                    const unsigned char *ct, size_t len,
                    const unsigned char tag[TAG_LEN], unsigned char *plain) {
  EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
  int outl = 0, ok = c != NULL && len <= (size_t)0x7fffffff;
  ok = ok && EVP_DecryptInit_ex(c, EVP_aes_256_gcm(), NULL, NULL, NULL);
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, NONCE_LEN, NULL);
  ok = ok && EVP_DecryptInit_ex(c, NULL, NULL, key, nonce);
  ok = ok && EVP_DecryptUpdate(c, plain, &outl, ct, (int)len);
  ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, TAG_LEN,
                                 (void *)tag);
  ok = ok && EVP_DecryptFinal_ex(c, plain + outl, &outl) > 0;
  EVP_CIPHER_CTX_free(c);
  return ok ? 0 : -1;
}

int mp_aesgcm_encrypt(const unsigned char key[32], const char *plain,
                      size_t len, mp_buf *out, mp_err *err) {
  unsigned char nonce[NONCE_LEN];
  if (RAND_bytes(nonce, sizeof(nonce)) != 1) {
    return mp_err_set(err, MP_EIO,
                      "cannot encrypt secret: no random bytes for the nonce "
                      "from the system");
  }
  unsigned char *ct = mp_xmalloc(len + TAG_LEN);
  if (gcm_seal(key, nonce, (const unsigned char *)plain, len, ct,
               ct + len) < 0) {
    free(ct);
    return mp_err_set(err, MP_EIO,
                      "cannot encrypt secret: AES-256-GCM failed in "
                      "libcrypto (value of %zu bytes)",
                      len);
  }
  mp_buf_puts(out, "v1:");
  mp_base64_encode(nonce, sizeof(nonce), out);
  mp_buf_putc(out, ':');
  mp_base64_encode(ct, len + TAG_LEN, out);
  free(ct);
  return 0;
}

/* Splits "v1:<nonce>:<ct>" into decoded nonce and sealed bytes. */
static int split_cipher(const char *cipher, size_t len, mp_buf *nonce,
                        mp_buf *sealed, mp_err *err) {
  const char *c1 = memchr(cipher, ':', len);
  const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - cipher))
                      : NULL;
  const char *end = cipher + len;
  if (c2 == NULL || memchr(c2 + 1, ':', (size_t)(end - c2 - 1)) != NULL) {
    return mp_err_set(err, MP_EINVAL,
                      "malformed secret ciphertext: expected "
                      "'v1:<base64 nonce>:<base64 ciphertext>'");
  }
  if (c1 - cipher != 2 || memcmp(cipher, "v1", 2) != 0) {
    return mp_err_set(err, MP_EINVAL,
                      "unknown secret ciphertext version '%.*s': only 'v1' "
                      "is supported",
                      (int)(c1 - cipher), cipher);
  }
  if (mp_base64_decode(c1 + 1, (size_t)(c2 - c1 - 1), nonce, err) < 0) {
    return mp_err_prefix(err, "malformed secret nonce");
  }
  if (mp_base64_decode(c2 + 1, (size_t)(end - c2 - 1), sealed, err) < 0) {
    return mp_err_prefix(err, "malformed secret ciphertext");
  }
  if (nonce->len != NONCE_LEN) {
    return mp_err_set(err, MP_EINVAL,
                      "malformed secret ciphertext: nonce is %zu bytes, "
                      "expected %d",
                      nonce->len, NONCE_LEN);
  }
  if (sealed->len < TAG_LEN) {
    return mp_err_set(err, MP_EINVAL,
                      "malformed secret ciphertext: %zu bytes is shorter "
                      "than the %d-byte authentication tag",
                      sealed->len, TAG_LEN);
  }
  return 0;
}

int mp_aesgcm_decrypt(const unsigned char key[32], const char *cipher,
                      size_t len, mp_buf *out, mp_err *err) {
  mp_buf nonce, sealed;
  mp_buf_init(&nonce);
  mp_buf_init(&sealed);
  int rc = split_cipher(cipher, len, &nonce, &sealed, err);
  if (rc == 0) {
    size_t n = sealed.len - TAG_LEN;
    unsigned char *plain = mp_xmalloc(n + 1);
    const unsigned char *ct = (const unsigned char *)sealed.data;
    if (gcm_open(key, (const unsigned char *)nonce.data, ct, n, ct + n,
                 plain) < 0) {
      rc = mp_err_set(err, MP_EINVAL,
                      "cannot decrypt secret: authentication failed; the "
                      "ciphertext was altered or encrypted with another "
                      "key");
    } else {
      mp_buf_append(out, plain, n);
    }
    OPENSSL_cleanse(plain, n + 1);
    free(plain);
  }
  mp_buf_destroy(&nonce);
  mp_buf_destroy(&sealed);
  return rc;
}

/* ---- the passphrase from the variables' values ---- */

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* Reads |path| whole into |b|. */
static int read_file(const char *path, mp_buf *b, mp_err *err) {
  char chunk[4096];
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return mp_err_set(err, MP_EIO,
                      "cannot read " ENV_PASSPHRASE_FILE " '%s': %s", path,
                      strerror(errno));
  }
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    mp_buf_append(b, chunk, n);
    if (b->len > MAX_PASSPHRASE_FILE) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    return mp_err_set(err, MP_EIO,
                      "cannot read " ENV_PASSPHRASE_FILE " '%s': read error",
                      path);
  }
  if (b->len > MAX_PASSPHRASE_FILE) {
    return mp_err_set(err, MP_EINVAL,
                      ENV_PASSPHRASE_FILE " '%s' is larger than %d bytes; "
                      "point it at a file holding only the passphrase",
                      path, MAX_PASSPHRASE_FILE);
  }
  if (b->data == NULL) mp_buf_append(b, "", 0);
  return 0;
}

/* The error when no passphrase is given at all. */
static int no_passphrase(mp_err *err) {
  return mp_err_set(err, MP_ENOENT,
                    "no passphrase for the secrets of this stack: set "
                    ENV_PASSPHRASE " or " ENV_PASSPHRASE_FILE);
}

int mp_passphrase_resolve(const char *phrase, const char *path, char **out,
                          mp_err *err) {
  *out = NULL;
  if (phrase != NULL) { /* set but empty is a valid (empty) passphrase */
    *out = mp_xstrdup(phrase);
    return 0;
  }
  if (path == NULL || path[0] == '\0') return no_passphrase(err);
  mp_buf b;
  mp_buf_init(&b);
  int rc = read_file(path, &b, err);
  if (rc < 0) {
    mp_buf_destroy(&b);
    return rc;
  }
  /* Pulumi applies strings.TrimSpace to the file contents. */
  size_t start = 0, end = b.len;
  while (start < end && is_space(b.data[start])) start++;
  while (end > start && is_space(b.data[end - 1])) end--;
  *out = mp_xstrndup(b.data + start, end - start);
  OPENSSL_cleanse(b.data, b.len);
  mp_buf_destroy(&b);
  return 0;
}

/* ---- the manager ---- */

/* HMAC-SHA256 keyed once: the hash states after the inner and the outer
 * padded key block. */
typedef struct hmac_key {
  SHA256_CTX inner, outer;
} hmac_key;

static void hmac_key_init(hmac_key *h, const char *key, size_t len) {
  unsigned char k[SHA256_CBLOCK] = {0}, pad[SHA256_CBLOCK];
  if (len > sizeof(k)) SHA256((const unsigned char *)key, len, k);
  else memcpy(k, key, len);
  for (size_t i = 0; i < sizeof(pad); i++) pad[i] = k[i] ^ 0x36;
  SHA256_Init(&h->inner);
  SHA256_Update(&h->inner, pad, sizeof(pad));
  for (size_t i = 0; i < sizeof(pad); i++) pad[i] = k[i] ^ 0x5c;
  SHA256_Init(&h->outer);
  SHA256_Update(&h->outer, pad, sizeof(pad));
  OPENSSL_cleanse(k, sizeof(k));
  OPENSSL_cleanse(pad, sizeof(pad));
}

/* |out| = HMAC(key, a || b); |out| may alias |a|. */
static void hmac(const hmac_key *h, const unsigned char *a, size_t alen,
                 const unsigned char *b, size_t blen,
                 unsigned char out[SHA256_DIGEST_LENGTH]) {
  SHA256_CTX c = h->inner;
  SHA256_Update(&c, a, alen);
  if (blen > 0) SHA256_Update(&c, b, blen);
  SHA256_Final(out, &c);
  c = h->outer;
  SHA256_Update(&c, out, SHA256_DIGEST_LENGTH);
  SHA256_Final(out, &c);
}

/* The PBKDF2 loop and the digests it calls are built optimised and
 * without sanitizer checks in every build: they touch only their own
 * locals and arguments, and at -O0 under AddressSanitizer their two
 * million iterations took 0.3 s of every command that opens a passphrase
 * stack, which made up most of the test suite's time. */
#if defined(__GNUC__) && !defined(__clang__)
#define KDF_HOT                                                           \
  __attribute__((optimize("O2"), no_sanitize("address", "undefined",     \
                                             "thread")))
#elif defined(__clang__)
#define KDF_HOT __attribute__((no_sanitize("address", "undefined", "thread")))
#else
#define KDF_HOT
#endif

/* Writes the eight state words of |c| as the big-endian digest. */
KDF_HOT static void digest_of(const SHA256_CTX *c, unsigned char out[32]) {
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (unsigned char)(c->h[i] >> 24);
    out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
    out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
    out[4 * i + 3] = (unsigned char)c->h[i];
  }
}

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_DIGEST_SSSE3 1
/* digest_of in two byte shuffles. The next SHA256_Transform loads its
 * block 16 bytes at a time, and a load cannot be forwarded from the 32
 * one-byte stores of the loop above (it waits for them to reach the
 * cache): on the derivation's one dependent chain that is ~15% of it. */
KDF_HOT __attribute__((target("ssse3"))) static void digest_of_ssse3(
    const SHA256_CTX *c, unsigned char out[32]) {
  const __m128i swap =
      _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
  __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)&c->h[0]);
  __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)&c->h[4]);
  _mm_storeu_si128((__m128i *)(void *)out, _mm_shuffle_epi8(lo, swap));
  _mm_storeu_si128((__m128i *)(void *)(out + 16), _mm_shuffle_epi8(hi, swap));
}
#endif

/* Pads a 32-byte message that follows one 64-byte key block: the first 32
 * bytes of |block| are left for it, then 0x80, zeros and the length in
 * bits, (64 + 32) * 8 = 768, big-endian. */
static void pad_after_key_block(unsigned char block[SHA256_CBLOCK]) {
  memset(block + 32, 0, SHA256_CBLOCK - 32);
  block[32] = 0x80;
  block[SHA256_CBLOCK - 2] = 0x03;
  block[SHA256_CBLOCK - 1] = 0x00;
}

/* PBKDF2-HMAC-SHA256 with one 32-byte block, the same bytes as
 * PKCS5_PBKDF2_HMAC. OpenSSL's version re-keys HMAC through the EVP layer
 * in every one of the million iterations (allocations and cleanses), which
 * doubles the cost of every command that opens a stack's secrets (five
 * times under AddressSanitizer). Here HMAC is keyed once, and from the
 * second iteration on, where the message is always the previous 32-byte
 * block, each HMAC is exactly two compressions of pre-padded blocks
 * (SHA256_Transform): no buffering, padding or cleansing per iteration,
 * which SHA256_Update/Final would add to every one of the two million. */
KDF_HOT static void derive_key(const char *passphrase,
                               const unsigned char *salt, size_t salt_len,
                               unsigned char key[KEY_LEN]) {
  static const unsigned char block_index[4] = {0, 0, 0, 1};
  unsigned char in[SHA256_CBLOCK], out[SHA256_CBLOCK];
  hmac_key h;
  SHA256_CTX c;
  _Static_assert(KEY_LEN == SHA256_DIGEST_LENGTH, "one PBKDF2 block");
  hmac_key_init(&h, passphrase, strlen(passphrase));
  hmac(&h, salt, salt_len, block_index, sizeof(block_index), in);
  memcpy(key, in, KEY_LEN);
  pad_after_key_block(in);
  pad_after_key_block(out);
  void (*digest)(const SHA256_CTX *, unsigned char *) = digest_of;
#ifdef HAVE_DIGEST_SSSE3
  if (__builtin_cpu_supports("ssse3")) digest = digest_of_ssse3;
#endif
  for (long n = 1; n < KDF_ITERATIONS; n++) {
    c = h.inner;
    SHA256_Transform(&c, in);
    digest(&c, out);
    c = h.outer;
    SHA256_Transform(&c, out);
    digest(&c, in);
    for (size_t i = 0; i < KEY_LEN; i++) key[i] ^= in[i];
  }
  OPENSSL_cleanse(in, sizeof(in));
  OPENSSL_cleanse(out, sizeof(out));
  OPENSSL_cleanse(&c, sizeof(c));
  OPENSSL_cleanse(&h, sizeof(h));
}

/* Parses "v1:<b64 salt>:<rest>" into pp->salt and pp->check. */
static int parse_state(mp_passphrase *pp, mp_err *err) {
  const char *s = pp->state;
  const char *c1 = strchr(s, ':');
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (c2 == NULL) {
    return mp_err_set(err, MP_EINVAL,
                      "malformed passphrase salt state '%s': expected "
                      "'v1:<base64 salt>:v1:<nonce>:<ciphertext>'",
                      s);
  }
  if (c1 - s != 2 || strncmp(s, "v1", 2) != 0) {
    return mp_err_set(err, MP_EINVAL,
                      "unknown passphrase salt state version '%.*s': only "
                      "'v1' is supported",
                      (int)(c1 - s), s);
  }
  mp_buf salt;
  mp_buf_init(&salt);
  int rc = mp_base64_decode(c1 + 1, (size_t)(c2 - c1 - 1), &salt, err);
  if (rc == 0 && salt.len > MAX_SALT_LEN) {
    rc = mp_err_set(err, MP_EINVAL, "salt of %zu bytes is too long",
                    salt.len);
  }
  if (rc == 0) {
    memcpy(pp->salt, salt.data, salt.len);
    pp->salt_len = salt.len;
    pp->check = c2 + 1;
  }
  mp_buf_destroy(&salt);
  if (rc < 0) return mp_err_prefix(err, "bad passphrase salt state");
  return 0;
}

int mp_passphrase_open(const char *salt_state, const char *passphrase,
                       mp_passphrase **out, mp_err *err) {
  *out = NULL;
  mp_passphrase *pp = mp_xcalloc(1, sizeof(*pp));
  pp->state = mp_xstrdup(salt_state ? salt_state : "");
  int rc = parse_state(pp, err);
  if (rc < 0) {
    mp_passphrase_free(pp);
    return rc;
  }
  pp->passphrase = mp_xstrdup(passphrase);
  *out = pp;
  return 0;
}

int mp_passphrase_open_lazy(const char *salt_state,
                            const mp_passphrase_source *src,
                            mp_passphrase **out, mp_err *err) {
  int rc = mp_passphrase_open(salt_state, NULL, out, err);
  if (rc == 0 && src) (*out)->src = *src;
  return rc;
}

/* Derives the key and checks it against the encrypted "pulumi". */
static int ensure_key(mp_passphrase *pp, mp_err *err) {
  if (pp->key_ready) return 0;
  if (pp->failed) {
    if (err) *err = pp->fail_err;
    return pp->fail_err.code;
  }
  if (pp->passphrase == NULL) {
    int rc = pp->src.get ? pp->src.get(pp->src.ud, &pp->passphrase, err)
                         : no_passphrase(err);
    if (rc < 0) return rc;
  }
  if (pp->ahead_running) {
    uv_thread_join(&pp->ahead);
    pp->ahead_running = 0;
    memcpy(pp->key, pp->ahead_key, KEY_LEN);
    OPENSSL_cleanse(pp->ahead_key, KEY_LEN);
  } else {
    derive_key(pp->passphrase, pp->salt, pp->salt_len, pp->key);
  }
  mp_buf plain;
  mp_buf_init(&plain);
  int rc = mp_aesgcm_decrypt(pp->key, pp->check, strlen(pp->check), &plain,
                             NULL);
  int ok = rc == 0 && plain.len == strlen(CHECK_PLAINTEXT) &&
           memcmp(plain.data, CHECK_PLAINTEXT, plain.len) == 0;
  mp_buf_destroy(&plain);
  if (!ok) {
    OPENSSL_cleanse(pp->key, sizeof(pp->key));
    pp->failed = 1;
    mp_err_set(&pp->fail_err, MP_EINVAL,
               "incorrect passphrase: it does not unlock the secrets of "
               "this stack; check " ENV_PASSPHRASE " or " ENV_PASSPHRASE_FILE);
    if (err) *err = pp->fail_err;
    return MP_EINVAL;
  }
  pp->key_ready = 1;
  return 0;
}

int mp_passphrase_create(const char *passphrase, mp_passphrase **out,
                         mp_err *err) {
  *out = NULL;
  mp_passphrase *pp = mp_xcalloc(1, sizeof(*pp));
  int rc = 0;
  if (passphrase != NULL)
    pp->passphrase = mp_xstrdup(passphrase);
  else
    rc = no_passphrase(err);
  if (rc == 0 && RAND_bytes(pp->salt, SALT_LEN) != 1) {
    rc = mp_err_set(err, MP_EIO,
                    "cannot create a passphrase salt: no random bytes from "
                    "the system");
  }
  if (rc < 0) {
    mp_passphrase_free(pp);
    return rc;
  }
  pp->salt_len = SALT_LEN;
  derive_key(pp->passphrase, pp->salt, pp->salt_len, pp->key);
  mp_buf st;
  mp_buf_init(&st);
  mp_buf_puts(&st, "v1:");
  mp_base64_encode(pp->salt, pp->salt_len, &st);
  mp_buf_putc(&st, ':');
  size_t check_off = st.len;
  rc = mp_aesgcm_encrypt(pp->key, CHECK_PLAINTEXT, strlen(CHECK_PLAINTEXT),
                         &st, err);
  if (rc < 0) {
    mp_buf_destroy(&st);
    mp_passphrase_free(pp);
    return rc;
  }
  pp->state = mp_buf_detach(&st, NULL);
  pp->check = pp->state + check_off;
  pp->key_ready = 1;
  *out = pp;
  return 0;
}

const char *mp_passphrase_state(const mp_passphrase *pp) { return pp->state; }

int mp_passphrase_verify(mp_passphrase *pp, mp_err *err) {
  return ensure_key(pp, err);
}

static void derive_ahead_main(void *arg) {
  mp_passphrase *pp = arg;
  derive_key(pp->passphrase, pp->salt, pp->salt_len, pp->ahead_key);
}

void mp_passphrase_derive_ahead(mp_passphrase *pp) {
  if (pp->key_ready || pp->failed || pp->ahead_running) return;
  if (pp->passphrase == NULL && pp->src.get) {
    /* Not there: ensure_key asks again and reports it. */
    mp_err ignored;
    if (pp->src.get(pp->src.ud, &pp->passphrase, &ignored) < 0)
      pp->passphrase = NULL;
  }
  if (pp->passphrase == NULL) return;
  /* Without a thread the key is derived on first use, as before. */
  if (uv_thread_create(&pp->ahead, derive_ahead_main, pp) == 0)
    pp->ahead_running = 1;
}

void mp_passphrase_free(mp_passphrase *pp) {
  if (pp == NULL) return;
  if (pp->ahead_running) uv_thread_join(&pp->ahead);
  if (pp->passphrase) {
    OPENSSL_cleanse(pp->passphrase, strlen(pp->passphrase));
    free(pp->passphrase);
  }
  free(pp->state);
  OPENSSL_cleanse(pp, sizeof(*pp));
  free(pp);
}

static int crypter_encrypt(void *ctx, const char *plain, size_t len,
                           mp_buf *out, mp_err *err) {
  mp_passphrase *pp = ctx;
  int rc = ensure_key(pp, err);
  if (rc < 0) return rc;
  return mp_aesgcm_encrypt(pp->key, plain, len, out, err);
}

static int crypter_decrypt(void *ctx, const char *cipher, size_t len,
                           mp_buf *out, mp_err *err) {
  mp_passphrase *pp = ctx;
  int rc = ensure_key(pp, err);
  if (rc < 0) return rc;
  return mp_aesgcm_decrypt(pp->key, cipher, len, out, err);
}

static int crypter_ready(void *ctx, mp_err *err) {
  return ensure_key(ctx, err);
}

mp_crypter mp_passphrase_crypter(mp_passphrase *pp) {
  mp_crypter c = {crypter_encrypt, crypter_decrypt, pp, crypter_ready};
  return c;
}
