#include "engine/mem.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n) {
  fprintf(stderr, "minipulumi: out of memory allocating %zu bytes\n", n);
  abort();
}

void *mp_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (p == NULL) oom(n);
  return p;
}

void *mp_xcalloc(size_t nmemb, size_t size) {
  void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
  if (p == NULL) oom(nmemb * size);
  return p;
}

void *mp_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) oom(n);
  return q;
}

void *mp_xreallocarray(void *p, size_t nmemb, size_t size) {
  if (size != 0 && nmemb > SIZE_MAX / size) oom(SIZE_MAX);
  return mp_xrealloc(p, nmemb * size);
}

char *mp_xstrdup(const char *s) {
  if (s == NULL) return NULL;
  return mp_xstrndup(s, strlen(s));
}

char *mp_xstrndup(const char *s, size_t n) {
  char *p = mp_xmalloc(n + 1);
  if (n) memcpy(p, s, n); /* |s| may be NULL when |n| is 0 (an empty bytes field) */
  p[n] = '\0';
  return p;
}

char *mp_xvasprintf(const char *fmt, va_list ap) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_vprintf(&b, fmt, ap);
  return mp_buf_detach(&b, NULL);
}

char *mp_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = mp_xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

void mp_buf_init(mp_buf *b) { memset(b, 0, sizeof(*b)); }

void mp_buf_destroy(mp_buf *b) {
  free(b->data);
  memset(b, 0, sizeof(*b));
}

void mp_buf_reset(mp_buf *b) {
  b->len = 0;
  if (b->data) b->data[0] = '\0';
}

static void buf_grow(mp_buf *b, size_t extra) {
  if (b->len + extra < b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap <= b->len + extra) {
    if (cap > SIZE_MAX / 2) oom(SIZE_MAX);
    cap *= 2;
  }
  b->data = mp_xrealloc(b->data, cap);
  b->cap = cap;
}

void mp_buf_append(mp_buf *b, const void *p, size_t n) {
  buf_grow(b, n);
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void mp_buf_puts(mp_buf *b, const char *s) { mp_buf_append(b, s, strlen(s)); }

void mp_buf_putc(mp_buf *b, char c) { mp_buf_append(b, &c, 1); }

void mp_buf_vprintf(mp_buf *b, const char *fmt, va_list ap) {
  /* Formatted once into the room there is (made at least 64 bytes); a
   * second time only when that was too small. */
  buf_grow(b, 0);
  size_t room = b->cap - b->len;
  va_list cp;
  va_copy(cp, ap);
  int n = vsnprintf(b->data + b->len, room, fmt, cp);
  va_end(cp);
  if (n < 0) {
    b->data[b->len] = '\0';
    return;
  }
  if ((size_t)n >= room) {
    buf_grow(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  }
  b->len += (size_t)n;
}

void mp_buf_printf(mp_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mp_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

char *mp_buf_detach(mp_buf *b, size_t *len) {
  char *p = b->data;
  if (p == NULL) p = mp_xstrdup("");
  if (len) *len = b->len;
  mp_buf_init(b);
  return p;
}

void mp_strv_init(mp_strv *v) { memset(v, 0, sizeof(*v)); }

void mp_strv_destroy(mp_strv *v) {
  for (size_t i = 0; i < v->len; i++) free(v->items[i]);
  free(v->items);
  memset(v, 0, sizeof(*v));
}

void mp_strv_push_take(mp_strv *v, char *s) {
  if (v->len == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 4;
    v->items = mp_xreallocarray(v->items, v->cap, sizeof(*v->items));
  }
  v->items[v->len++] = s;
}

void mp_strv_push(mp_strv *v, const char *s) { mp_strv_push_take(v, mp_xstrdup(s)); }

int mp_strv_contains(const mp_strv *v, const char *s) {
  for (size_t i = 0; i < v->len; i++)
    if (strcmp(v->items[i], s) == 0) return 1;
  return 0;
}

void mp_strv_copy(mp_strv *dst, const mp_strv *src) {
  for (size_t i = 0; i < src->len; i++) mp_strv_push(dst, src->items[i]);
}

int mp_strv_set_equal(const mp_strv *a, const mp_strv *b) {
  for (size_t i = 0; i < a->len; i++)
    if (!mp_strv_contains(b, a->items[i])) return 0;
  for (size_t i = 0; i < b->len; i++)
    if (!mp_strv_contains(a, b->items[i])) return 0;
  return 1;
}

void mp_strv_remove_at(mp_strv *v, size_t i) {
  if (i >= v->len) return;
  free(v->items[i]);
  memmove(&v->items[i], &v->items[i + 1], (v->len - i - 1) * sizeof(*v->items));
  v->len--;
}
