/* NUL characters through cJSON. cJSON's strings and keys are C strings: a
 * "\u0000" in JSON text would end the string. The value decoders parse
 * through mp__cjson_parse, which first rewrites each "\u0000" as a marker
 * (the noncharacter U+FDD0 followed by '0') and each marker already in the
 * text as U+FDD0 followed by '1'; mp__json_unstuff turns a string of the
 * tree back into its bytes. The encoder marks the same way the keys that
 * hold a NUL or a marker (MP__CJSON_KEY_STUFFED on the item), and the
 * printer writes them back as the bytes they stand for. */
#ifndef MP_ENGINE_JSON_NUL_H
#define MP_ENGINE_JSON_NUL_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* An item flag above cJSON's own: its key (->string) is marked. */
#define MP__CJSON_KEY_STUFFED (1 << 12)

/* cJSON_ParseWithLengthOpts over |text| (|len| bytes) with the NULs
 * marked; *end (may be NULL) is where parsing stopped, in |text|. */
cJSON *mp__cjson_parse(const char *text, size_t len, const char **end);

/* The marked form of |s| (|len| bytes; owned, NUL-terminated), or NULL
 * when |s| holds neither a NUL nor a marker (then it is its own form). */
char *mp__json_stuff(const char *s, size_t len);

/* The bytes a marked C string |s| stands for: an owned copy in *out and
 * its length, or 0 with *out NULL when |s| holds no marker (its bytes are
 * its own). */
size_t mp__json_unstuff(const char *s, char **out);

/* An owned copy of marked C string |s| as a C string: the markers undone,
 * ending at the first NUL it stands for (a field that is no property
 * value cannot hold one). NULL for NULL. */
char *mp__json_plain(const char *s);

/* JSON text printed from (part of) a tree that mp__cjson_parse read, with
 * the markers undone: a NUL written back as \u0000. Owned. */
char *mp__json_unstuff_text(const char *printed);

#endif
