/* The check of Graphviz's SVG before a page embeds it (graph.h). Graphviz
 * escapes every text and attribute value it writes; this is a second
 * fence that does not trust it: a small scan of the markup that lets
 * through only the elements and attributes Graphviz draws with (no
 * script, no style, no event handler, no foreign object) and links only
 * to the console's own pages. */
#include "console/graph.h"

#include <string.h>

static const char *const elements[] = {"svg",  "g",    "title",   "polygon",
                                       "ellipse", "path", "text", "a",
                                       "polyline"};

static const char *const attributes[] = {
    "width", "height", "viewBox", "xmlns", "xmlns:xlink", "id", "class",
    "transform", "fill", "stroke", "points", "cx", "cy", "rx", "ry", "d",
    "text-anchor", "x", "y", "font-family", "font-size", "font-weight",
    "font-style", "xlink:href", "xlink:title", "target", "stroke-width",
    "stroke-dasharray", "fill-opacity", "stroke-opacity"};

static int listed(const char *const *list, size_t n, const char *s,
                  size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(list[i]) == len && !strncmp(list[i], s, len))
      return 1;
  return 0;
}

static size_t name_len(const char *s, const char *end) {
  size_t k = 0;
  while (s + k < end && (strchr("abcdefghijklmnopqrstuvwxyz"
                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_",
                                s[k]) && s[k]))
    k++;
  return k;
}

static int bad(mp_err *err, const char *what, const char *s, size_t n) {
  return mp_err_set(err, MP_EIO,
                    "the rendered graph holds %s '%.*s' the console does not "
                    "embed; not shown",
                    what, (int)(n > 40 ? 40 : n), s);
}

/* One start tag from |p| (just after '<'); returns its end, after '>'. */
static const char *start_tag(const char *p, const char *end, mp_err *err) {
  size_t k = name_len(p, end);
  if (!listed(elements, MP_ARRAY_LEN(elements), p, k)) {
    bad(err, "the element", p, k);
    return NULL;
  }
  p += k;
  for (;;) {
    while (p < end && strchr(" \t\r\n", *p) && *p)
      p++;
    if (p < end && *p == '>')
      return p + 1;
    if (p + 1 < end && p[0] == '/' && p[1] == '>')
      return p + 2;
    k = name_len(p, end);
    if (k == 0 || !listed(attributes, MP_ARRAY_LEN(attributes), p, k)) {
      bad(err, "the attribute", p, k ? k : 1);
      return NULL;
    }
    int href = k == 10 && !strncmp(p, "xlink:href", 10);
    p += k;
    if (p + 1 >= end || p[0] != '=' || p[1] != '"') {
      bad(err, "a malformed attribute after", p - k, k);
      return NULL;
    }
    const char *v = p + 2, *q = memchr(v, '"', (size_t)(end - v));
    if (q == NULL || memchr(v, '<', (size_t)(q - v))) {
      bad(err, "a malformed attribute value after", p - k, k);
      return NULL;
    }
    /* a link goes to a page of the console: a path of this origin */
    if (href && (q - v < 1 || v[0] != '/' || (q - v > 1 && v[1] == '/'))) {
      bad(err, "the link", v, (size_t)(q - v));
      return NULL;
    }
    p = q + 1;
  }
}

int mp_console_svg_check(const char *s, size_t n, mp_err *err) {
  const char *p = s, *end = s + n;
  while (p < end) {
    const char *lt = memchr(p, '<', (size_t)(end - p));
    if (lt == NULL)
      return 0;
    p = lt + 1;
    if (p < end && *p == '!') /* comments are stripped before */
      return bad(err, "a comment or declaration", lt, 4);
    if (p < end && *p == '/') {
      size_t k = name_len(p + 1, end);
      if (!listed(elements, MP_ARRAY_LEN(elements), p + 1, k) ||
          p + 1 + k >= end || p[1 + k] != '>')
        return bad(err, "the end tag", p, k + 1);
      p += k + 2;
    } else {
      p = start_tag(p, end, err);
      if (p == NULL)
        return err->code;
    }
  }
  return 0;
}
