/* Evaluation of Pulumi YAML expressions to property values. Unknowns
 * (preview) flow through: a function or interpolation of an unknown is
 * unknown. Secrets propagate: a value computed from a secret is secret. */
#include "lang/prog.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "engine/text.h"

/* Files read by fn::readFile larger than this are refused (not cut). */
#define MAX_READ_FILE (64u << 20)

static int fail(mp_err *err, const mp__prog *p, const mp__yexpr *x,
                const char *fmt, const char *a, const char *b) {
  char msg[400];
  snprintf(msg, sizeof(msg), fmt, a, b);
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", p->file, x->line, x->col,
                    msg);
}

static void add_deps(mp__evalctx *c, const mp_strv *deps) {
  for (size_t i = 0; c->deps && i < deps->len; i++)
    if (!mp_strv_contains(c->deps, deps->items[i]))
      mp_strv_push(c->deps, deps->items[i]);
}

static void add_dep(mp__evalctx *c, const char *urn) {
  if (c->deps && urn && !mp_strv_contains(c->deps, urn))
    mp_strv_push(c->deps, urn);
}

/* ---- references ---- */

/* The engine's answer for the resource of reference |ref|, {urn, id,
 * state} (borrowed), or NULL: being asked (c->pending set) or an error
 * (|err| set). Pulumi YAML reads every reference a program's access
 * meets this way (getResource, pulumi-yaml run.go evaluateAccess), so the
 * engine's builtin provider serves it. */
static const mp_value *hydrate(mp__evalctx *c, const mp__yexpr *x,
                               const mp_value *ref, mp_err *err) {
  mp__prog *p = c->p;
  const char *urn = ref->u.ref.urn;
  const mp_value *h = p->hydrated ? mp_value_object_get(p->hydrated, urn)
                                  : NULL;
  if (h != NULL)
    return h;
  if (c->start_get_resource == NULL) {
    fail(err, p, x, "cannot read the resource reference %s here%s", urn, "");
    return NULL;
  }
  if (!mp_strv_contains(&p->hydrating, urn)) {
    if (c->start_get_resource(c->ud, urn, err) < 0)
      return NULL;
    mp_strv_push(&p->hydrating, urn);
  }
  c->pending = 1;
  return NULL;
}

/* Follows |acc| from |v| (borrowed); returns an owned value. Secrets met
 * on the way make the result secret; an unknown makes it unknown.
 * |lenient|: a missing key gives null (resource outputs) instead of an
 * error. A resource reference met on the way is read from the engine
 * (hydrate): `urn` and `id` are its own, other keys its state's. */
static mp_value *walk(mp__evalctx *c, const mp__yexpr *x, const mp_value *v,
                      size_t from, int lenient, mp_err *err) {
  int secret = 0;
  for (size_t i = from; v != NULL; i++) {
    while (v->kind == MP_VALUE_SECRET) {
      secret = 1;
      v = v->u.secret;
    }
    if (v->kind == MP_VALUE_RESOURCE_REF) {
      const mp_value *h = hydrate(c, x, v, err);
      if (h == NULL)
        return NULL;
      if (i == x->nacc)
        break; /* the reference itself, now read */
      const char *k = x->acc[i].key;
      if (k && (strcmp(k, "urn") == 0 || strcmp(k, "id") == 0)) {
        v = mp_value_object_get(h, k);
        continue;
      }
      const mp_value *state = mp_value_object_get(h, "state");
      if (state == NULL || state->kind != MP_VALUE_OBJECT) {
        fail(err, c->p, x, "the resource %s of a reference in '%s' has no "
             "state", v->u.ref.urn, x->str);
        return NULL;
      }
      v = state;
      lenient = 1;
    }
    if (v->kind == MP_VALUE_UNKNOWN || i == x->nacc)
      break;
    const mp__xacc *a = &x->acc[i];
    if (a->key && v->kind == MP_VALUE_OBJECT) {
      const mp_value *next = mp_value_object_get(v, a->key);
      if (next == NULL && !lenient) {
        fail(err, c->p, x, "'%s' has no property '%s'", x->str, a->key);
        return NULL;
      }
      if (next == NULL)
        return c->p->dry_run ? mp_value_new_unknown() : mp_value_new_null();
      v = next;
    } else if (!a->key && v->kind == MP_VALUE_ARRAY) {
      if (a->index >= v->u.arr.len) {
        char idx[64];
        snprintf(idx, sizeof(idx), "%zu", a->index);
        fail(err, c->p, x, "index %s is out of range in a reference to '%s'",
             idx, x->str);
        return NULL;
      }
      v = v->u.arr.items[a->index];
    } else {
      fail(err, c->p, x, "cannot access %s of a %s value",
           a->key ? a->key : "an index", mp_value_kind_name(v->kind));
      return NULL;
    }
  }
  mp_value *out = v ? mp_value_dup(v) : mp_value_new_null();
  return secret ? mp_value_new_secret(out) : out;
}

