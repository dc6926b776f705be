/* Internal helpers shared by the value_*.c files. */
#ifndef MP_VALUE_INT_H
#define MP_VALUE_INT_H

#include "engine/value.h"

/* Deepest nesting the decoders accept (JSON and protobuf); deeper input is
 * rejected instead of overflowing the stack. */
#define MP_VALUE_MAX_DEPTH 512

/* The signature of the checkpoint's encoding of non-finite numbers. */
#define MP__SIG_NONFINITE "8ad145fe-0d11-4827-bfd7-1abcbf086f5c"

/* How mp__value_decode_sigs reads a codec's plain tree. */
typedef struct mp__sig_opts {
  int code;       /* the error code: MP_EINVAL (checkpoint), MP_EPROTO (wire) */
  int checkpoint; /* the checkpoint's encoding: secrets as JSON text in
                     "ciphertext" (decrypted with |crypter|) or "plaintext";
                     non-finite numbers and byte strings. Otherwise the
                     gRPC wire's: a secret's "value" */
  int top_fields; /* the top is a property map: its own keys are never a
                     signature object (a protobuf Struct) */
  const mp_crypter *crypter; /* checkpoint; may be NULL */
} mp__sig_opts;

/* The signature-decoding pass that the JSON and protobuf codecs share.
 * |plain| (taken) is a tree of NULL, BOOL, NUMBER, STRING, ARRAY and
 * OBJECT nodes as the codec read them; signature objects become secrets,
 * assets, archives, resource references and output values (absent
 * "value": unknown), and the unknown sentinel string becomes UNKNOWN.
 * Returns 0 with *out, or o->code (or the crypter's code) with |err|
 * naming the property path: an unrecognized signature, a malformed
 * special object, nesting deeper than MP_VALUE_MAX_DEPTH. */
int mp__value_decode_sigs(mp_value *plain, const mp__sig_opts *o,
                          mp_value **out, mp_err *err);

/* Parses JSON text into a plain tree (no signatures decoded) in *out.
 * Returns 0 or -1 when |text| is not JSON. */
int mp__value_plain_from_json(const char *text, size_t len, mp_value **out);

/* With MP_VALUE_EQ_IGNORE_SECRETS in |flags|, skips SECRET wrappers and
 * known OUTPUT wrappers and returns the value underneath (borrowed);
 * otherwise returns |v|. An unknown OUTPUT is returned as is. */
const mp_value *mp__value_unwrap(const mp_value *v, unsigned flags);

/* 1 if |v| is NULL or an empty OBJECT or a NULL value. */
int mp__value_is_absent(const mp_value *v);

/* Removes element |i| of ARRAY |arr| and returns it (caller owns it). */
mp_value *mp__value_array_take(mp_value *arr, size_t i);

/* Replaces element |i| of ARRAY |arr| with |v| (taking ownership of it) and
 * frees the old element. */
void mp__value_array_replace(mp_value *arr, size_t i, mp_value *v);

/* Sets |err| to |code| for a value that cannot be decoded: "invalid
 * property value[ at '<path>']: <msg>", a long path shortened in the
 * middle. Returns |code|. */
int mp__value_dec_fail(const mp_buf *path, int code, mp_err *err,
                       const char *msg);

/* Appends key |k| to the property path text in |b|: `.k` (`k` when
 * |first|), or `["k"]` with `"` and `\` escaped when the key is empty,
 * `*`, or holds one of `.[]"\`. */
void mp__path_append_key(mp_buf *b, const char *k, int first);

#endif
