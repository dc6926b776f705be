/* URNs, provider references and default provider names
 * (tests/conformance/scenarios/S02-default-provider-first.scn). A URN is valid
 * iff it starts with `urn:pulumi:` and has at least three `::` after the
 * prefix; nothing else is validated, because Pulumi accepts stack, project and
 * type parts of any shape. */
#include "engine/urn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "engine/value.h"

#define PREFIX_LEN (sizeof(MP_URN_PREFIX) - 1)
#define DELIM "::"
#define DELIM_LEN 2

/* The offset of the next `::` in s[from, len), or len when there is none.
 * Delimiters are found left to right without overlap, as Pulumi does. */
static size_t find_delim(const char *s, size_t len, size_t from) {
  for (size_t i = from; i + 1 < len; i++) {
    if (s[i] == ':' && s[i + 1] == ':') return i;
  }
  return len;
}

/* Offsets of the first three delimiters after the prefix. Returns how many
 * were found (0-3). */
static int split_urn(const char *s, size_t len, size_t pos[3]) {
  size_t from = PREFIX_LEN;
  int n = 0;
  while (n < 3) {
    size_t d = find_delim(s, len, from);
    if (d == len) break;
    pos[n++] = d;
    from = d + DELIM_LEN;
  }
  return n;
}

static int has_prefix(const char *s, size_t len) {
  return len >= PREFIX_LEN && memcmp(s, MP_URN_PREFIX, PREFIX_LEN) == 0;
}

int mp_urn_parse(const char *s, size_t len, mp_urn *out, mp_err *err) {
  static const char *const missing[] = {"project", "type", "name"};
  size_t pos[3];
  memset(out, 0, sizeof(*out));
  if (s == NULL || len == 0) {
    return mp_err_set(err, MP_EINVAL, "invalid URN '': the URN is empty");
  }
  if (!has_prefix(s, len)) {
    return mp_err_set(err, MP_EINVAL,
                      "invalid URN '%.*s': missing '" MP_URN_PREFIX
                      "' prefix; expected 'urn:pulumi:<stack>::<project>"
                      "::<type>::<name>'",
                      (int)len, s);
  }
  int n = split_urn(s, len, pos);
  if (n < 3) {
    return mp_err_set(err, MP_EINVAL,
                      "invalid URN '%.*s': missing %s part; expected "
                      "'urn:pulumi:<stack>::<project>::<type>::<name>'",
                      (int)len, s, missing[n]);
  }
  out->stack = mp_xstrndup(s + PREFIX_LEN, pos[0] - PREFIX_LEN);
  out->project =
      mp_xstrndup(s + pos[0] + DELIM_LEN, pos[1] - pos[0] - DELIM_LEN);
  out->qualified_type =
      mp_xstrndup(s + pos[1] + DELIM_LEN, pos[2] - pos[1] - DELIM_LEN);
  const char *dollar = strrchr(out->qualified_type, '$');
  out->type = mp_xstrdup(dollar ? dollar + 1 : out->qualified_type);
  out->name = mp_xstrndup(s + pos[2] + DELIM_LEN, len - pos[2] - DELIM_LEN);
  return 0;
}

void mp_urn_destroy(mp_urn *u) {
  if (u == NULL) return;
  free(u->stack);
  free(u->project);
  free(u->qualified_type);
  free(u->type);
  free(u->name);
  memset(u, 0, sizeof(*u));
}

int mp_urn_valid(const char *s) {
  size_t pos[3];
  if (s == NULL) return 0;
  size_t len = strlen(s);
  return has_prefix(s, len) && split_urn(s, len, pos) == 3;
}

const char *mp_urn_qualified_type(const char *urn, size_t *len) {
  size_t pos[3];
  if (urn == NULL) return NULL;
  size_t n = strlen(urn);
  if (!has_prefix(urn, n) || split_urn(urn, n, pos) != 3) return NULL;
  if (len) *len = pos[2] - pos[1] - DELIM_LEN;
  return urn + pos[1] + DELIM_LEN;
}

