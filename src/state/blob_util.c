/* Helpers shared by the S3 and Azure Blob objects of a DIY store
 * (blob_util.h). */
#include "state/blob_util.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <libxml/parser.h>

static int hexval(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *mp__url_unescape(const char *s, size_t n) {
  char *out = mp_xcalloc(1, n + 1);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 &&
        hexval(s[i + 2]) >= 0) {
      out[j++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
      i += 2;
    } else {
      out[j++] = s[i] == '+' ? ' ' : s[i];
    }
  }
  return out;
}

int mp__go_parse_bool(const char *v, int *out) {
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
  static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False"};
  for (size_t i = 0; i < 6; i++) {
    if (strcmp(v, yes[i]) == 0)
      return *out = 1, 0;
    if (strcmp(v, no[i]) == 0)
      return *out = 0, 0;
  }
  return -1;
}

char *mp__url_encode(const char *s, int keep_slash) {
  mp_buf b;
  mp_buf_init(&b);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~' ||
        (keep_slash && *p == '/'))
      mp_buf_putc(&b, (char)*p);
    else
      mp_buf_printf(&b, "%%%02X", *p);
  }
  return mp_buf_detach(&b, NULL);
}

int mp__prefix_check(const char *url, const char *prefix, mp_err *err) {
  for (const char *seg = prefix; *seg;) {
    size_t n = strcspn(seg, "/");
    if ((n == 1 && seg[0] == '.') || (n == 2 && !strncmp(seg, "..", 2)))
      return mp_err_set(err, MP_EINVAL,
                        "the key prefix '%s' of '%s' has a '%.*s' segment, "
                        "which would name objects outside it; give a prefix "
                        "without '.' or '..' parts",
                        prefix, url, (int)n, seg);
    seg += n;
    while (*seg == '/')
      seg++;
  }
  return 0;
}

static pthread_once_t http_once = PTHREAD_ONCE_INIT;
static void http_init_once(void) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  xmlInitParser();
}

void mp__http_init(void) { pthread_once(&http_once, http_init_once); }

size_t mp__http_on_body(char *p, size_t size, size_t n, void *ud) {
  mp_buf *b = ud;
  if (size * n > MP_BLOB_MAX_BODY - b->len)
    return 0;
  mp_buf_append(b, p, size * n);
  return size * n;
}

void mp__http_header(const char *line, size_t n, const char *name, char *out,
                     size_t cap) {
  size_t nl = strlen(name);
  if (n <= nl + 1 || strncasecmp(line, name, nl) != 0 || line[nl] != ':')
    return;
  const char *v = line + nl + 1;
  const char *end = line + n;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' '))
    end--;
  snprintf(out, cap, "%.*s", (int)(end - v), v);
}

xmlDoc *mp__xml_parse(const mp_buf *b) {
  if (b->len == 0)
    return NULL;
  return xmlReadMemory(b->data, (int)b->len, "answer.xml", NULL,
                       XML_PARSE_NONET | XML_PARSE_NOERROR |
                           XML_PARSE_NOWARNING);
}

xmlNode *mp__xml_child(xmlNode *node, const char *name) {
  for (xmlNode *n = node ? node->children : NULL; n; n = n->next)
    if (n->type == XML_ELEMENT_NODE &&
        strcmp((const char *)n->name, name) == 0)
      return n;
  return NULL;
}

char *mp__xml_text(xmlNode *n) {
  if (n == NULL)
    return NULL;
  xmlChar *t = xmlNodeGetContent(n);
  char *out = mp_xstrdup(t ? (const char *)t : "");
  xmlFree(t);
  return out;
}