static mp_value *eval_resource(mp__evalctx *c, const mp__yexpr *x,
                               mp_err *err) {
  const mp__yres *r = &c->p->res[x->ref_index];
  add_dep(c, r->urn);
  const char *first = x->nacc ? x->acc[0].key : NULL;
  if (x->nacc == 0 || (first && strcmp(first, "id") == 0))
    return r->id ? mp_value_new_cstring(r->id) : mp_value_new_unknown();
  if (first && strcmp(first, "urn") == 0)
    return mp_value_new_cstring(r->urn);
  if (r->outputs == NULL)
    return mp_value_new_unknown();
  return walk(c, x, r->outputs, 0, 1, err);
}

static mp_value *eval_pulumi(mp__evalctx *c, const mp__yexpr *x) {
  const mp__prog *p = c->p;
  const char *vals[][2] = {{"stack", p->stack},
                           {"project", p->proj->name},
                           {"organization", p->organization},
                           {"cwd", p->proj->program_dir},
                           {"rootDirectory", p->proj->dir}};
  if (x->nacc == 0) {
    mp_value *o = mp_value_new_object();
    for (size_t i = 0; i < MP_ARRAY_LEN(vals); i++)
      mp_value_object_set(o, vals[i][0],
                          mp_value_new_cstring(vals[i][1] ? vals[i][1] : ""));
    return o;
  }
  for (size_t i = 0; i < MP_ARRAY_LEN(vals); i++)
    if (strcmp(x->acc[0].key, vals[i][0]) == 0)
      return mp_value_new_cstring(vals[i][1] ? vals[i][1] : "");
  return mp_value_new_null();
}

static mp_value *eval_access(mp__evalctx *c, const mp__yexpr *x,
                             mp_err *err) {
  switch (x->ref) {
  case MP_REF_RESOURCE:
    return eval_resource(c, x, err);
  case MP_REF_VARIABLE: {
    const mp__yvar *v = &c->p->vars[x->ref_index];
    add_deps(c, &v->deps);
    return walk(c, x, v->value, 0, 0, err);
  }
  case MP_REF_CONFIG:
    return walk(c, x, c->p->cfg[x->ref_index].value, 0, 0, err);
  case MP_REF_PULUMI:
    return eval_pulumi(c, x);
  default:
    fail(err, c->p, x, "unresolved reference '%s'%s", x->str, "");
    return NULL;
  }
}

/* ---- text ---- */

static void number_text(double d, mp_buf *out) {
  if (floor(d) == d && fabs(d) < 1e15)
    mp_buf_printf(out, "%.0f", d);
  else
    mp_buf_printf(out, "%.17g", d);
}

/* Appends the text of |v| (no secrets, no unknowns) to |out|. */
static int to_text(mp__evalctx *c, const mp__yexpr *x, const mp_value *v,
                   mp_buf *out, mp_err *err) {
  switch (v->kind) {
  case MP_VALUE_STRING:
    mp_buf_append(out, v->u.str.ptr, v->u.str.len);
    return 0;
  case MP_VALUE_NUMBER:
    number_text(v->u.number, out);
    return 0;
  case MP_VALUE_BOOL:
    mp_buf_puts(out, v->u.boolean ? "true" : "false");
    return 0;
  case MP_VALUE_NULL:
    return 0;
  case MP_VALUE_ARRAY:
  case MP_VALUE_OBJECT:
    return mp_value_to_json(v, NULL, 0, out, err);
  default:
    return fail(err, c->p, x, "cannot use a %s value as text%s",
                mp_value_kind_name(v->kind), "");
  }
}

