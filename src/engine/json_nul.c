/* NUL characters through cJSON (json_nul.h). */
#include "engine/json_nul.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

#define MARK "\xEF\xB7\x90" /* U+FDD0 in UTF-8 */
#define MARK_LEN 3

static int hex4(const char *p, size_t left, unsigned *cp) {
  if (left < 4)
    return 0;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0)
      return 0;
    v = v * 16 + (unsigned)d;
  }
  *cp = v;
  return 1;
}

/* The first '\\' or marker lead byte at or after |i| in |t| (|len| if
 * none). *bs and *mk keep where each was last found (SIZE_MAX: not
 * looked for yet), so that memchr, which scans a word or a vector at a
 * time, goes over each byte at most once per character. */
static size_t next_special(const char *t, size_t i, size_t len, size_t *bs,
                           size_t *mk) {
  if (*bs == SIZE_MAX || *bs < i) {
    const char *q = memchr(t + i, '\\', len - i);
    *bs = q ? (size_t)(q - t) : len;
  }
  if (*mk == SIZE_MAX || *mk < i) {
    const char *q = memchr(t + i, MARK[0], len - i);
    *mk = q ? (size_t)(q - t) : len;
  }
  return *bs < *mk ? *bs : *mk;
}

/* Finds in JSON text |t| each "\u0000" and "\ufdd0" escape and each raw
 * marker (other escapes, a "\\" before "u0000" included, are skipped
 * whole) and, when |out| is not NULL, writes the marked text there: each
 * one followed by '0' (a NUL) or '1' (a marker), one byte more. Returns how
 * many it found whose marked position is before |limit|. */
static size_t walk(const char *t, size_t len, mp_buf *out, size_t limit) {
  size_t n = 0, from = 0, bs = SIZE_MAX, mk = SIZE_MAX;
  for (size_t i = 0; i < len && i + n < limit;) {
    /* Most bytes start neither an escape nor a marker: skip them cheaply,
     * a 100 MiB string goes through here, and so does every state row. */
    size_t next = next_special(t, i, len, &bs, &mk);
    if (next != i) {
      i = next;
      continue;
    }
    unsigned cp = 1;
    size_t w;
    if (t[i] == '\\' && i + 1 < len && t[i + 1] == 'u' &&
        hex4(t + i + 2, len - i - 2, &cp) && (cp == 0 || cp == 0xFDD0)) {
      w = 6;
    } else if (t[i] == '\\') {
      i += 2;
      continue;
    } else if (len - i >= MARK_LEN && memcmp(t + i, MARK, MARK_LEN) == 0) {
      w = MARK_LEN;
    } else {
      i++;
      continue;
    }
    n++;
    if (out) {
      mp_buf_append(out, t + from, i - from);
      mp_buf_puts(out, w == 6 ? "\\ufdd0" : MARK);
      mp_buf_putc(out, cp == 0 ? '0' : '1');
    }
    i += w;
    from = i;
  }
  if (out)
    mp_buf_append(out, t + from, len - from);
  return n;
}

cJSON *mp__cjson_parse(const char *text, size_t len, const char **end) {
  const char *stop = NULL;
  if (walk(text, len, NULL, (size_t)-1) == 0) {
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &stop, 0);
    if (end)
      *end = stop;
    return j;
  }
  mp_buf b;
  mp_buf_init(&b);
  walk(text, len, &b, (size_t)-1);
  cJSON *j = cJSON_ParseWithLengthOpts(b.data, b.len, &stop, 0);
  if (end) {
    /* Back to |text|: less the markers written before the stop. */
    size_t off = stop && stop >= b.data ? (size_t)(stop - b.data) : 0;
    size_t o = off - walk(text, len, NULL, off);
    *end = text + (o > len ? len : o);
  }
  mp_buf_destroy(&b);
  return j;
}

/* 1 if the |len| bytes at |s| hold the marker. */
static int has_mark(const char *s, size_t len) {
  const char *end = s + len;
  for (const char *p = s; (p = memchr(p, MARK[0], (size_t)(end - p)));
       p++)
    if ((size_t)(end - p) >= MARK_LEN && memcmp(p, MARK, MARK_LEN) == 0)
      return 1;
  return 0;
}

char *mp__json_stuff(const char *s, size_t len) {
  if (memchr(s, '\0', len) == NULL && !has_mark(s, len))
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < len;) {
    if (s[i] == '\0') {
      mp_buf_append(&b, MARK "0", MARK_LEN + 1);
      i++;
    } else if (len - i >= MARK_LEN && memcmp(s + i, MARK, MARK_LEN) == 0) {
      mp_buf_append(&b, MARK "1", MARK_LEN + 1);
      i += MARK_LEN;
    } else {
      mp_buf_putc(&b, s[i++]);
    }
  }
  char *r = mp_xstrndup(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  return r;
}

size_t mp__json_unstuff(const char *s, char **out) {
  *out = NULL;
  if (strstr(s, MARK) == NULL)
    return 0;
  size_t len = strlen(s), n = 0;
  char *r = mp_xmalloc(len + 1);
  for (size_t i = 0; i < len;) {
    if (len - i > MARK_LEN && memcmp(s + i, MARK, MARK_LEN) == 0 &&
        (s[i + MARK_LEN] == '0' || s[i + MARK_LEN] == '1')) {
      if (s[i + MARK_LEN] == '0') {
        r[n++] = '\0';
      } else {
        memcpy(r + n, MARK, MARK_LEN);
        n += MARK_LEN;
      }
      i += MARK_LEN + 1;
    } else {
      r[n++] = s[i++];
    }
  }
  r[n] = '\0';
  *out = r;
  return n;
}

char *mp__json_plain(const char *s) {
  if (s == NULL)
    return NULL;
  char *out = NULL;
  mp__json_unstuff(s, &out);
  return out ? out : mp_xstrdup(s);
}

char *mp__json_unstuff_text(const char *printed) {
  mp_buf b;
  mp_buf_init(&b);
  size_t len = strlen(printed);
  for (size_t i = 0; i < len;) {
    if (len - i > MARK_LEN && memcmp(printed + i, MARK, MARK_LEN) == 0 &&
        (printed[i + MARK_LEN] == '0' || printed[i + MARK_LEN] == '1')) {
      if (printed[i + MARK_LEN] == '0')
        mp_buf_append(&b, "\\u0000", 6);
      else
        mp_buf_append(&b, MARK, MARK_LEN);
      i += MARK_LEN + 1;
    } else {
      mp_buf_putc(&b, printed[i++]);
    }
  }
  char *out = mp_buf_detach(&b, NULL);
  return out ? out : mp_xstrdup("");
}
