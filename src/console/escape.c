#include "console/escape.h"

#include <string.h>

void mp_html_put(mp_buf *b, const char *s) {
  if (s == NULL)
    return;
  for (; *s; s++) {
    switch (*s) {
    case '&':
      mp_buf_puts(b, "&amp;");
      break;
    case '<':
      mp_buf_puts(b, "&lt;");
      break;
    case '>':
      mp_buf_puts(b, "&gt;");
      break;
    case '"':
      mp_buf_puts(b, "&quot;");
      break;
    case '\'':
      mp_buf_puts(b, "&#39;");
      break;
    default:
      mp_buf_putc(b, *s);
    }
  }
}

void mp_url_put(mp_buf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  if (s == NULL)
    return;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
        (*p >= '0' && *p <= '9') || strchr("-._~", *p)) {
      mp_buf_putc(b, (char)*p);
    } else {
      mp_buf_putc(b, '%');
      mp_buf_putc(b, hex[*p >> 4]);
      mp_buf_putc(b, hex[*p & 15]);
    }
  }
}

char *mp_json_text(const cJSON *j, size_t *len) {
  char *text = cJSON_PrintUnformatted(j);
  mp_buf b;
  mp_buf_init(&b);
  for (const char *p = text ? text : "null"; *p; p++) {
    switch (*p) {
    case '<':
      mp_buf_puts(&b, "\\u003c");
      break;
    case '>':
      mp_buf_puts(&b, "\\u003e");
      break;
    case '&':
      mp_buf_puts(&b, "\\u0026");
      break;
    default:
      mp_buf_putc(&b, *p);
    }
  }
  mp_buf_putc(&b, '\n');
  cJSON_free(text);
  return mp_buf_detach(&b, len);
}
