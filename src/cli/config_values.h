/* Configuration values (config_values.c): keys, decoding and encrypting,
 * and the configuration a deployment gets; above the secrets. */
#ifndef MP_CLI_CONFIG_VALUES_H
#define MP_CLI_CONFIG_VALUES_H

#include <stddef.h>

#include "cli/ctx.h"
#include "engine/crypto.h"
#include "engine/err.h"
#include "engine/value.h"

/* Splits a user key (`name`, `ns:name`, with --path `ns:a.b[0]`) into the
 * full key ("<ns>:<name>", owned) and, with |path|, the path below it
 * (owned, NULL if none). Returns 0 or MP_EINVAL. */
int mp_cli_config_key(const mp_ctx *ctx, const char *key, int path,
                      char **full, char **rest, mp_err *err);
/* Decodes one stored config value: secure objects are decrypted with |pp|
 * (required if there are any) into SECRET strings; objects and arrays are
 * decoded recursively. Sets *out (owned). */
int mp_cli_config_decode(const mp_value *stored, mp_passphrase *pp,
                         mp_value **out, mp_err *err);
/* The configuration the engine gets: project defaults, then the stack's
 * file, secrets decrypted and wrapped. *out: OBJECT (owned). */
int mp_cli_config_build(mp_ctx *ctx, const char *stack, mp_value **out,
                        mp_err *err);
/* Encrypts |plain| into a `{secure: "v1:..."}` object (owned). */
int mp_cli_config_encrypt(mp_passphrase *pp, const char *plain, size_t len,
                          mp_value **out, mp_err *err);
/* Re-encrypts the secure values under |v| (in place) from |from| to |to|
 * (stack init --copy-config-from). */
int mp_cli_config_reencrypt(mp_value *v, mp_passphrase *from,
                            mp_passphrase *to, mp_err *err);
/* Applies `key=value` pairs (`-c`) to the stack's file as plain values;
 * with |path| (--config-path) each key is a property path. Returns 0 or
 * MP_EINVAL / MP_EIO. */
int mp_cli_config_apply_pairs(mp_ctx *ctx, const char *stack,
                              const mp_strv *pairs, int path, mp_err *err);

#endif
