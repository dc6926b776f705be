/* Tests for src/engine/crypto.c: base64, SHA-256, AES-256-GCM and the
 * passphrase secrets manager, pinned against a salt state written by
 * Pulumi itself (pkg/secrets/passphrase/manager_test.go, passphrase
 * "password") and vectors computed independently with Python's hashlib
 * and cryptography packages. */
#include "engine/crypto.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "testutil.h"

/* Written by Pulumi's Go implementation for the passphrase "password". */
#define PULUMI_STATE \
  "v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ=="
/* hashlib.pbkdf2_hmac('sha256', b'password', salt, 1000000, 32).hex() */
#define PULUMI_KEY_HEX \
  "7e700703e28b164e816cb939612c938b8dcf8f8a5237d02824cea3fb656b3a8b"
/* AESGCM(key).encrypt(bytes(range(12)), b'{"password":"hunter2"}', None) */
#define PY_CIPHERTEXT \
  "v1:AAECAwQFBgcICQoL:bOHRFITAY5YOgrvMFcLMkNZip5+dYbQ5UccvsPKyYncCaBLaFWU="
#define PY_PLAINTEXT "{\"password\":\"hunter2\"}"

static void hex_to_key(const char *hex, unsigned char key[32]) {
  for (int i = 0; i < 32; i++) {
    unsigned v = 0;
    sscanf(hex + 2 * i, "%2x", &v);
    key[i] = (unsigned char)v;
  }
}

static void test_crypto_base64_rfc4648_vectors(void) {
  static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba",
                                      "foobar"};
  static const char *const enc[] = {"",         "Zg==",     "Zm8=",
                                    "Zm9v",     "Zm9vYg==", "Zm9vYmE=",
                                    "Zm9vYmFy"};
  for (size_t i = 0; i < MP_ARRAY_LEN(plain); i++) {
    mp_buf b, d;
    mp_err err;
    mp_buf_init(&b);
    mp_buf_init(&d);
    mp_base64_encode((const unsigned char *)plain[i], strlen(plain[i]), &b);
    CHECK_STR(b.data, enc[i]);
    CHECK(mp_base64_decode(enc[i], strlen(enc[i]), &d, &err) == 0);
    CHECK(d.len == strlen(plain[i]));
    CHECK_STR(d.data, plain[i]);
    mp_buf_destroy(&b);
    mp_buf_destroy(&d);
  }
}

static void test_crypto_base64_binary_and_alphabet(void) {
  unsigned char all[256];
  for (int i = 0; i < 256; i++) all[i] = (unsigned char)i;
  mp_buf b, d;
  mp_err err;
  mp_buf_init(&b);
  mp_buf_init(&d);
  mp_base64_encode(all, sizeof(all), &b);
  CHECK(strchr(b.data, '+') != NULL); /* standard, not URL-safe, alphabet */
  CHECK(strchr(b.data, '/') != NULL);
  CHECK(strchr(b.data, '-') == NULL && strchr(b.data, '_') == NULL);
  CHECK(mp_base64_decode(b.data, b.len, &d, &err) == 0);
  CHECK(d.len == 256 && memcmp(d.data, all, 256) == 0);
  mp_buf_reset(&d);
  /* Go's decoder skips CR and LF; so do we. */
  CHECK(mp_base64_decode("Zm9v\r\nYmFy\n", 11, &d, &err) == 0);
  CHECK_STR(d.data, "foobar");
  mp_buf_destroy(&b);
  mp_buf_destroy(&d);
}

static void check_b64_error(const char *in, const char *want) {
  mp_buf d;
  mp_err err;
  mp_buf_init(&d);
  mp_buf_puts(&d, "keep");
  mp_err_clear(&err);
  CHECK(mp_base64_decode(in, strlen(in), &d, &err) == MP_EINVAL);
  CHECK(err.code == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "malformed base64");
  CHECK_CONTAINS(err.msg, want);
  CHECK_STR(d.data, "keep"); /* output untouched on failure */
  mp_buf_destroy(&d);
}

