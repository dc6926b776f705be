/* Semantic versions (engine/semver.h), read as Pulumi's tolerant
 * parser reads them and ordered by SemVer 2.0 precedence. */
#include "engine/semver.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

static int bad(mp_err *err, const char *s, const char *why) {
  return mp_err_set(err, MP_EINVAL, "invalid semantic version '%s': %s", s,
                    why);
}

/* One numeric field; advances |*p|. */
static int number(const char **p, uint64_t *out) {
  const char *s = *p;
  if (!isdigit((unsigned char)*s))
    return -1;
  uint64_t v = 0;
  while (isdigit((unsigned char)*s)) {
    if (v > (UINT64_MAX - 9) / 10)
      return -1;
    v = v * 10 + (uint64_t)(*s++ - '0');
  }
  *p = s;
  *out = v;
  return 0;
}

/* Dot-separated identifiers of [0-9A-Za-z-], none empty. */
static int identifiers(const char *s, size_t n) {
  if (n == 0)
    return 0;
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.') {
      if (run == 0)
        return 0;
      run = 0;
    } else if (isalnum((unsigned char)s[i]) || s[i] == '-') {
      run++;
    } else {
      return 0;
    }
  }
  return run > 0;
}

int mp_semver_parse(const char *text, mp_semver *out, mp_err *err) {
  memset(out, 0, sizeof(*out));
  if (text == NULL)
    return bad(err, "", "empty");
  const char *s = text;
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  if (n && (*s == 'v' || *s == 'V'))
    s++, n--;
  if (n == 0)
    return bad(err, text, "empty");
  char *copy = mp_xstrndup(s, n);
  const char *p = copy;
  uint64_t *fields[3] = {&out->major, &out->minor, &out->patch};
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; i++) {
    if (number(&p, fields[i]) < 0) {
      rc = bad(err, text, "expected a number");
    } else if (*p == '.' && i < 2) {
      p++;
    } else {
      break; /* tolerant: "1" and "1.2" stand for 1.0.0 and 1.2.0 */
    }
  }
  if (rc == 0 && *p == '-') {
    const char *end = p + 1 + strcspn(p + 1, "+");
    size_t len = (size_t)(end - p - 1);
    if (!identifiers(p + 1, len) || len >= sizeof(out->pre))
      rc = bad(err, text, "bad pre-release");
    else
      memcpy(out->pre, p + 1, len);
    p = end;
  }
  if (rc == 0 && *p == '+') {
    size_t len = strlen(p + 1);
    if (!identifiers(p + 1, len) || len >= sizeof(out->build))
      rc = bad(err, text, "bad build metadata");
    else
      memcpy(out->build, p + 1, len);
    p += 1 + len;
  }
  if (rc == 0 && *p != '\0')
    rc = bad(err, text, "unexpected characters");
  free(copy);
  return rc;
}

static int all_digits(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  return 1;
}

/* Pre-release precedence: identifier by identifier, numbers numerically
 * and before words, a shorter list first when all before are equal. */
static int cmp_pre(const char *a, const char *b) {
  for (;;) {
    size_t na = strcspn(a, "."), nb = strcspn(b, ".");
    int da = all_digits(a, na), db = all_digits(b, nb);
    int c;
    if (da && db) {
      c = na != nb ? (na < nb ? -1 : 1) : strncmp(a, b, na);
    } else if (da != db) {
      c = da ? -1 : 1;
    } else {
      c = strncmp(a, b, na < nb ? na : nb);
      if (c == 0 && na != nb)
        c = na < nb ? -1 : 1;
    }
    if (c)
      return c < 0 ? -1 : 1;
    a += na;
    b += nb;
    if (*a == '\0' || *b == '\0')
      return *a ? 1 : *b ? -1 : 0;
    a++;
    b++;
  }
}

static int cmp_u(uint64_t a, uint64_t b) { return a < b ? -1 : a > b; }

int mp_semver_cmp(const mp_semver *a, const mp_semver *b) {
  int c = cmp_u(a->major, b->major);
  if (c == 0)
    c = cmp_u(a->minor, b->minor);
  if (c == 0)
    c = cmp_u(a->patch, b->patch);
  if (c)
    return c;
  if (a->pre[0] == '\0' || b->pre[0] == '\0')
    return a->pre[0] ? -1 : b->pre[0] ? 1 : 0;
  return cmp_pre(a->pre, b->pre);
}

char *mp_semver_format(const mp_semver *v) {
  return mp_xasprintf("%llu.%llu.%llu%s%s%s%s", (unsigned long long)v->major,
                      (unsigned long long)v->minor,
                      (unsigned long long)v->patch, v->pre[0] ? "-" : "",
                      v->pre, v->build[0] ? "+" : "", v->build);
}
