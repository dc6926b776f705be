/* UTF-8 validation, byte positions for messages about files, and the
 * edit distance behind "did you mean" suggestions. */
#include "engine/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

/* The length of the well-formed sequence at |p| (at most |n| bytes
 * available), or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *p, size_t n) {
  unsigned c = p[0];
  size_t len;
  unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4;
  else
    return 0;
  if (c == 0xE0)
    lo = 0xA0; /* overlong */
  else if (c == 0xED)
    hi = 0x9F; /* surrogates */
  else if (c == 0xF0)
    lo = 0x90; /* overlong */
  else if (c == 0xF4)
    hi = 0x8F; /* above U+10FFFF */
  if (n < len || p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < len; i++)
    if (p[i] < 0x80 || p[i] > 0xBF)
      return 0;
  return len;
}

size_t mp_utf8_invalid_at(const char *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    if (p[i] < 0x80) { /* ASCII without a call: long strings are common */
      i++;
      continue;
    }
    size_t n = utf8_seq(p + i, len - i);
    if (n == 0)
      return i;
    i += n;
  }
  return len;
}

void mp_text_position(const char *text, size_t len, size_t offset, int *line,
                      int *col) {
  if (offset > len)
    offset = len;
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < offset; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\n') {
      (*line)++;
      *col = 1;
    } else if ((c & 0xC0) != 0x80) {
      (*col)++;
    }
  }
}

size_t mp_text_distance(const char *a, const char *b, int fold_case) {
  size_t n = strlen(b);
  size_t *row = mp_xcalloc(n + 1, sizeof(*row));
  for (size_t j = 0; j <= n; j++) row[j] = j;
  for (size_t i = 1; a[i - 1]; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= n; j++) {
      size_t up = row[j];
      char x = a[i - 1], y = b[j - 1];
      if (fold_case && x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
      if (fold_case && y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
      size_t best = diag + (x == y ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  size_t d = row[n];
  free(row);
  return d;
}

char *mp_text_file_first_line(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  char buf[512];
  char *line = fgets(buf, sizeof(buf), f) ? mp_xstrdup(buf) : NULL;
  fclose(f);
  if (line)
    line[strcspn(line, "\r\n")] = '\0';
  return line;
}
