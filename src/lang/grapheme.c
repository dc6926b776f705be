/* Counting the user-perceived characters (extended grapheme clusters,
 * Unicode UAX #29) of a UTF-8 string, as fn::length does in Pulumi YAML.
 * ICU's character break iterator implements the whole rule set (emoji ZWJ
 * sequences, flag pairs, Indic conjuncts); Debian's libunistring 1.0 still
 * splits the first two. */
#include "lang/lang_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>

size_t mp__grapheme_count(const char *s, size_t n) {
  UErrorCode st = U_ZERO_ERROR;
  UText *text = utext_openUTF8(NULL, s, (int64_t)n, &st);
  UBreakIterator *it = ubrk_open(UBRK_CHARACTER, "", NULL, 0, &st);
  if (U_SUCCESS(st)) ubrk_setUText(it, text, &st);
  if (U_FAILURE(st)) { /* only when out of memory, as mp_xmalloc aborts */
    fprintf(stderr, "minipulumi: ICU's break iterator failed: %s\n",
            u_errorName(st));
    abort();
  }
  size_t count = 0;
  ubrk_first(it);
  while (ubrk_next(it) != UBRK_DONE) count++;
  ubrk_close(it);
  utext_close(text);
  return count;
}