/* Prepares a function argument: 1 if it holds an unknown (the result is
 * unknown); otherwise replaces |*v| by its secret-free copy and sets
 * |*secret| when it held secrets. */
static int lift(mp_value **v, int *secret) {
  if (mp_value_contains_unknowns(*v))
    return 1;
  if (mp_value_contains_secrets(*v)) {
    mp_value *plain = mp_value_strip_secrets(*v);
    mp_value_free(*v);
    *v = plain;
    *secret = 1;
  }
  return 0;
}

static mp_value *wrap(mp_value *v, int secret) {
  return secret && v ? mp_value_new_secret(v) : v;
}

static mp_value *eval_interp(mp__evalctx *c, mp__yexpr *x, mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  int secret = 0, unknown = 0;
  for (size_t i = 0; i < x->n; i++) {
    mp_value *v = mp__eval(c, x->items[i], err);
    if (v == NULL) {
      mp_buf_destroy(&b);
      return NULL;
    }
    int rc = lift(&v, &secret) ? (unknown = 1, 0)
                               : to_text(c, x->items[i], v, &b, err);
    mp_value_free(v);
    if (rc < 0) {
      mp_buf_destroy(&b);
      return NULL;
    }
  }
  mp_value *out = unknown ? mp_value_new_unknown()
                          : mp_value_new_string(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  return wrap(out, secret);
}

/* ---- functions ---- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void base64_encode(const unsigned char *s, size_t n, mp_buf *out) {
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)s[i] << 16;
    if (i + 1 < n)
      v |= (unsigned)s[i + 1] << 8;
    if (i + 2 < n)
      v |= s[i + 2];
    mp_buf_putc(out, b64[(v >> 18) & 63]);
    mp_buf_putc(out, b64[(v >> 12) & 63]);
    mp_buf_putc(out, i + 1 < n ? b64[(v >> 6) & 63] : '=');
    mp_buf_putc(out, i + 2 < n ? b64[v & 63] : '=');
  }
}

static int base64_decode(const char *s, size_t n, mp_buf *out) {
  if (n % 4 != 0)
    return -1;
  for (size_t i = 0; i < n; i += 4) {
    unsigned v = 0;
    int pad = 0;
    for (int j = 0; j < 4; j++) {
      const char *q = strchr(b64, s[i + j]);
      if (s[i + j] == '=' && i + 4 == n && j >= 2) {
        pad++;
        v <<= 6;
        continue;
      }
      if (s[i + j] == '\0' || q == NULL || pad)
        return -1;
      v = (v << 6) | (unsigned)(q - b64);
    }
    mp_buf_putc(out, (char)(v >> 16));
    if (pad < 2)
      mp_buf_putc(out, (char)(v >> 8));
    if (pad < 1)
      mp_buf_putc(out, (char)v);
  }
  return 0;
}

static int need(mp__evalctx *c, const mp__yexpr *x, const mp_value *v,
                mp_value_kind kind, const char *what, mp_err *err) {
  if (v->kind == kind)
    return 0;
  char w[200];
  snprintf(w, sizeof(w), "%s: %s", mp__fn_name(x->fn), what);
  return fail(err, c->p, x, "%s must be a %s", w, mp_value_kind_name(kind));
}

static mp_value *fn_join(mp__evalctx *c, const mp__yexpr *x,
                         const mp_value *a, mp_err *err) {
  const mp_value *d = a->u.arr.items[0], *l = a->u.arr.items[1];
  if (need(c, x, d, MP_VALUE_STRING, "the delimiter", err) < 0 ||
      need(c, x, l, MP_VALUE_ARRAY, "the second argument", err) < 0)
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < l->u.arr.len; i++) {
    if (i)
      mp_buf_append(&b, d->u.str.ptr, d->u.str.len);
    if (to_text(c, x, l->u.arr.items[i], &b, err) < 0) {
      mp_buf_destroy(&b);
      return NULL;
    }
  }
  mp_value *out = mp_value_new_string(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  return out;
}

static mp_value *fn_split(mp__evalctx *c, const mp__yexpr *x,
                          const mp_value *a, mp_err *err) {
  const mp_value *d = a->u.arr.items[0], *s = a->u.arr.items[1];
  if (need(c, x, d, MP_VALUE_STRING, "the delimiter", err) < 0 ||
      need(c, x, s, MP_VALUE_STRING, "the second argument", err) < 0)
    return NULL;
  mp_value *out = mp_value_new_array();
  const char *p = s->u.str.ptr, *end = p + s->u.str.len;
  size_t dl = d->u.str.len;
  while (dl > 0) {
    const char *hit = memmem(p, (size_t)(end - p), d->u.str.ptr, dl);
    if (hit == NULL)
      break;
    mp_value_array_push(out, mp_value_new_string(p, (size_t)(hit - p)));
    p = hit + dl;
  }
  if (dl == 0) {
    for (; p < end; p++)
      mp_value_array_push(out, mp_value_new_string(p, 1));
    return out;
  }
  mp_value_array_push(out, mp_value_new_string(p, (size_t)(end - p)));
  return out;
}

static mp_value *fn_select(mp__evalctx *c, const mp__yexpr *x,
                           const mp_value *a, mp_err *err) {
  const mp_value *i = a->u.arr.items[0], *l = a->u.arr.items[1];
  if (need(c, x, i, MP_VALUE_NUMBER, "the index", err) < 0 ||
      need(c, x, l, MP_VALUE_ARRAY, "the second argument", err) < 0)
    return NULL;
  double d = i->u.number;
  if (d < 0 || floor(d) != d || d >= (double)l->u.arr.len) {
    char a1[64], a2[64];
    snprintf(a1, sizeof(a1), "%g", d);
    snprintf(a2, sizeof(a2), "%zu", l->u.arr.len);
    fail(err, c->p, x, "fn::select: index %s is out of range (the list has "
         "%s items)", a1, a2);
    return NULL;
  }
  return mp_value_dup(l->u.arr.items[(size_t)d]);
}

/* Reads the regular file |fd| whole into |b|, refusing more than
 * MAX_READ_FILE bytes. Returns 0, or -1 with the reason in |why|. */
static int read_regular(int fd, mp_buf *b, char *why, size_t cap) {
  struct stat st;
  if (fstat(fd, &st) < 0) {
    snprintf(why, cap, "%s", strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, cap, "it is not a regular file (a %s)",
             S_ISDIR(st.st_mode)    ? "directory"
             : S_ISFIFO(st.st_mode) ? "FIFO"
             : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device"
                                                          : "special file");
    return -1;
  }
  if ((uintmax_t)st.st_size > MAX_READ_FILE) {
    snprintf(why, cap, "it is larger than the limit of %u MiB",
             MAX_READ_FILE >> 20);
    return -1;
  }
  /* The size is checked again while reading: a file may grow, and some
   * (in /proc) report none. */
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      snprintf(why, cap, "read error: %s", strerror(errno));
      return -1;
    }
    if (n == 0) return 0;
    if (b->len + (size_t)n > MAX_READ_FILE) {
      snprintf(why, cap, "it is larger than the limit of %u MiB",
               MAX_READ_FILE >> 20);
      return -1;
    }
    mp_buf_append(b, chunk, (size_t)n);
  }
}

