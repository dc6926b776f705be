#include "lang/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang/lang_int.h"

static const char *const fn_names[] = {
    [MP_FN_SECRET] = "fn::secret",         [MP_FN_JOIN] = "fn::join",
    [MP_FN_SELECT] = "fn::select",         [MP_FN_SPLIT] = "fn::split",
    [MP_FN_TOJSON] = "fn::toJSON",         [MP_FN_TOBASE64] = "fn::toBase64",
    [MP_FN_FROMBASE64] = "fn::fromBase64", [MP_FN_READFILE] = "fn::readFile",
    [MP_FN_STRINGASSET] = "fn::stringAsset",
    [MP_FN_FILEASSET] = "fn::fileAsset",
    [MP_FN_FILEARCHIVE] = "fn::fileArchive",
    [MP_FN_REMOTEASSET] = "fn::remoteAsset",
    [MP_FN_INVOKE] = "fn::invoke",
    [MP_FN_UNSECRET] = "fn::unsecret",
    [MP_FN_FILEBASE64] = "fn::filebase64",
    [MP_FN_FILEBASE64SHA256] = "fn::filebase64sha256",
    [MP_FN_SHA1] = "fn::sha1",
    [MP_FN_LENGTH] = "fn::length",
    [MP_FN_SINGLEORNONE] = "fn::singleOrNone",
    [MP_FN_RESOURCENAME] = "fn::pulumiResourceName",
    [MP_FN_RESOURCETYPE] = "fn::pulumiResourceType",
    [MP_FN_REMOTEARCHIVE] = "fn::remoteArchive",
    [MP_FN_ASSETARCHIVE] = "fn::assetArchive"};

const char *mp__fn_name(mp__fn f) { return fn_names[f]; }

static mp__yexpr *expr_new(mp__xkind kind, int line, int col) {
  mp__yexpr *x = mp_xcalloc(1, sizeof(*x));
  x->kind = kind;
  x->line = line;
  x->col = col;
  mp_strv_init(&x->invoke_deps);
  return x;
}

void mp__yexpr_free(mp__yexpr *x) {
  if (x == NULL)
    return;
  for (size_t i = 0; i < x->n; i++) {
    mp__yexpr_free(x->items[i]);
    if (x->keys)
      free(x->keys[i]);
  }
  free(x->items);
  free(x->keys);
  free(x->key_lens);
  for (size_t i = 0; i < x->nacc; i++)
    free(x->acc[i].key);
  free(x->acc);
  free(x->str);
  mp__yexpr_free(x->arg);
  mp_value_free(x->invoke_result);
  mp_strv_destroy(&x->invoke_deps);
  free(x->invoke_token);
  free(x);
}

/* |key| is |key_len| bytes (a YAML key may hold a NUL character). */
static void push_keyed(mp__yexpr *x, mp__yexpr *item, const char *key,
                       size_t key_len) {
  x->items = mp_xreallocarray(x->items, x->n + 1, sizeof(*x->items));
  if (key != NULL || x->kind == MP_X_OBJECT) {
    x->keys = mp_xreallocarray(x->keys, x->n + 1, sizeof(*x->keys));
    x->key_lens =
        mp_xreallocarray(x->key_lens, x->n + 1, sizeof(*x->key_lens));
    x->keys[x->n] = mp_xstrndup(key ? key : "", key ? key_len : 0);
    x->key_lens[x->n] = key ? key_len : 0;
  }
  x->items[x->n++] = item;
}

static void push_item(mp__yexpr *x, mp__yexpr *item, const char *key) {
  push_keyed(x, item, key, key ? strlen(key) : 0);
}

static int access_error(const char *file, int line, int col, const char *s,
                        const char *why, mp_err *err) {
  return mp_err_set(err, MP_EINVAL,
                    "%s:%d:%d: invalid reference '${%s}': %s", file, line,
                    col, s, why);
}