const char *mp_urn_type(const char *urn, size_t *len) {
  size_t qlen;
  const char *q = mp_urn_qualified_type(urn, &qlen);
  if (q == NULL) return NULL;
  size_t start = qlen;
  while (start > 0 && q[start - 1] != '$') start--;
  if (len) *len = qlen - start;
  return q + start;
}

const char *mp_urn_name(const char *urn, size_t *len) {
  size_t pos[3];
  if (urn == NULL) return NULL;
  size_t n = strlen(urn);
  if (!has_prefix(urn, n) || split_urn(urn, n, pos) != 3) return NULL;
  if (len) *len = n - pos[2] - DELIM_LEN;
  return urn + pos[2] + DELIM_LEN;
}

static int is_root_stack_type(const char *q, size_t qlen) {
  return qlen == strlen(MP_ROOT_STACK_TYPE) &&
         memcmp(q, MP_ROOT_STACK_TYPE, qlen) == 0;
}

static void urn_part(mp_buf *b, const char *s) {
  mp_buf_puts(b, s ? s : "(null)");
}

char *mp_urn_new(const char *stack, const char *project,
                 const char *parent_urn, const char *type, const char *name,
                 mp_err *err) {
  mp_buf b;
  size_t qlen = 0;
  const char *q = NULL;
  if (parent_urn != NULL && parent_urn[0] != '\0') {
    q = mp_urn_qualified_type(parent_urn, &qlen);
    if (q == NULL) {
      mp_err_set(err, MP_EINVAL,
                 "cannot build the URN of '%s': parent '%s' is not a valid "
                 "URN",
                 name, parent_urn);
      return NULL;
    }
    if (is_root_stack_type(q, qlen)) q = NULL;
  }
  /* Appended piece by piece, not printf'd: it is made several times for
   * each registration. A missing part reads "(null)", as printf put it. */
  mp_buf_init(&b);
  mp_buf_puts(&b, MP_URN_PREFIX);
  urn_part(&b, stack);
  mp_buf_puts(&b, "::");
  urn_part(&b, project);
  mp_buf_puts(&b, "::");
  if (q != NULL) {
    mp_buf_append(&b, q, qlen);
    mp_buf_putc(&b, '$');
  }
  urn_part(&b, type);
  mp_buf_puts(&b, "::");
  urn_part(&b, name);
  return mp_buf_detach(&b, NULL);
}

char *mp_urn_root_stack(const char *stack, const char *project) {
  return mp_xasprintf(MP_URN_PREFIX "%s::%s::" MP_ROOT_STACK_TYPE "::%s-%s",
                      stack, project, project, stack);
}

int mp_type_is_provider(const char *type) {
  size_t plen = strlen(MP_PROVIDER_TYPE_PREFIX);
  return type != NULL && strncmp(type, MP_PROVIDER_TYPE_PREFIX, plen) == 0 &&
         type[plen] != '\0';
}

char *mp_type_package(const char *type) {
  if (type == NULL) return NULL;
  if (mp_type_is_provider(type)) {
    return mp_xstrdup(type + strlen(MP_PROVIDER_TYPE_PREFIX));
  }
  const char *colon = strchr(type, ':');
  if (colon == NULL) return NULL;
  return mp_xstrndup(type, (size_t)(colon - type));
}

/* The last `::` in s, or NULL. */
static const char *last_delim(const char *s) {
  const char *last = NULL;
  for (const char *p = strstr(s, DELIM); p; p = strstr(p + 1, DELIM)) {
    last = p;
  }
  return last;
}

int mp_provider_ref_parse(const char *ref, mp_provider_ref *out,
                          mp_err *err) {
  memset(out, 0, sizeof(*out));
  const char *sep = ref ? last_delim(ref) : NULL;
  if (sep == NULL) {
    return mp_err_set(err, MP_EINVAL,
                      "bad provider reference '%s': expected "
                      "'<provider urn>::<provider id>'",
                      ref ? ref : "");
  }
  char *urn = mp_xstrndup(ref, (size_t)(sep - ref));
  size_t tlen;
  const char *type = mp_urn_type(urn, &tlen);
  if (type == NULL) {
    mp_err_set(err, MP_EINVAL,
               "bad provider reference '%s': '%s' is not a valid URN", ref,
               urn);
    free(urn);
    return MP_EINVAL;
  }
  char *t = mp_xstrndup(type, tlen);
  int ok = mp_type_is_provider(t);
  if (!ok) {
    mp_err_set(err, MP_EINVAL,
               "bad provider reference '%s': type '%s' is not a provider "
               "type (expected '" MP_PROVIDER_TYPE_PREFIX "<package>')",
               ref, t);
  }
  free(t);
  if (!ok) {
    free(urn);
    return MP_EINVAL;
  }
  out->urn = urn;
  out->id = mp_xstrdup(sep + DELIM_LEN);
  return 0;
}

