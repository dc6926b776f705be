/* Pulumi's passphrase secrets provider (ANCHORS.md section 5, BEHAVIOUR.md
 * C.6): PBKDF2-HMAC-SHA256 (1,000,000 iterations, 8-byte salt, 32-byte key)
 * and AES-256-GCM with a fresh 12-byte nonce per value, written as
 * `v1:<b64 nonce>:<b64 ciphertext+tag>`. The salt state
 * `v1:<b64 salt>:<v1-encrypted "pulumi">` detects a wrong passphrase. */
#ifndef MP_CRYPTO_H
#define MP_CRYPTO_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"

typedef struct mp_passphrase mp_passphrase;

/* Reads the passphrase from PULUMI_CONFIG_PASSPHRASE, else from the file
 * named by PULUMI_CONFIG_PASSPHRASE_FILE. Returns 0 with an owned string in
 * *out, or MP_ENOENT with a message naming both variables. */
int mp_passphrase_from_env(char **out, mp_err *err);

/* A manager for an existing salt state |salt_state| ("v1:..."). The key is
 * derived lazily, on the first encrypt/decrypt, and the passphrase is
 * checked then against the encrypted "pulumi" (MP_EINVAL "incorrect
 * passphrase" when wrong). |passphrase| NULL means: read it from the
 * environment when first needed. Sets *out. */
int mp_passphrase_open(const char *salt_state, const char *passphrase,
                       mp_passphrase **out, mp_err *err);
/* A manager with a fresh random salt; its state is available from
 * mp_passphrase_state. Derives the key now. */
int mp_passphrase_create(const char *passphrase, mp_passphrase **out,
                         mp_err *err);
/* The salt state string (borrowed, valid while |pp| lives). */
const char *mp_passphrase_state(const mp_passphrase *pp);
/* Checks the passphrase now (derives the key). 0 or MP_EINVAL. */
int mp_passphrase_verify(mp_passphrase *pp, mp_err *err);
void mp_passphrase_free(mp_passphrase *pp);
/* A crypter backed by |pp| (borrowed; |pp| must outlive it). */
mp_crypter mp_passphrase_crypter(mp_passphrase *pp);

/* Low-level, exposed for tests and config files. Each appends its result
 * to |out|; on failure |out| is left as it was. */
int mp_aesgcm_encrypt(const unsigned char key[32], const char *plain,
                      size_t len, mp_buf *out, mp_err *err);
int mp_aesgcm_decrypt(const unsigned char key[32], const char *cipher,
                      size_t len, mp_buf *out, mp_err *err);
void mp_base64_encode(const unsigned char *p, size_t n, mp_buf *out);
int mp_base64_decode(const char *s, size_t n, mp_buf *out, mp_err *err);
/* Lowercase hex SHA-256 of |p|; |hex| holds 65 bytes. */
void mp_sha256_hex(const void *p, size_t n, char hex[65]);

#endif