/* Parses the accessors of "root.a[0]["k"]" (|s| without ${ }). */
static int parse_access(const char *s, const char *file, int line, int col,
                        mp__yexpr **out, mp_err *err) {
  size_t rl = strcspn(s, ".[");
  if (rl == 0)
    return access_error(file, line, col, s, "it must start with a name",
                        err);
  mp__yexpr *x = expr_new(MP_X_ACCESS, line, col);
  x->str = mp_xstrndup(s, rl);
  const char *p = s + rl;
  while (*p) {
    mp__xacc a = {NULL, 0};
    if (*p == '.') {
      size_t l = strcspn(p + 1, ".[");
      if (l == 0)
        goto bad;
      a.key = mp_xstrndup(p + 1, l);
      p += l + 1;
    } else if (p[1] == '"') {
      const char *end = strchr(p + 2, '"');
      if (end == NULL || end[1] != ']')
        goto bad;
      a.key = mp_xstrndup(p + 2, (size_t)(end - p - 2));
      p = end + 2;
    } else {
      char *end = NULL;
      if (!isdigit((unsigned char)p[1]))
        goto bad;
      errno = 0;
      a.index = strtoul(p + 1, &end, 10);
      if (*end != ']')
        goto bad;
      if (errno == ERANGE) { /* strtoul saturates: never use that index */
        char why[96];
        snprintf(why, sizeof(why), "the index %.*s is out of range",
                 (int)(end - p - 1 > 40 ? 40 : end - p - 1), p + 1);
        mp__yexpr_free(x);
        return access_error(file, line, col, s, why, err);
      }
      p = end + 1;
    }
    x->acc = mp_xreallocarray(x->acc, x->nacc + 1, sizeof(*x->acc));
    x->acc[x->nacc++] = a;
  }
  *out = x;
  return 0;
bad:
  mp__yexpr_free(x);
  return access_error(file, line, col, s,
                      "write name.property, name[0] or name[\"key\"]", err);
}

static void push_literal(mp__yexpr *interp, mp_buf *lit, int line, int col) {
  if (lit->len == 0)
    return;
  mp__yexpr *s = expr_new(MP_X_STR, line, col);
  s->len = lit->len;
  s->str = mp_buf_detach(lit, NULL);
  push_item(interp, s, NULL);
}

/* A string scalar: literal, one reference, or an interpolation. */
static int build_string(const mp_ynode *n, const char *file,
                        mp__yexpr **out, mp_err *err) {
  mp__yexpr *x = expr_new(MP_X_INTERP, n->line, n->col);
  mp_buf lit;
  mp_buf_init(&lit);
  const char *t = n->text;
  int single_line = strchr(t, '\n') == NULL;
  for (size_t i = 0; i < n->len;) {
    if (t[i] == '$' && t[i + 1] == '$' && t[i + 2] == '{') {
      mp_buf_puts(&lit, "${");
      i += 3;
      continue;
    }
    if (!(t[i] == '$' && t[i + 1] == '{')) {
      mp_buf_putc(&lit, t[i++]);
      continue;
    }
    int col = n->col + (single_line ? (int)i + (n->quoted ? 1 : 0) : 0);
    const char *close = strchr(t + i + 2, '}');
    if (close == NULL) {
      mp_buf_destroy(&lit);
      mp__yexpr_free(x);
      return mp_err_set(err, MP_EINVAL, "%s:%d:%d: unterminated '${' in "
                        "'%s'; close it with '}' or write '$${' for a "
                        "literal", file, n->line, col, t);
    }
    char *inner = mp_xstrndup(t + i + 2, (size_t)(close - t - i - 2));
    mp__yexpr *acc = NULL;
    int rc = parse_access(inner, file, n->line, col, &acc, err);
    free(inner);
    if (rc < 0) {
      mp_buf_destroy(&lit);
      mp__yexpr_free(x);
      return rc;
    }
    push_literal(x, &lit, n->line, n->col);
    push_item(x, acc, NULL);
    i = (size_t)(close - t) + 1;
  }
  push_literal(x, &lit, n->line, n->col);
  mp_buf_destroy(&lit);
  if (x->n == 1) {
    mp__yexpr *only = x->items[0];
    x->n = 0;
    mp__yexpr_free(x);
    *out = only;
    return 0;
  }
  if (x->n == 0) {
    x->kind = MP_X_STR;
    x->str = mp_xstrdup("");
  }
  *out = x;
  return 0;
}