void mp_provider_ref_destroy(mp_provider_ref *r) {
  if (r == NULL) return;
  free(r->urn);
  free(r->id);
  memset(r, 0, sizeof(*r));
}

char *mp_provider_ref_format(const char *urn, const char *id) {
  if (id == NULL || id[0] == '\0') id = MP_UNKNOWN_SENTINEL;
  return mp_xasprintf("%s::%s", urn, id);
}

/* ---- default provider names ---- */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_ident_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '-';
}

/* A semver numeric part: digits, no leading zero, fits in 64 bits. */
static int numeric_ok(const char *p, size_t n) {
  char tmp[32];
  if (n == 0 || n >= sizeof(tmp)) return 0;
  for (size_t i = 0; i < n; i++) {
    if (!is_digit(p[i])) return 0;
  }
  if (n > 1 && p[0] == '0') return 0;
  memcpy(tmp, p, n);
  tmp[n] = '\0';
  errno = 0;
  (void)strtoull(tmp, NULL, 10);
  return errno == 0;
}

/* A pre-release (|pre| = 1) or build identifier. */
static int ident_ok(const char *p, size_t n, int pre) {
  int numeric = 1;
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    if (!is_ident_char(p[i])) return 0;
    if (!is_digit(p[i])) numeric = 0;
  }
  return !(pre && numeric && !numeric_ok(p, n));
}

/* Appends `_<id>` for each `.`-separated identifier of p[0, n). */
static int append_idents(mp_buf *b, const char *p, size_t n, int pre) {
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && p[i] != '.') continue;
    if (!ident_ok(p + start, i - start, pre)) return -1;
    mp_buf_putc(b, '_');
    mp_buf_append(b, p + start, i - start);
    start = i + 1;
  }
  return 0;
}

/* Appends `_<major>_<minor>_<patch>[_pre...][_build...]` for a strict
 * semver 2.0.0 |v|. Returns 0 or -1 when |v| is not semver. */
static int append_semver(mp_buf *b, const char *v) {
  size_t n = strlen(v);
  const char *plus = memchr(v, '+', n);
  size_t core_end = plus ? (size_t)(plus - v) : n;
  const char *dash = memchr(v, '-', core_end);
  size_t nums_end = dash ? (size_t)(dash - v) : core_end;
  size_t start = 0;
  int parts = 0;
  for (size_t i = 0; i <= nums_end; i++) {
    if (i < nums_end && v[i] != '.') continue;
    if (parts == 3 || !numeric_ok(v + start, i - start)) return -1;
    mp_buf_putc(b, '_');
    mp_buf_append(b, v + start, i - start);
    parts++;
    start = i + 1;
  }
  if (parts != 3) return -1;
  if (dash && append_idents(b, dash + 1, core_end - nums_end - 1, 1) < 0) {
    return -1;
  }
  if (plus && append_idents(b, plus + 1, n - core_end - 1, 0) < 0) return -1;
  return 0;
}

static int qname_char_ok(char c) {
  return is_ident_char(c) || c == '_' || c == '.';
}

/* Appends |url| converted to a QName: empty `/`-segments dropped, every
 * other byte outside [A-Za-z0-9_.-] replaced by `_`; "" becomes "_". */
static void append_qname(mp_buf *b, const char *url) {
  size_t before = b->len;
  for (const char *seg = url; *seg;) {
    size_t n = strcspn(seg, "/");
    if (n > 0) {
      if (b->len > before) mp_buf_putc(b, '/');
      for (size_t i = 0; i < n; i++) {
        mp_buf_putc(b, qname_char_ok(seg[i]) ? seg[i] : '_');
      }
    }
    seg += n;
    if (*seg == '/') seg++;
  }
  if (b->len == before) mp_buf_putc(b, '_');
}