/* The content must be what a string carries exactly: UTF-8 text without
 * NUL bytes. Returns 0, or -1 with the reason in |why|. */
static int check_text(const mp_buf *b, char *why, size_t cap) {
  const char *nul = b->len ? memchr(b->data, '\0', b->len) : NULL;
  size_t bad = mp_utf8_invalid_at(b->data ? b->data : "", b->len);
  int line, col;
  if (nul == NULL && bad == b->len) return 0;
  size_t at = nul && (size_t)(nul - b->data) < bad ? (size_t)(nul - b->data)
                                                   : bad;
  mp_text_position(b->data, b->len, at, &line, &col);
  snprintf(why, cap,
           "%s at byte %zu (line %d, column %d); only UTF-8 text without NUL "
           "bytes can be read (use fn::fileAsset for other content)",
           nul && (size_t)(nul - b->data) == at ? "it has a NUL byte"
                                                : "it is not valid UTF-8",
           at, line, col);
  return -1;
}

/* Reads the file at |path| (relative to the program folder) whole into
 * |b|, refusing what is not UTF-8 text when |text|; the message names
 * the function. Returns 0 or MP_EINVAL with |err| set. */
/* The text is cut to its buffer on purpose. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
static int read_path(mp__evalctx *c, const mp__yexpr *x, const char *path,
                     int text, mp_buf *b, mp_err *err) {
  char *full = path[0] == '/'
                   ? mp_xstrdup(path)
                   : mp_xasprintf("%s/%s", c->p->proj->program_dir, path);
  /* Non-blocking, so that opening a FIFO cannot hang; it is refused as
   * not a regular file. */
  int fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  free(full);
  char why[256];
  int rc = -1;
  if (fd < 0) {
    snprintf(why, sizeof(why), "%s", strerror(errno));
  } else {
    rc = read_regular(fd, b, why, sizeof(why));
    close(fd);
  }
  if (rc == 0 && text) rc = check_text(b, why, sizeof(why));
  if (rc == 0) return 0;
  char w[300];
  snprintf(w, sizeof(w), "%s: cannot %s '%s'", mp__fn_name(x->fn),
           fd < 0 ? "open" : "read", path);
  return fail(err, c->p, x, "%s: %s", w, why);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static mp_value *fn_read_file(mp__evalctx *c, const mp__yexpr *x,
                              const mp_value *a, mp_err *err) {
  if (need(c, x, a, MP_VALUE_STRING, "the path", err) < 0)
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  mp_value *out = NULL;
  int text = x->fn == MP_FN_READFILE;
  int rc = read_path(c, x, a->u.str.ptr, text, &b, err);
  if (rc == 0 && text) {
    out = mp_value_new_string(b.data ? b.data : "", b.len);
  } else if (rc == 0) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned n = 0;
    const void *data = b.data ? b.data : "";
    size_t len = b.len;
    if (x->fn == MP_FN_FILEBASE64SHA256) {
      EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
      data = md;
      len = n;
    }
    mp_buf enc;
    mp_buf_init(&enc);
    base64_encode(data, len, &enc);
    out = mp_value_new_string(enc.data ? enc.data : "", enc.len);
    mp_buf_destroy(&enc);
  }
  mp_buf_destroy(&b);
  return out;
}