static int build_scalar(const mp_ynode *n, const char *file,
                        mp__yexpr **out, mp_err *err) {
  mp_value *v = mp_ynode_value(n, MP_YNODE_TYPED);
  mp__yexpr *x = NULL;
  switch (v->kind) {
  case MP_VALUE_NULL:
    x = expr_new(MP_X_NULL, n->line, n->col);
    break;
  case MP_VALUE_BOOL:
    x = expr_new(MP_X_BOOL, n->line, n->col);
    x->boolean = v->u.boolean;
    break;
  case MP_VALUE_NUMBER:
    x = expr_new(MP_X_NUM, n->line, n->col);
    x->number = v->u.number;
    break;
  default:
    mp_value_free(v);
    return build_string(n, file, out, err);
  }
  mp_value_free(v);
  *out = x;
  return 0;
}

static int fn_lookup(const char *name, mp__fn *out) {
  for (size_t i = 0; i < MP_ARRAY_LEN(fn_names); i++) {
    if (strcasecmp(name, fn_names[i]) == 0) {
      *out = (mp__fn)i;
      return 1;
    }
  }
  return 0;
}

/* Static shape checks for the argument of |fn|. */
static int check_fn_arg(const mp__yexpr *x, const char *file, mp_err *err) {
  const mp__yexpr *a = x->arg;
  switch (x->fn) {
  case MP_FN_JOIN:
  case MP_FN_SELECT:
  case MP_FN_SPLIT:
    if (a->kind != MP_X_LIST || a->n != 2)
      return mp_err_set(err, MP_EINVAL,
                        "%s:%d:%d: the argument to %s must be a list of "
                        "two values",
                        file, a->line, a->col, mp__fn_name(x->fn));
    return 0;
  case MP_FN_INVOKE: {
    int has_fn = 0;
    if (a->kind == MP_X_OBJECT)
      for (size_t i = 0; i < a->n; i++) {
        const char *k = a->keys[i];
        if (strcmp(k, "function") == 0)
          has_fn = a->items[i]->kind == MP_X_STR;
        else if (strcmp(k, "arguments") && strcmp(k, "options") &&
                 strcmp(k, "return"))
          return mp_err_set(err, MP_EINVAL,
                            "%s:%d:%d: fn::invoke has unknown field '%s'; "
                            "use function, arguments, options, return",
                            file, a->items[i]->line, a->items[i]->col, k);
      }
    if (!has_fn)
      return mp_err_set(err, MP_EINVAL,
                        "%s:%d:%d: fn::invoke needs a 'function' token",
                        file, a->line, a->col);
    return 0;
  }
  case MP_FN_ASSETARCHIVE:
    if (a->kind != MP_X_OBJECT)
      return mp_err_set(err, MP_EINVAL,
                        "%s:%d:%d: the argument to fn::assetArchive must be "
                        "an object",
                        file, a->line, a->col);
    for (size_t i = 0; i < a->n; i++) {
      const mp__yexpr *v = a->items[i];
      if (v->kind != MP_X_FN ||
          (v->fn != MP_FN_STRINGASSET && v->fn != MP_FN_FILEASSET &&
           v->fn != MP_FN_REMOTEASSET && v->fn != MP_FN_FILEARCHIVE &&
           v->fn != MP_FN_REMOTEARCHIVE && v->fn != MP_FN_ASSETARCHIVE))
        return mp_err_set(err, MP_EINVAL,
                          "%s:%d:%d: fn::assetArchive: the value of '%s' "
                          "must be an asset or an archive",
                          file, v->line, v->col, a->keys[i]);
    }
    return 0;
  default:
    return 0;
  }
}

/* Pushes |v| under the YAML key |k|, whose "$${" stands for a literal
 * "${" as in a string (Pulumi YAML reads keys as strings too). */
static void push_key(mp__yexpr *x, mp__yexpr *v, const mp_ynode *k) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < k->len; i++) {
    mp_buf_putc(&b, k->text[i]);
    if (k->text[i] == '$' && i + 2 < k->len && k->text[i + 1] == '$' &&
        k->text[i + 2] == '{')
      i++;
  }
  push_keyed(x, v, b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
}

/* An object (MP_X_OBJECT, |n| a map) or a list (MP_X_LIST) of the
 * expressions of |n|'s values. */
