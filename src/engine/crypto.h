/* Pulumi's passphrase secrets provider
 * (tests/conformance/scenarios/S16-secrets.scn, README.md "Secrets"):
 * PBKDF2-HMAC-SHA256 (1,000,000 iterations, 8-byte salt, 32-byte key)
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

/* The two places a user gives the passphrase, by the names of Pulumi's
 * environment variables; the CLI reads them, messages name them. */
#define MP_PASSPHRASE_VAR "PULUMI_CONFIG_PASSPHRASE"
#define MP_PASSPHRASE_FILE_VAR "PULUMI_CONFIG_PASSPHRASE_FILE"

/* The passphrase from the values of the two variables (NULL: unset):
 * |phrase| when set (empty is a valid passphrase), else the contents of
 * the file |file| names (an empty name is unset), trimmed of surrounding
 * white space as Pulumi does. Returns 0 with an owned string in *out,
 * MP_ENOENT with a message naming both variables when neither is set, or
 * MP_EIO / MP_EINVAL when the file cannot be read or is too large. */
int mp_passphrase_resolve(const char *phrase, const char *file, char **out,
                          mp_err *err);

/* Where a manager gets its passphrase when it first needs one: fills *out
 * (owned) and returns 0, or returns an MP_E code with |err| set. */
typedef struct mp_passphrase_source {
  int (*get)(void *ud, char **out, mp_err *err);
  void *ud;
} mp_passphrase_source;

/* A manager for an existing salt state |salt_state| ("v1:..."). The key is
 * derived lazily, on the first encrypt/decrypt, and the passphrase is
 * checked then against the encrypted "pulumi" (MP_EINVAL "incorrect
 * passphrase" when wrong). |passphrase| NULL means: none known (the first
 * encrypt/decrypt fails with MP_ENOENT). Sets *out. */
int mp_passphrase_open(const char *salt_state, const char *passphrase,
                       mp_passphrase **out, mp_err *err);
/* As mp_passphrase_open, but the passphrase is asked of |src| (copied)
 * only when first needed, so that a stack whose secrets are never touched
 * needs none. */
int mp_passphrase_open_lazy(const char *salt_state,
                            const mp_passphrase_source *src,
                            mp_passphrase **out, mp_err *err);
/* A manager with a fresh random salt for |passphrase| (required); its
 * state is available from mp_passphrase_state. Derives the key now. */
int mp_passphrase_create(const char *passphrase, mp_passphrase **out,
                         mp_err *err);
/* The salt state string (borrowed, valid while |pp| lives). */
const char *mp_passphrase_state(const mp_passphrase *pp);
/* Checks the passphrase now (derives the key). 0 or MP_EINVAL. */
int mp_passphrase_verify(mp_passphrase *pp, mp_err *err);
/* Starts deriving the key on a thread of its own, when the passphrase is
 * known (or its source gives it now) and the key not yet derived: the derivation (a million HMACs,
 * about 0.15 s) then overlaps whatever the caller does until the key is
 * first needed (mp_passphrase_verify, the crypter's ready, encrypt or
 * decrypt), which waits for it. Calls on |pp| stay on the caller's
 * thread. */
void mp_passphrase_derive_ahead(mp_passphrase *pp);
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