static mp_value *fn_base64(mp__evalctx *c, const mp__yexpr *x,
                           const mp_value *a, mp_err *err) {
  if (need(c, x, a, MP_VALUE_STRING, "the argument", err) < 0)
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  if (x->fn == MP_FN_TOBASE64) {
    base64_encode((const unsigned char *)a->u.str.ptr, a->u.str.len, &b);
  } else if (base64_decode(a->u.str.ptr, a->u.str.len, &b) < 0) {
    mp_buf_destroy(&b);
    fail(err, c->p, x, "fn::fromBase64: '%s' is not valid base64%s",
         a->u.str.ptr, "");
    return NULL;
  }
  mp_value *out = mp_value_new_string(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  return out;
}

/* Pulumi YAML's name for the type of |v| in messages ("a list"). */
static const char *type_string(const mp_value *v) {
  switch (v->kind) {
  case MP_VALUE_NULL: return "nil";
  case MP_VALUE_BOOL: return "a boolean";
  case MP_VALUE_NUMBER: return "a number";
  case MP_VALUE_STRING: return "a string";
  case MP_VALUE_ARRAY: return "a list";
  case MP_VALUE_OBJECT: return "an object";
  default: return mp_value_kind_name(v->kind);
  }
}

static mp_value *fn_length(mp__evalctx *c, const mp__yexpr *x,
                           const mp_value *a, mp_err *err) {
  if (a->kind == MP_VALUE_ARRAY)
    return mp_value_new_number((double)a->u.arr.len);
  if (a->kind == MP_VALUE_OBJECT)
    return mp_value_new_number((double)a->u.obj.len);
  if (a->kind == MP_VALUE_STRING)
    return mp_value_new_number(
        (double)mp__grapheme_count(a->u.str.ptr, a->u.str.len));
  fail(err, c->p, x, "fn::length requires a list, map, or string, got %s%s",
       type_string(a), "");
  return NULL;
}

static mp_value *fn_single_or_none(mp__evalctx *c, const mp__yexpr *x,
                                   const mp_value *a, mp_err *err) {
  if (a->kind != MP_VALUE_ARRAY) {
    fail(err, c->p, x, "fn::singleOrNone requires a list, got %s%s",
         type_string(a), "");
    return NULL;
  }
  if (a->u.arr.len > 1) {
    char n[32];
    snprintf(n, sizeof(n), "%zu", a->u.arr.len);
    fail(err, c->p, x,
         "fn::singleOrNone expected a list of 0 or 1 elements, got %s%s", n,
         "");
    return NULL;
  }
  return a->u.arr.len ? mp_value_dup(a->u.arr.items[0]) : mp_value_new_null();
}

static mp_value *fn_sha1(mp__evalctx *c, const mp__yexpr *x,
                         const mp_value *a, mp_err *err) {
  if (a->kind != MP_VALUE_STRING) {
    fail(err, c->p, x, "fn::sha1 requires a string, got %s%s",
         type_string(a), "");
    return NULL;
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  EVP_Digest(a->u.str.ptr, a->u.str.len, md, &n, EVP_sha1(), NULL);
  char hex[2 * EVP_MAX_MD_SIZE + 1];
  for (unsigned i = 0; i < n; i++)
    snprintf(hex + 2 * i, 3, "%02x", md[i]);
  return mp_value_new_string(hex, 2 * n);
}

/* fn::filebase64 and fn::filebase64sha256 take a string path, and say so
 * in Pulumi YAML's words. */
static mp_value *fn_file_b64(mp__evalctx *c, const mp__yexpr *x,
                             const mp_value *a, mp_err *err) {
  if (a->kind != MP_VALUE_STRING) {
    fail(err, c->p, x, "%s requires a string path, got %s",
         mp__fn_name(x->fn), type_string(a));
    return NULL;
  }
  return fn_read_file(c, x, a, err);
}

static mp_value *fn_plain(mp__evalctx *c, const mp__yexpr *x,
                          const mp_value *a, mp_err *err) {
  mp_buf b;
  switch (x->fn) {
  case MP_FN_JOIN:
    return fn_join(c, x, a, err);
  case MP_FN_SPLIT:
    return fn_split(c, x, a, err);
  case MP_FN_SELECT:
    return fn_select(c, x, a, err);
  case MP_FN_TOJSON: {
    mp_buf_init(&b);
    mp_value *out = NULL;
    if (mp_value_to_json(a, NULL, 0, &b, err) == 0)
      out = mp_value_new_string(b.data ? b.data : "", b.len);
    mp_buf_destroy(&b);
    return out;
  }
  case MP_FN_TOBASE64:
  case MP_FN_FROMBASE64:
    return fn_base64(c, x, a, err);
  case MP_FN_READFILE:
    return fn_read_file(c, x, a, err);
  case MP_FN_FILEBASE64:
  case MP_FN_FILEBASE64SHA256:
    return fn_file_b64(c, x, a, err);
  case MP_FN_SHA1:
    return fn_sha1(c, x, a, err);
  case MP_FN_LENGTH:
    return fn_length(c, x, a, err);
  case MP_FN_SINGLEORNONE:
    return fn_single_or_none(c, x, a, err);
  case MP_FN_ASSETARCHIVE:
    return mp_value_new_archive(NULL, mp_value_dup(a), NULL, NULL);
  default:
    break;
  }
  if (need(c, x, a, MP_VALUE_STRING, "the argument", err) < 0)
    return NULL;
  const char *s = a->u.str.ptr;
  switch (x->fn) {
  case MP_FN_STRINGASSET:
    return mp_value_new_asset(NULL, s, NULL, NULL);
  case MP_FN_FILEASSET:
    return mp_value_new_asset(NULL, NULL, s, NULL);
  case MP_FN_REMOTEASSET:
    return mp_value_new_asset(NULL, NULL, NULL, s);
  case MP_FN_REMOTEARCHIVE:
    return mp_value_new_archive(NULL, NULL, NULL, s);
  default:
    return mp_value_new_archive(NULL, NULL, s, NULL);
  }
}

/* ---- fn::invoke ---- */

static const mp__yexpr *field(const mp__yexpr *obj, const char *key) {
  for (size_t i = 0; obj && obj->kind == MP_X_OBJECT && i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0)
      return obj->items[i];
  return NULL;
}

static char *invoke_token(const char *fn) {
  const char *c1 = strchr(fn, ':');
  if (c1 && !strchr(c1 + 1, ':'))
    return mp_xasprintf("%.*s:index:%s", (int)(c1 - fn), fn, c1 + 1);
  return mp_xstrdup(fn);
}

static char *invoke_provider(mp__evalctx *c, const mp__yexpr *arg,
                             const char *token) {
  const mp__yexpr *pv = field(field(arg, "options"), "provider");
  if (pv && pv->kind == MP_X_ACCESS && pv->ref == MP_REF_RESOURCE)
    return mp__prog_provider_ref(&c->p->res[pv->ref_index]);
  size_t pl = strcspn(token, ":");
  for (size_t i = 0; i < c->p->nres; i++) {
    const mp__yres *r = &c->p->res[i];
    if (r->default_provider && strlen(r->pkg) == pl &&
        strncmp(r->pkg, token, pl) == 0)
      return mp__prog_provider_ref(r);
  }
  return NULL;
}

/* The answered result with `return` applied. */
static mp_value *invoke_result(mp__evalctx *c, mp__yexpr *x, mp_err *err) {
  add_deps(c, &x->invoke_deps);
  const mp__yexpr *ret = field(x->arg, "return");
  const mp_value *v = x->invoke_result;
  /* A function whose schema returns no object answers {<any name>: value}:
   * the value is the result, as Pulumi YAML unwraps it. */
  if (x->invoke_unwrap && v->kind == MP_VALUE_OBJECT && v->u.obj.len == 1)
    v = v->u.obj.items[0].value;
  if (ret && ret->kind == MP_X_STR && v->kind == MP_VALUE_OBJECT) {
    v = mp_value_object_get(v, ret->str);
    if (v == NULL) {
      fail(err, c->p, x, "fn::invoke of '%s' returned no '%s'",
           field(x->arg, "function")->str, ret->str);
      return NULL;
    }
  }
  /* |boolean| on an fn::invoke node: its arguments held secrets. */
  return wrap(mp_value_dup(v), x->boolean);
}

static mp_value *eval_invoke(mp__evalctx *c, mp__yexpr *x, mp_err *err) {
  if (x->invoke_state == 2)
    return invoke_result(c, x, err);
  if (x->invoke_state == 1) {
    c->pending = 1;
    return NULL;
  }
  const mp__yexpr *args_x = field(x->arg, "arguments");
  mp_strv deps;
  mp_strv_init(&deps);
  mp__evalctx sub = *c;
  sub.deps = &deps;
  mp_value *args = args_x ? mp__eval(&sub, (mp__yexpr *)args_x, err)
                          : mp_value_new_object();
  /* options.dependsOn: the invoke waits for those resources, and its
   * result depends on them, as Pulumi YAML's invokes do. */
  const mp__yexpr *dep_x = field(field(x->arg, "options"), "dependsOn");
  if (args && dep_x) {
    mp_value *dv = mp__eval(&sub, (mp__yexpr *)dep_x, err);
    if (dv == NULL) {
      mp_value_free(args);
      args = NULL;
    }
    mp_value_free(dv);
  }
  c->pending |= sub.pending;
  if (args == NULL) {
    mp_strv_destroy(&deps);
    return NULL;
  }
  mp_strv_destroy(&x->invoke_deps);
  x->invoke_deps = deps;
  int secret = 0;
  if (lift(&args, &secret)) {
    mp_value_free(args);
    x->invoke_state = 2;
    x->invoke_result = mp_value_new_unknown();
    return invoke_result(c, x, err);
  }
  x->boolean = secret;
  char *token = invoke_token(field(x->arg, "function")->str);
  char *provider = invoke_provider(c, x->arg, token);
  int rc = c->start_invoke(c->ud, x, args, token, provider, err);
  free(token);
  free(provider);
  mp_value_free(args);
  if (rc < 0)
    return NULL;
  x->invoke_state = 1;
  c->pending = 1;
  return NULL;
}

/* fn::pulumiResourceName and fn::pulumiResourceType take a resource,
 * `${name}`, and give its registered name or its type token. */
static mp_value *eval_resource_fact(mp__evalctx *c, mp__yexpr *x,
                                    mp_err *err) {
  const mp__yexpr *a = x->arg;
  if (a->kind == MP_X_ACCESS && a->ref == MP_REF_RESOURCE && a->nacc == 0) {
    const mp__yres *r = &c->p->res[a->ref_index];
    return mp_value_new_cstring(x->fn == MP_FN_RESOURCENAME ? r->name
                                                            : r->type);
  }
  mp_value *v = mp__eval(c, x->arg, err);
  if (v == NULL)
    return NULL;
  fail(err, c->p, x, "%s requires a resource, got %s", mp__fn_name(x->fn),
       type_string(v));
  mp_value_free(v);
  return NULL;
}

static mp_value *eval_fn(mp__evalctx *c, mp__yexpr *x, mp_err *err) {
  if (x->fn == MP_FN_INVOKE)
    return eval_invoke(c, x, err);
  if (x->fn == MP_FN_RESOURCENAME || x->fn == MP_FN_RESOURCETYPE)
    return eval_resource_fact(c, x, err);
  mp_value *a = mp__eval(c, x->arg, err);
  if (a == NULL)
    return NULL;
  if (x->fn == MP_FN_SECRET)
    return mp_value_new_secret(a);
  if (x->fn == MP_FN_UNSECRET) {
    mp_value *plain = mp_value_strip_secrets(a);
    mp_value_free(a);
    return plain;
  }
  int secret = 0;
  if (lift(&a, &secret)) {
    mp_value_free(a);
    return mp_value_new_unknown();
  }
  mp_value *out = fn_plain(c, x, a, err);
  mp_value_free(a);
  return wrap(out, secret);
}

mp_value *mp__eval(mp__evalctx *c, mp__yexpr *x, mp_err *err) {
  switch (x->kind) {
  case MP_X_NULL:
    return mp_value_new_null();
  case MP_X_BOOL:
    return mp_value_new_bool(x->boolean);
  case MP_X_NUM:
    return mp_value_new_number(x->number);
  case MP_X_STR:
    return mp_value_new_string(x->str, x->len ? x->len : strlen(x->str));
  case MP_X_INTERP:
    return eval_interp(c, x, err);
  case MP_X_ACCESS:
    return eval_access(c, x, err);
  case MP_X_FN:
    return eval_fn(c, x, err);
  case MP_X_LIST:
  case MP_X_OBJECT:
    break;
  }
  mp_value *out = x->kind == MP_X_LIST ? mp_value_new_array()
                                       : mp_value_new_object();
  int failed = 0;
  for (size_t i = 0; i < x->n; i++) {
    mp_value *v = mp__eval(c, x->items[i], err);
    if (v == NULL) {
      failed = 1;
      if (err->code < 0)
        break;
      continue; /* pending: start every other ready invoke too */
    }
    if (x->kind == MP_X_LIST)
      mp_value_array_push(out, v);
    else
      mp_value_object_setn(out, x->keys[i], x->key_lens[i], v);
  }
  if (failed) {
    mp_value_free(out);
    return NULL;
  }
  return out;
}
