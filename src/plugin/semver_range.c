/* Version ranges (plugin/cache.h, mp_semver_in_range), as the
 * blang/semver library Pulumi uses reads them in `plugin rm KIND NAME
 * RANGE`: comparisons joined by spaces (all must hold) and `||` (one
 * group must), an operator (<, <=, >, >=, =, ==, !=; none is =) before
 * each version, a space allowed between them, and `x` wildcards
 * (`1.x`, `1.2.x`). */
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "plugin/cache.h"

typedef enum op { EQ, NE, LT, LE, GT, GE } op;

static const char *read_op(const char *s, op *o) {
  static const struct {
    const char *text;
    op o;
  } ops[] = {{"!=", NE}, {"==", EQ}, {"<=", LE}, {">=", GE},
             {"<", LT},  {">", GT},  {"=", EQ}};
  for (size_t i = 0; i < MP_ARRAY_LEN(ops); i++)
    if (strncmp(s, ops[i].text, strlen(ops[i].text)) == 0) {
      *o = ops[i].o;
      return s + strlen(ops[i].text);
    }
  *o = EQ;
  return s;
}

static int holds(op o, int c) {
  switch (o) {
  case EQ: return c == 0;
  case NE: return c != 0;
  case LT: return c < 0;
  case LE: return c <= 0;
  case GT: return c > 0;
  default: return c >= 0;
  }
}

/* One comparison "<op><version>", the version perhaps with wildcards:
 * "=1.x" holds from 1.0.0 up to (not with) 2.0.0, "<1.x" below 1.0.0,
 * ">1.x" from 2.0.0. Sets |*ok|. */
static int compare(const char *text, const mp_semver *v, int *ok,
                   mp_err *err) {
  op o;
  const char *ver = read_op(text, &o);
  char *s = mp_xstrdup(ver);
  /* The dots before the first wildcard: the fields given. */
  int fields = 0;
  char *wild = NULL;
  for (char *p = s; *p && !wild; p++)
    if ((*p == 'x' || *p == 'X' || *p == '*') &&
        (p == s || p[-1] == '.') && (p[1] == '\0' || p[1] == '.'))
      wild = p;
    else if (*p == '.')
      fields++;
  if (wild) *wild = '\0';
  size_t n = strlen(s);
  if (wild && n && s[n - 1] == '.') s[n - 1] = '\0';
  mp_semver lo;
  int rc = mp_semver_parse(*s ? s : "0", &lo, err);
  if (rc == 0 && !wild) {
    *ok = holds(o, mp_semver_cmp(v, &lo));
  } else if (rc == 0) {
    mp_semver hi = lo; /* the first version past the wildcard */
    if (*s == '\0') {
      hi.major = UINT64_MAX;
    } else if (fields <= 1) { /* "1.x": the major number given */
      hi.major++;
      hi.minor = hi.patch = 0;
    } else {
      hi.minor++;
      hi.patch = 0;
    }
    int below = mp_semver_cmp(v, &lo) < 0, past = mp_semver_cmp(v, &hi) >= 0;
    *ok = o == EQ   ? !below && !past
          : o == NE ? below || past
          : o == LT ? below
          : o == GE ? !below
          : o == GT ? past
                    : !past; /* LE */
  }
  free(s);
  return rc;
}

int mp_semver_in_range(const char *range, const mp_semver *v, mp_err *err) {
  char *text = mp_xstrdup(range);
  int any = 0, group = 1, seen = 0, rc = 0;
  char *save = NULL;
  char *pending = NULL; /* an operator written apart from its version */
  for (char *tok = strtok_r(text, " \t", &save); tok && rc == 0;
       tok = strtok_r(NULL, " \t", &save)) {
    if (strcmp(tok, "||") == 0) {
      any = any || (seen && group);
      group = 1;
      seen = 0;
      continue;
    }
    op o;
    if (*read_op(tok, &o) == '\0') { /* ">=" then "1.0.0" */
      pending = tok;
      continue;
    }
    char *cmp = pending ? mp_xasprintf("%s%s", pending, tok) : mp_xstrdup(tok);
    pending = NULL;
    int ok = 0;
    rc = compare(cmp, v, &ok, err);
    free(cmp);
    group = group && ok;
    seen = 1;
  }
  if (rc == 0 && (pending || !seen))
    rc = mp_err_set(err, MP_EINVAL, "Could not get version from string: \"%s\"",
                    range);
  free(text);
  if (rc < 0) return rc;
  return any || group;
}