static int build_items(const mp_ynode *n, mp__xkind kind,
                       const char *file, mp__yexpr **out, mp_err *err) {
  mp__yexpr *x = expr_new(kind, n->line, n->col);
  for (size_t i = 0; i < n->n; i++) {
    mp__yexpr *v = NULL;
    int rc = mp__yexpr_build(n->vals[i], file, &v, err);
    if (rc < 0) {
      mp__yexpr_free(x);
      return rc;
    }
    if (kind == MP_X_OBJECT)
      push_key(x, v, n->keys[i]);
    else
      push_item(x, v, NULL);
  }
  *out = x;
  return 0;
}

/* `fn::<pkg>:<module>[:<name>]` is short for an fn::invoke of that
 * function, its value the arguments (when a map). */
static int is_short_invoke(const char *key) {
  const char *tok = key + 4;
  size_t parts = 1;
  for (const char *p = tok; *p; p++)
    parts += *p == ':';
  if (parts < 2 || parts > 3 || strstr(tok, "::") || tok[0] == ':' ||
      tok[strlen(tok) - 1] == ':')
    return 0;
  return 1;
}

static int build_short_invoke(const mp_ynode *n, const char *file,
                              mp__yexpr **out, mp_err *err) {
  const mp_ynode *k = n->keys[0];
  mp__yexpr *x = expr_new(MP_X_FN, k->line, k->col);
  x->fn = MP_FN_INVOKE;
  x->arg = expr_new(MP_X_OBJECT, k->line, k->col);
  mp__yexpr *tok = expr_new(MP_X_STR, k->line, k->col);
  tok->str = mp_xstrdup(k->text + 4);
  tok->len = strlen(tok->str);
  push_item(x->arg, tok, "function");
  if (n->vals[0]->kind == MP_YNODE_MAP) {
    mp__yexpr *args = NULL;
    int rc = build_items(n->vals[0], MP_X_OBJECT, file, &args, err);
    if (rc < 0) {
      mp__yexpr_free(x);
      return rc;
    }
    push_item(x->arg, args, "arguments");
  }
  *out = x;
  return 0;
}

static int build_map(const mp_ynode *n, const char *file, mp__yexpr **out,
                     mp_err *err) {
  if (n->n == 1 && strncasecmp(n->keys[0]->text, "fn::", 4) == 0 &&
      is_short_invoke(n->keys[0]->text))
    return build_short_invoke(n, file, out, err);
  if (n->n == 1 && strncasecmp(n->keys[0]->text, "fn::", 4) == 0) {
    mp__fn fn;
    const mp_ynode *k = n->keys[0];
    if (!fn_lookup(k->text, &fn))
      return mp_err_set(err, MP_EINVAL, "%s:%d:%d: unknown function '%s'",
                        file, k->line, k->col, k->text);
    mp__yexpr *x = expr_new(MP_X_FN, k->line, k->col);
    x->fn = fn;
    int rc = mp__yexpr_build(n->vals[0], file, &x->arg, err);
    if (rc == 0)
      rc = check_fn_arg(x, file, err);
    if (rc < 0) {
      mp__yexpr_free(x);
      return rc;
    }
    *out = x;
    return 0;
  }
  return build_items(n, MP_X_OBJECT, file, out, err);
}

int mp__yexpr_build(const mp_ynode *n, const char *file, mp__yexpr **out,
                    mp_err *err) {
  *out = NULL;
  if (n->kind == MP_YNODE_SCALAR)
    return build_scalar(n, file, out, err);
  if (n->kind == MP_YNODE_MAP)
    return build_map(n, file, out, err);
  return build_items(n, MP_X_LIST, file, out, err);
}

int mp__yexpr_walk(mp__yexpr *x, int (*fn)(void *ud, mp__yexpr *acc),
                   void *ud) {
  if (x == NULL)
    return 0;
  if (x->kind == MP_X_ACCESS)
    return fn(ud, x);
  for (size_t i = 0; i < x->n; i++) {
    int rc = mp__yexpr_walk(x->items[i], fn, ud);
    if (rc)
      return rc;
  }
  return mp__yexpr_walk(x->arg, fn, ud);
}