static void test_crypto_base64_rejects_malformed(void) {
  check_b64_error("Zm9", "not a multiple of 4");
  check_b64_error("Zg", "padding with '=' is required");
  check_b64_error("Zm9v!A==", "unexpected character '!' at offset 4");
  check_b64_error("Zg=A", "unexpected character '='");
  check_b64_error("Zg==Zg==", "unexpected character '='");
  check_b64_error("Z===", "unexpected character '='");
  check_b64_error("Zm-_", "unexpected character '-'");
}

static void test_crypto_sha256_hex(void) {
  char hex[65];
  mp_sha256_hex("", 0, hex);
  CHECK_STR(hex,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  mp_sha256_hex("abc", 3, hex);
  CHECK_STR(hex,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  mp_sha256_hex("v3.150.0", 8, hex);
  CHECK_STR(hex,
            "0cfd49ecb2b79ab5c815533dd5e24026f84295ad05c68df3861ea07ea846919a");
}

static void test_crypto_aesgcm_roundtrip_and_format(void) {
  unsigned char key[32];
  hex_to_key(PULUMI_KEY_HEX, key);
  const char *vals[] = {"", "x", "{\"a\":[1,2,3]}", "bytes\0inside"};
  size_t lens[] = {0, 1, 13, 12};
  for (size_t i = 0; i < MP_ARRAY_LEN(vals); i++) {
    mp_buf c, p;
    mp_err err;
    mp_buf_init(&c);
    mp_buf_init(&p);
    CHECK(mp_aesgcm_encrypt(key, vals[i], lens[i], &c, &err) == 0);
    CHECK(strncmp(c.data, "v1:", 3) == 0);
    /* 12-byte nonce = 16 base64 chars; sealed = len + 16-byte tag. */
    CHECK(c.data[3 + 16] == ':');
    CHECK(c.len == 3 + 16 + 1 + 4 * ((lens[i] + 16 + 2) / 3));
    CHECK(mp_aesgcm_decrypt(key, c.data, c.len, &p, &err) == 0);
    CHECK(p.len == lens[i] && memcmp(p.data, vals[i], lens[i]) == 0);
    mp_buf_destroy(&c);
    mp_buf_destroy(&p);
  }
}

static void test_crypto_aesgcm_fresh_nonce(void) {
  unsigned char key[32];
  hex_to_key(PULUMI_KEY_HEX, key);
  mp_buf a, b;
  mp_err err;
  mp_buf_init(&a);
  mp_buf_init(&b);
  CHECK(mp_aesgcm_encrypt(key, "same", 4, &a, &err) == 0);
  CHECK(mp_aesgcm_encrypt(key, "same", 4, &b, &err) == 0);
  CHECK(strcmp(a.data, b.data) != 0);
  CHECK(strncmp(a.data, b.data, 19) != 0); /* the nonces differ */
  mp_buf_destroy(&a);
  mp_buf_destroy(&b);
}

static void test_crypto_aesgcm_known_answer(void) {
  unsigned char key[32];
  hex_to_key(PULUMI_KEY_HEX, key);
  mp_buf p;
  mp_err err;
  mp_buf_init(&p);
  CHECK(mp_aesgcm_decrypt(key, PY_CIPHERTEXT, strlen(PY_CIPHERTEXT), &p,
                          &err) == 0);
  CHECK_STR(p.data, PY_PLAINTEXT);
  mp_buf_reset(&p);
  const char *check = strstr(PULUMI_STATE, ":v1:") + 1;
  CHECK(mp_aesgcm_decrypt(key, check, strlen(check), &p, &err) == 0);
  CHECK_STR(p.data, "pulumi");
  mp_buf_destroy(&p);
}

static void check_decrypt_error(const unsigned char key[32], const char *c,
                                const char *want) {
  mp_buf p;
  mp_err err;
  mp_buf_init(&p);
  mp_err_clear(&err);
  CHECK(mp_aesgcm_decrypt(key, c, strlen(c), &p, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, want);
  CHECK(p.len == 0);
  mp_buf_destroy(&p);
}

static void test_crypto_aesgcm_rejects_tampering_and_bad_format(void) {
  unsigned char key[32], other[32];
  hex_to_key(PULUMI_KEY_HEX, key);
  memcpy(other, key, 32);
  other[0] ^= 1;
  char tampered[] = PY_CIPHERTEXT;
  tampered[25] = tampered[25] == 'A' ? 'B' : 'A'; /* inside the ciphertext */
  check_decrypt_error(key, tampered, "authentication failed");
  char bad_nonce[] = PY_CIPHERTEXT;
  bad_nonce[4] = bad_nonce[4] == 'A' ? 'B' : 'A';
  check_decrypt_error(key, bad_nonce, "authentication failed");
  check_decrypt_error(other, PY_CIPHERTEXT, "authentication failed");
  check_decrypt_error(key, "v2:AAECAwQFBgcICQoL:AAAA",
                      "unknown secret ciphertext version 'v2'");
  check_decrypt_error(key, "v1:AAECAwQFBgcICQoL", "expected 'v1:<base64");
  check_decrypt_error(key, "v1:a:b:c", "expected 'v1:<base64");
  check_decrypt_error(key, "v1:AAECAwQF:bOHRFITAY5YOgrvM",
                      "nonce is 6 bytes, expected 12");
  check_decrypt_error(key, "v1:AAECAwQFBgcICQoL:AAAA",
                      "shorter than the 16-byte authentication tag");
  check_decrypt_error(key, "v1:AAEC*wQFBgcICQoL:AAAA",
                      "malformed secret nonce: malformed base64");
  check_decrypt_error(key, "v1:AAECAwQFBgcICQoL:AAA",
                      "malformed secret ciphertext: malformed base64");
}

static void test_crypto_passphrase_opens_pulumi_state(void) {
  mp_passphrase *pp = NULL;
  mp_err err;
  CHECK(mp_passphrase_open(PULUMI_STATE, "password", &pp, &err) == 0);
  CHECK_STR(mp_passphrase_state(pp), PULUMI_STATE);
  CHECK(mp_passphrase_verify(pp, &err) == 0); /* the one derivation */
  mp_crypter c = mp_passphrase_crypter(pp);
  mp_buf p, e;
  mp_buf_init(&p);
  mp_buf_init(&e);
  CHECK(c.decrypt(c.ctx, PY_CIPHERTEXT, strlen(PY_CIPHERTEXT), &p, &err) ==
        0);
  CHECK_STR(p.data, PY_PLAINTEXT);
  mp_buf_reset(&p);
  CHECK(c.encrypt(c.ctx, "[1,\"two\"]", 9, &e, &err) == 0);
  CHECK(c.decrypt(c.ctx, e.data, e.len, &p, &err) == 0);
  CHECK_STR(p.data, "[1,\"two\"]");
  mp_buf_reset(&p);
  CHECK(c.decrypt(c.ctx, "v1:AAECAwQFBgcICQoL:AAAAAAAAAAAAAAAAAAAAAA==",
                  44, &p, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "authentication failed");
  mp_buf_destroy(&p);
  mp_buf_destroy(&e);
  mp_passphrase_free(pp);
}

/* The derivation against libcrypto's own PBKDF2 as the reference, at the
 * HMAC key-length boundary: a 64-byte passphrase is used as the HMAC key,
 * a 65-byte one is hashed first. A state whose check value is encrypted
 * with the reference key opens only with that passphrase. */
static void check_derivation_matches_libcrypto(const char *phrase) {
  static const unsigned char salt[8] = {9, 8, 7, 6, 5, 4, 3, 2};
  unsigned char key[32];
  CHECK(PKCS5_PBKDF2_HMAC(phrase, (int)strlen(phrase), salt, sizeof(salt),
                          1000000, EVP_sha256(), sizeof(key), key) == 1);
  mp_buf st;
  mp_err err;
  mp_buf_init(&st);
  mp_buf_puts(&st, "v1:");
  mp_base64_encode(salt, sizeof(salt), &st);
  mp_buf_puts(&st, ":");
  CHECK(mp_aesgcm_encrypt(key, "pulumi", 6, &st, &err) == 0);
  mp_passphrase *pp = NULL;
  CHECK(mp_passphrase_open(st.data, phrase, &pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == 0);
  mp_passphrase_free(pp);
  pp = NULL;
  char *other = mp_xasprintf("%sx", phrase);
  CHECK(mp_passphrase_open(st.data, other, &pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == MP_EINVAL);
  mp_passphrase_free(pp);
  free(other);
  mp_buf_destroy(&st);
}

static void test_crypto_passphrase_derivation_matches_libcrypto(void) {
  check_derivation_matches_libcrypto(
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  check_derivation_matches_libcrypto(
      "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefg");
}

static void test_crypto_passphrase_wrong_is_detected_lazily(void) {
  mp_passphrase *pp = NULL;
  mp_err err;
  /* open does not derive, so it succeeds even with the wrong phrase */
  CHECK(mp_passphrase_open(PULUMI_STATE, "password123", &pp, &err) == 0);
  mp_crypter c = mp_passphrase_crypter(pp);
  mp_buf p;
  mp_buf_init(&p);
  mp_err_clear(&err);
  CHECK(c.decrypt(c.ctx, PY_CIPHERTEXT, strlen(PY_CIPHERTEXT), &p, &err) ==
        MP_EINVAL);
  CHECK(err.code == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "incorrect passphrase");
  CHECK_CONTAINS(err.msg, "PULUMI_CONFIG_PASSPHRASE");
  CHECK(p.len == 0);
  /* The failure is remembered: no second 1M-iteration derivation. */
  mp_err_clear(&err);
  CHECK(c.encrypt(c.ctx, "x", 1, &p, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "incorrect passphrase");
  mp_err_clear(&err);
  CHECK(mp_passphrase_verify(pp, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "incorrect passphrase");
  mp_buf_destroy(&p);
  mp_passphrase_free(pp);
}

/* An empty passphrase is valid in Pulumi. State computed with Python:
 * salt 0102..08, nonce bytes(range(100, 112)), passphrase b''. */
static void test_crypto_passphrase_empty_is_valid(void) {
  const char *st =
      "v1:AQIDBAUGBwg=:v1:ZGVmZ2hpamtsbW5v:LxCNycs3w/uvvtutYTnCCxaUezZTMA==";
  mp_passphrase *pp = NULL;
  mp_err err;
  CHECK(mp_passphrase_open(st, "", &pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == 0);
  mp_passphrase_free(pp);
}

static void check_bad_state(const char *state, const char *want) {
  mp_passphrase *pp = (mp_passphrase *)&pp;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_passphrase_open(state, "password", &pp, &err) == MP_EINVAL);
  CHECK(pp == NULL);
  CHECK_CONTAINS(err.msg, want);
}

static void test_crypto_passphrase_rejects_malformed_state(void) {
  /* Pulumi's own brokenState: the version tag is missing. */
  check_bad_state("fozI5u6B030=:v1:F+6ZduL:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==",
                  "unknown passphrase salt state version 'fozI5u6B030='");
  check_bad_state("", "malformed passphrase salt state");
  check_bad_state("v1:fozI5u6B030=", "malformed passphrase salt state");
  check_bad_state("v1:foz!5u6B030=:v1:a:b",
                  "bad passphrase salt state: malformed base64");
}

static void test_crypto_passphrase_create_and_reopen(void) {
  mp_passphrase *pp = NULL, *again = NULL;
  mp_err err;
  mp_buf ct, p, salt;
  mp_buf_init(&ct);
  mp_buf_init(&p);
  mp_buf_init(&salt);
  CHECK(mp_passphrase_create("s3cret phrase", &pp, &err) == 0);
  const char *st = mp_passphrase_state(pp);
  CHECK(strncmp(st, "v1:", 3) == 0);
  CHECK(st[3 + 12] == ':' && strncmp(st + 16, "v1:", 3) == 0);
  CHECK(mp_base64_decode(st + 3, 12, &salt, &err) == 0);
  CHECK(salt.len == 8);
  mp_crypter c = mp_passphrase_crypter(pp);
  CHECK(c.encrypt(c.ctx, "\"top secret\"", 12, &ct, &err) == 0);
  CHECK(mp_passphrase_open(st, "s3cret phrase", &again, &err) == 0);
  mp_crypter c2 = mp_passphrase_crypter(again);
  CHECK(c2.decrypt(c2.ctx, ct.data, ct.len, &p, &err) == 0);
  CHECK_STR(p.data, "\"top secret\"");
  mp_buf_destroy(&ct);
  mp_buf_destroy(&p);
  mp_buf_destroy(&salt);
  mp_passphrase_free(pp);
  mp_passphrase_free(again);
}

static void test_crypto_passphrase_resolve(void) {
  char *pass = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_passphrase_resolve(NULL, NULL, &pass, &err) == MP_ENOENT);
  CHECK(pass == NULL);
  CHECK_CONTAINS(err.msg, "PULUMI_CONFIG_PASSPHRASE or "
                          "PULUMI_CONFIG_PASSPHRASE_FILE");

  CHECK(mp_passphrase_resolve("", NULL, &pass, &err) == 0);
  CHECK_STR(pass, ""); /* empty is a valid phrase */
  free(pass);

  char path[] = "/tmp/mp_test_passphrase_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(write(fd, "  from file \n\n", 14) == 14);
  close(fd);
  CHECK(mp_passphrase_resolve("from env", path, &pass, &err) == 0);
  CHECK_STR(pass, "from env"); /* the variable wins over the file */
  free(pass);
  CHECK(mp_passphrase_resolve(NULL, path, &pass, &err) == 0);
  CHECK_STR(pass, "from file"); /* surrounding whitespace trimmed */
  free(pass);
  unlink(path);

  mp_err_clear(&err);
  CHECK(mp_passphrase_resolve(NULL, path, &pass, &err) == MP_EIO);
  CHECK(pass == NULL);
  CHECK_CONTAINS(err.msg, "cannot read PULUMI_CONFIG_PASSPHRASE_FILE");
  CHECK_CONTAINS(err.msg, path);

  /* an empty file name means unset */
  CHECK(mp_passphrase_resolve(NULL, "", &pass, &err) == MP_ENOENT);
}

/* A source that answers |phrase| (or fails when NULL) and counts calls. */
typedef struct counted_source {
  const char *phrase;
  int calls;
} counted_source;

static int counted_get(void *ud, char **out, mp_err *err) {
  counted_source *c = ud;
  c->calls++;
  return mp_passphrase_resolve(c->phrase, NULL, out, err);
}

static void test_crypto_passphrase_open_lazy_asks_when_needed(void) {
  mp_passphrase *pp = NULL;
  mp_err err;
  counted_source none = {NULL, 0};
  mp_passphrase_source src = {counted_get, &none};
  CHECK(mp_passphrase_open_lazy(PULUMI_STATE, &src, &pp, &err) == 0);
  CHECK(none.calls == 0); /* nothing asked before a secret is touched */
  mp_err_clear(&err);
  CHECK(mp_passphrase_verify(pp, &err) == MP_ENOENT);
  CHECK_CONTAINS(err.msg, "PULUMI_CONFIG_PASSPHRASE");
  CHECK(none.calls == 1);
  mp_passphrase_free(pp);

  counted_source right = {"password", 0};
  src.ud = &right;
  CHECK(mp_passphrase_open_lazy(PULUMI_STATE, &src, &pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == 0);
  CHECK(right.calls == 1); /* asked once, then the key is kept */
  mp_passphrase_free(pp);

  /* Without a source or a passphrase there is nothing to ask. */
  CHECK(mp_passphrase_open(PULUMI_STATE, NULL, &pp, &err) == 0);
  CHECK(mp_passphrase_verify(pp, &err) == MP_ENOENT);
  mp_passphrase_free(pp);
  CHECK(mp_passphrase_create(NULL, &pp, &err) == MP_ENOENT);
  CHECK(pp == NULL);
}

int main(void) {
  RUN(test_crypto_base64_rfc4648_vectors);
  RUN(test_crypto_base64_binary_and_alphabet);
  RUN(test_crypto_base64_rejects_malformed);
  RUN(test_crypto_sha256_hex);
  RUN(test_crypto_aesgcm_roundtrip_and_format);
  RUN(test_crypto_aesgcm_fresh_nonce);
  RUN(test_crypto_aesgcm_known_answer);
  RUN(test_crypto_aesgcm_rejects_tampering_and_bad_format);
  RUN(test_crypto_passphrase_opens_pulumi_state);
  RUN(test_crypto_passphrase_derivation_matches_libcrypto);
  RUN(test_crypto_passphrase_wrong_is_detected_lazily);
  RUN(test_crypto_passphrase_empty_is_valid);
  RUN(test_crypto_passphrase_rejects_malformed_state);
  RUN(test_crypto_passphrase_create_and_reopen);
  RUN(test_crypto_passphrase_resolve);
  RUN(test_crypto_passphrase_open_lazy_asks_when_needed);
  return mp_test_summary();
}
