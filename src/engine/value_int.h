/* Internal helpers shared by the value_*.c files. */
#ifndef MP_VALUE_INT_H
#define MP_VALUE_INT_H

#include "engine/value.h"

/* Deepest nesting the decoders accept (JSON and protobuf); deeper input is
 * rejected instead of overflowing the stack. */
#define MP_VALUE_MAX_DEPTH 512

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

#endif