char *mp_default_provider_name(const char *version, const char *download_url,
                               mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "default");
  if (version != NULL && version[0] != '\0' && append_semver(&b, version)) {
    mp_buf_destroy(&b);
    mp_err_set(err, MP_EINVAL,
               "invalid provider version '%s': expected a semantic version "
               "'<major>.<minor>.<patch>[-<pre-release>][+<build>]' such as "
               "'1.2.3'",
               version);
    return NULL;
  }
  if (download_url != NULL && download_url[0] != '\0') {
    mp_buf_putc(&b, '_');
    append_qname(&b, download_url);
  }
  return mp_buf_detach(&b, NULL);
}

char *mp_default_provider_urn(const char *stack, const char *project,
                              const char *pkg, const char *name) {
  return mp_xasprintf(MP_URN_PREFIX "%s::%s::" MP_PROVIDER_TYPE_PREFIX
                                    "%s::%s",
                      stack, project, pkg, name);
}

int mp_urn_is_default_provider(const char *urn) {
  size_t tlen;
  const char *type = mp_urn_type(urn, &tlen);
  if (type == NULL) return 0;
  size_t plen = strlen(MP_PROVIDER_TYPE_PREFIX);
  if (tlen <= plen || strncmp(type, MP_PROVIDER_TYPE_PREFIX, plen) != 0) {
    return 0;
  }
  return strncmp(mp_urn_name(urn, NULL), "default", 7) == 0;
}

/* One element of a compiled target pattern. */
enum glob_tok { GLOB_CHAR, GLOB_STAR /* [^:]* */, GLOB_ANY /* .* */ };

typedef struct glob_elem {
  enum glob_tok tok;
  char c; /* GLOB_CHAR */
} glob_elem;

/* Splits |pat| into elements: `**` first, then `*`, as Pulumi's matcher
 * does, so `***` is `**` followed by `*`. Returns the count. */
static size_t glob_compile(const char *pat, glob_elem *out) {
  size_t n = 0;
  while (*pat) {
    if (pat[0] == '*' && pat[1] == '*') {
      out[n++].tok = GLOB_ANY;
      pat += 2;
    } else if (pat[0] == '*') {
      out[n++].tok = GLOB_STAR;
      pat++;
    } else {
      out[n].tok = GLOB_CHAR;
      out[n++].c = *pat++;
    }
  }
  return n;
}

/* Adds state |i| to |set| with everything reachable from it without
 * consuming a character (stars may match nothing). */
static void glob_add(unsigned char *set, const glob_elem *e, size_t n,
                     size_t i) {
  while (i <= n && !set[i]) {
    set[i] = 1;
    if (i == n || e[i].tok == GLOB_CHAR) return;
    i++;
  }
}

/* A set-of-states simulation of the pattern's automaton: state i means
 * "elements before i matched". Each character of |s| is looked at once
 * per state, so the time is O(len(s) * len(pat)) whatever the pattern;
 * backtracking was exponential in the number of stars. */
int mp_urn_glob(const char *pat, const char *s) {
  size_t plen = strlen(pat);
  glob_elem *e = mp_xcalloc(plen + 1, sizeof(*e));
  size_t n = glob_compile(pat, e);
  unsigned char *cur = mp_xcalloc(n + 1, 1), *next = mp_xcalloc(n + 1, 1);
  int alive = 1;
  glob_add(cur, e, n, 0);
  for (; *s && alive; s++) {
    memset(next, 0, n + 1);
    alive = 0;
    for (size_t i = 0; i < n; i++) {
      if (!cur[i]) continue;
      if (e[i].tok == GLOB_CHAR) {
        if (e[i].c == *s) glob_add(next, e, n, i + 1), alive = 1;
      } else if (e[i].tok == GLOB_ANY || *s != ':') {
        glob_add(next, e, n, i), alive = 1;
      }
    }
    unsigned char *t = cur;
    cur = next;
    next = t;
  }
  int match = cur[n]; /* empty once no state is alive */
  free(e);
  free(cur);
  free(next);
  return match;
}
