/* Text read from files: a file's first line, UTF-8 validity, positions. */
#ifndef MP_TEXT_H
#define MP_TEXT_H

#include <stddef.h>

/* The offset of the first byte of |s| (|len| bytes) that does not belong
 * to a well-formed UTF-8 sequence (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF; a truncated sequence at the end is
 * invalid), or |len| when all of it is valid. Any thread. */
size_t mp_utf8_invalid_at(const char *s, size_t len);

/* The 1-based line and column of byte |offset| in |text| (|len| bytes);
 * columns count characters (UTF-8 lead bytes), as YAML marks do. An
 * offset past the end is clamped to it. Any thread. */
void mp_text_position(const char *text, size_t len, size_t offset, int *line,
                      int *col);

/* The Levenshtein distance between |a| and |b| (|fold_case|: ASCII
 * letters compare without case), for "did you mean" suggestions. */
size_t mp_text_distance(const char *a, const char *b, int fold_case);

/* The first line of the file at |path| (owned, without its newline; at
 * most 511 bytes), or NULL when it cannot be read or is empty. */
char *mp_text_file_first_line(const char *path);

#endif
