/* Checked allocation, growable byte buffers and string vectors. */
#ifndef MP_MEM_H
#define MP_MEM_H

#include <stdarg.h>
#include <stddef.h>

#define MP_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define mp_container_of(ptr, type, member) \
  ((type *)((char *)(ptr) - offsetof(type, member)))

/* Allocation wrappers: print the size and abort on OOM, never return NULL. */
void *mp_xmalloc(size_t n);
void *mp_xcalloc(size_t nmemb, size_t size);
void *mp_xrealloc(void *p, size_t n);
void *mp_xreallocarray(void *p, size_t nmemb, size_t size);
char *mp_xstrdup(const char *s);           /* NULL in, NULL out */
char *mp_xstrndup(const char *s, size_t n);
char *mp_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *mp_xvasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

/* A growable byte buffer; |data| is always NUL-terminated when non-NULL.
 * Invariant: len < cap whenever data != NULL. */
typedef struct mp_buf {
  char *data;
  size_t len;
  size_t cap;
} mp_buf;

void mp_buf_init(mp_buf *b);
void mp_buf_destroy(mp_buf *b);
void mp_buf_reset(mp_buf *b); /* len = 0, keeps the storage */
void mp_buf_append(mp_buf *b, const void *p, size_t n);
void mp_buf_puts(mp_buf *b, const char *s);
void mp_buf_putc(mp_buf *b, char c);
void mp_buf_printf(mp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void mp_buf_vprintf(mp_buf *b, const char *fmt, va_list ap);
/* Returns the NUL-terminated contents ("" if empty); you now own the
 * storage, and |b| is reset to empty. */
char *mp_buf_detach(mp_buf *b, size_t *len);

/* A vector of owned strings. */
typedef struct mp_strv {
  char **items;
  size_t len;
  size_t cap;
} mp_strv;

void mp_strv_init(mp_strv *v);
void mp_strv_destroy(mp_strv *v);
void mp_strv_push(mp_strv *v, const char *s);      /* copies |s| */
void mp_strv_push_take(mp_strv *v, char *s);       /* takes ownership */
int mp_strv_contains(const mp_strv *v, const char *s);
void mp_strv_copy(mp_strv *dst, const mp_strv *src); /* dst must be empty */
/* Set equality (order and duplicates ignored). */
int mp_strv_set_equal(const mp_strv *a, const mp_strv *b);
void mp_strv_remove_at(mp_strv *v, size_t i);

#endif
