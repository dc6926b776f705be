/* Internal: value <-> cJSON tree conversion, for code that embeds values in
 * larger JSON documents (the checkpoint writer and reader in
 * resource_json.c) without going through text. Not part of the public
 * value.h contract because it exposes cJSON types. */
#ifndef MP_VALUE_JSON_INT_H
#define MP_VALUE_JSON_INT_H

#include <cjson/cJSON.h>

#include "engine/value.h"

/* Builds the checkpoint JSON tree of |v| into *out
 * (caller owns it; free with cJSON_Delete). A NULL |v| becomes JSON null.
 * Secrets are encrypted with |c| unless |flags| has MP_JSON_SHOW_SECRETS
 * (then written as "plaintext"); |c| may be NULL only if no secret needs
 * encrypting. Unknowns become the sentinel string. Returns 0 or an MP_E
 * code with |err| set (nothing is stored in *out on failure). */
int mp__value_to_cjson(const mp_value *v, const mp_crypter *c, unsigned flags,
                       cJSON **out, mp_err *err);

/* Decodes the checkpoint JSON tree |j| (borrowed) into a new value in *out,
 * decoding the signature objects: secrets (ciphertext decrypted with |c|,
 * an error if |c| is NULL; plaintext always accepted), assets, archives,
 * resource references, output values, the unknown sentinel string and the
 * non-finite number encoding. Returns 0 or MP_EINVAL with |err| naming the
 * problem (or the crypter's error code). */
int mp__value_from_cjson(const cJSON *j, const mp_crypter *c, mp_value **out,
                         mp_err *err);

/* Appends the JSON text of the tree |j| to |out|: compact, or with
 * MP_JSON_PRETTY two-space indentation (Go's json.MarshalIndent layout).
 * Numbers are written without a fraction when integral and otherwise in
 * the shortest form that reads back to the same double; raw items are
 * copied verbatim. Keys are written in the tree's order. */
void mp__cjson_print(const cJSON *j, unsigned flags, mp_buf *out);

#endif
