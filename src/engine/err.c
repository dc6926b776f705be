#include "engine/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

void mp_err_clear(mp_err *err) {
  if (err == NULL) return;
  err->code = 0;
  err->msg[0] = '\0';
}

int mp_err_set(mp_err *err, int code, const char *fmt, ...) {
  if (err == NULL) return code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
  va_end(ap);
  err->code = code;
  return code;
}

int mp_err_prefix(mp_err *err, const char *fmt, ...) {
  if (err == NULL) return MP_EINVAL;
  char prefix[256];
  char old[sizeof(err->msg)];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof(prefix), fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof(old));
  size_t plen = strlen(prefix);
  if (plen > sizeof(err->msg) - 3) plen = sizeof(err->msg) - 3;
  memcpy(err->msg, prefix, plen);
  memcpy(err->msg + plen, ": ", 2);
  size_t room = sizeof(err->msg) - plen - 3;
  size_t olen = strnlen(old, sizeof(old) - 1);
  if (olen > room) olen = room;
  memcpy(err->msg + plen + 2, old, olen);
  err->msg[plen + 2 + olen] = '\0';
  return err->code;
}

int mp_err_from_uv(mp_err *err, int uvrc, const char *fmt, ...) {
  char ctx[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof(ctx), fmt, ap);
  va_end(ap);
  return mp_err_set(err, MP_EIO, "%s: %s", ctx, uv_strerror(uvrc));
}

void mp__bug(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "BUG: %s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}
