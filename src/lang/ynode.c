#include "lang/ynode.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "engine/map.h"
#include "engine/mem.h"
#include "engine/text.h"

/* Nesting deeper than this is refused (a bound on recursion). */
#define MAX_DEPTH 128

/* A node; a scalar's |text| (|len| bytes) lives in the same allocation:
 * a program of many resources is mostly scalars, and one allocation each
 * halves the cost of building and freeing them. */
static mp_ynode *node_new(mp_ynode_kind kind, const yaml_mark_t *m,
                          const char *text, size_t len) {
  mp_ynode *n = mp_xcalloc(1, sizeof(*n) + (text ? len + 1 : 0));
  n->kind = kind;
  n->line = (int)m->line + 1;
  n->col = (int)m->column + 1;
  if (text) {
    n->text = (char *)(n + 1);
    memcpy(n->text, text, len);
    n->len = len;
  }
  return n;
}

void mp_ynode_free(mp_ynode *n) {
  if (n == NULL)
    return;
  for (size_t i = 0; i < n->n; i++) {
    if (n->keys)
      mp_ynode_free(n->keys[i]);
    mp_ynode_free(n->vals[i]);
  }
  free(n->keys);
  free(n->vals);
  free(n);
}

/* Room for one more child: the arrays double at each power of two. */
static int needs_room(size_t n) { return n == 0 || (n >= 4 && !(n & (n - 1))); }
static size_t room_for(size_t n) { return n == 0 ? 4 : 2 * n; }

static void seq_push(mp_ynode *seq, mp_ynode *item) {
  if (needs_room(seq->n))
    seq->vals = mp_xreallocarray(seq->vals, room_for(seq->n), sizeof(*seq->vals));
  seq->vals[seq->n++] = item;
}

static void map_push(mp_ynode *map, mp_ynode *key, mp_ynode *val) {
  if (needs_room(map->n)) {
    size_t room = room_for(map->n);
    map->keys = mp_xreallocarray(map->keys, room, sizeof(*map->keys));
    map->vals = mp_xreallocarray(map->vals, room, sizeof(*map->vals));
  }
  map->keys[map->n] = key;
  map->vals[map->n++] = val;
}

typedef struct parse_state {
  yaml_parser_t parser;
  const char *file;
  const char *text; /* the whole input, for positions of reader errors */
  size_t len;
  mp_err *err;
} parse_state;

static int parse_node(parse_state *ps, yaml_event_t *ev, int depth,
                      mp_ynode **out);

static int next_event(parse_state *ps, yaml_event_t *ev) {
  if (yaml_parser_parse(&ps->parser, ev))
    return 0;
  const yaml_mark_t *m = &ps->parser.problem_mark;
  int line = (int)m->line + 1, col = (int)m->column + 1;
  /* libyaml gives a reader error (bad UTF-8, a control character) no
   * mark, only the byte offset. */
  if (ps->parser.error == YAML_READER_ERROR)
    mp_text_position(ps->text, ps->len, ps->parser.problem_offset, &line,
                     &col);
  return mp_err_set(ps->err, MP_EINVAL, "%s:%d:%d: invalid YAML: %s",
                    ps->file, line, col,
                    ps->parser.problem ? ps->parser.problem : "parse error");
}

/* Maps with more keys than this find duplicates through a hash index
 * rather than by comparing with every earlier key (a program of many
 * resources is one large map). */
#define INDEX_FROM 16

/* The earlier key of |coll| equal to |key|, or NULL; |index| (when
 * *indexed) maps each key to its position + 1. */
static const mp_ynode *earlier_key(const mp_ynode *coll, const mp_map *index,
                                   int indexed, const char *key) {
  if (indexed) {
    void *v = mp_map_get(index, key);
    return v ? coll->keys[(uintptr_t)v - 1] : NULL;
  }
  for (size_t i = 0; i < coll->n; i++)
    if (strcmp(coll->keys[i]->text, key) == 0)
      return coll->keys[i];
  return NULL;
}

/* One key and its value, added to map |coll|. Takes |key|. */
static int parse_entry(parse_state *ps, mp_ynode *coll, mp_ynode *key,
                       mp_map *index, int *indexed, int depth) {
  int rc;
  if (key->kind != MP_YNODE_SCALAR) {
    rc = mp_err_set(ps->err, MP_EINVAL,
                    "%s:%d:%d: a mapping key must be a plain string",
                    ps->file, key->line, key->col);
    mp_ynode_free(key);
    return rc;
  }
  const mp_ynode *first = earlier_key(coll, index, *indexed, key->text);
  if (first) {
    rc = mp_err_set(ps->err, MP_EINVAL,
                    "%s:%d:%d: duplicate key '%s' (first at line %d)",
                    ps->file, key->line, key->col, key->text, first->line);
    mp_ynode_free(key);
    return rc;
  }
  yaml_event_t vev;
  mp_ynode *val = NULL;
  rc = next_event(ps, &vev);
  if (rc == 0) {
    rc = parse_node(ps, &vev, depth + 1, &val);
    yaml_event_delete(&vev);
  }
  if (rc < 0) {
    mp_ynode_free(key);
    return rc;
  }
  map_push(coll, key, val);
  if (*indexed) {
    mp_map_put(index, key->text, (void *)(uintptr_t)coll->n);
  } else if (coll->n >= INDEX_FROM) {
    for (size_t i = 0; i < coll->n; i++)
      mp_map_put(index, coll->keys[i]->text, (void *)(uintptr_t)(i + 1));
    *indexed = 1;
  }
  return 0;
}

/* Reads the children of a collection until its end event. */
static int parse_children(parse_state *ps, mp_ynode *coll, int depth) {
  mp_map index;
  int indexed = 0, rc;
  mp_map_init(&index);
  for (;;) {
    yaml_event_t ev;
    rc = next_event(ps, &ev);
    if (rc < 0)
      break;
    if (ev.type == YAML_SEQUENCE_END_EVENT ||
        ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    mp_ynode *child = NULL;
    rc = parse_node(ps, &ev, depth + 1, &child);
    yaml_event_delete(&ev);
    if (rc < 0)
      break;
    if (coll->kind == MP_YNODE_SEQ)
      seq_push(coll, child);
    else if ((rc = parse_entry(ps, coll, child, &index, &indexed, depth)) < 0)
      break;
  }
  mp_map_destroy(&index);
  return rc;
}

static int parse_node(parse_state *ps, yaml_event_t *ev, int depth,
                      mp_ynode **out) {
  const yaml_mark_t *m = &ev->start_mark;
  if (depth > MAX_DEPTH)
    return mp_err_set(ps->err, MP_EINVAL, "%s:%d:%d: nesting is too deep",
                      ps->file, (int)m->line + 1, (int)m->column + 1);
  switch (ev->type) {
  case YAML_SCALAR_EVENT: {
    mp_ynode *n = node_new(MP_YNODE_SCALAR, m,
                           (const char *)ev->data.scalar.value,
                           ev->data.scalar.length);
    n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    *out = n;
    return 0;
  }
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT: {
    mp_ynode *n = node_new(ev->type == YAML_SEQUENCE_START_EVENT
                                ? MP_YNODE_SEQ
                                : MP_YNODE_MAP,
                            m, NULL, 0);
    int rc = parse_children(ps, n, depth);
    if (rc < 0) {
      mp_ynode_free(n);
      return rc;
    }
    *out = n;
    return 0;
  }
  case YAML_ALIAS_EVENT:
    return mp_err_set(ps->err, MP_EINVAL,
                      "%s:%d:%d: YAML aliases are not supported; repeat the "
                      "value or use a variable",
                      ps->file, (int)m->line + 1, (int)m->column + 1);
  default:
    return mp_err_set(ps->err, MP_EINVAL, "%s:%d:%d: unexpected YAML event",
                      ps->file, (int)m->line + 1, (int)m->column + 1);
  }
}

/* Skips stream/document starts; returns the root node or an empty map. */
static int parse_document(parse_state *ps, mp_ynode **out) {
  for (;;) {
    yaml_event_t ev;
    int rc = next_event(ps, &ev);
    if (rc < 0)
      return rc;
    yaml_event_type_t t = ev.type;
    if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) {
      yaml_event_delete(&ev);
      continue;
    }
    if (t == YAML_STREAM_END_EVENT || t == YAML_DOCUMENT_END_EVENT) {
      yaml_mark_t zero = {0, 0, 0};
      yaml_event_delete(&ev);
      *out = node_new(MP_YNODE_MAP, &zero, NULL, 0);
      return 0;
    }
    rc = parse_node(ps, &ev, 0, out);
    yaml_event_delete(&ev);
    return rc;
  }
}

int mp_ynode_parse(const char *file, const char *text, size_t len,
                    mp_ynode **out, mp_err *err) {
  *out = NULL;
  parse_state ps = {.file = file, .text = text, .len = len, .err = err};
  if (!yaml_parser_initialize(&ps.parser))
    return mp_err_set(err, MP_EIO, "cannot initialise the YAML parser");
  yaml_parser_set_input_string(&ps.parser, (const unsigned char *)text, len);
  mp_ynode *root = NULL;
  int rc = parse_document(&ps, &root);
  yaml_parser_delete(&ps.parser);
  if (rc < 0)
    return rc;
  if (root->kind == MP_YNODE_SCALAR && mp_ynode_is_null(root)) {
    root->kind = MP_YNODE_MAP; /* its text stays in its allocation, unused */
    root->text = NULL;
    root->len = 0;
  }
  *out = root;
  return 0;
}

/* Files larger than this are refused. */
#define MAX_FILE (16u << 20)

int mp_ynode_load(const char *path, const char *file, mp_ynode **out,
                  mp_err *err) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "cannot read '%s': %s", path, strerror(errno));
  mp_buf b;
  mp_buf_init(&b);
  char chunk[8192];
  size_t n;
  int rc = 0;
  while (rc == 0 && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    mp_buf_append(&b, chunk, n);
    if (b.len > MAX_FILE)
      rc = mp_err_set(err, MP_EINVAL, "'%s' is larger than %u bytes", path,
                      MAX_FILE);
  }
  if (rc == 0 && ferror(f))
    rc = mp_err_set(err, MP_EIO, "cannot read '%s'", path);
  fclose(f);
  if (rc == 0) rc = mp_ynode_parse(file, b.data ? b.data : "", b.len, out, err);
  mp_buf_destroy(&b);
  return rc;
}

char *mp_ynode_peek(const char *path, const char *key, int max_events) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) {
    fclose(f);
    return NULL;
  }
  yaml_parser_set_input_file(&parser, f); /* read as far as parsed */
  char *found = NULL;
  int depth = 0, want_key = 1, matched = 0;
  for (int i = 0; i < max_events && found == NULL; i++) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) break;
    yaml_event_type_t t = ev.type;
    int done = t == YAML_STREAM_END_EVENT || t == YAML_DOCUMENT_END_EVENT ||
               t == YAML_ALIAS_EVENT ||
               (depth == 0 && t == YAML_SEQUENCE_START_EVENT);
    if (t == YAML_MAPPING_START_EVENT || t == YAML_SEQUENCE_START_EVENT) {
      depth++;
      if (depth == 2) want_key = 1, matched = 0; /* a value: skipped */
    } else if (t == YAML_MAPPING_END_EVENT || t == YAML_SEQUENCE_END_EVENT) {
      depth--;
      done |= depth == 0;
    } else if (t == YAML_SCALAR_EVENT && depth == 1) {
      const char *v = (const char *)ev.data.scalar.value;
      if (want_key)
        matched = strcmp(v, key) == 0;
      else if (matched)
        found = mp_xstrndup(v, ev.data.scalar.length);
      want_key = !want_key;
    }
    yaml_event_delete(&ev);
    if (done) break;
  }
  yaml_parser_delete(&parser);
  fclose(f);
  return found;
}

const mp_ynode *mp_ynode_get(const mp_ynode *map, const char *key) {
  if (map == NULL || map->kind != MP_YNODE_MAP)
    return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) == 0)
      return map->vals[i];
  return NULL;
}

int mp_ynode_is_null(const mp_ynode *n) {
  if (n == NULL)
    return 1;
  if (n->kind != MP_YNODE_SCALAR || n->quoted)
    return 0;
  return n->len == 0 || strcmp(n->text, "~") == 0 ||
         strcmp(n->text, "null") == 0 || strcmp(n->text, "Null") == 0 ||
         strcmp(n->text, "NULL") == 0;
}

/* ==== to values ==== */

/* A plain scalar as YAML types it. */
static mp_value *typed_scalar(const mp_ynode *n) {
  const char *t = n->text;
  if (!strcmp(t, "true") || !strcmp(t, "True") || !strcmp(t, "TRUE"))
    return mp_value_new_bool(1);
  if (!strcmp(t, "false") || !strcmp(t, "False") || !strcmp(t, "FALSE"))
    return mp_value_new_bool(0);
  char *end = NULL;
  errno = 0;
  double d = strtod(t, &end);
  /* A subnormal (5e-324) is a number, as in Go: strtod's ERANGE on
   * underflow is no failure; overflow (infinity) is. */
  if (end != t && *end == '\0' && (errno == 0 || fabs(d) < 1) &&
      isfinite(d) &&
      strchr("+-.0123456789", t[0]) && !(t[0] == '0' && t[1] == 'x'))
    return mp_value_new_number(d);
  return mp_value_new_string(n->text, n->len);
}

mp_value *mp_ynode_value(const mp_ynode *n, unsigned flags) {
  if (n->kind == MP_YNODE_SEQ) {
    mp_value *a = mp_value_new_array();
    for (size_t i = 0; i < n->n; i++)
      mp_value_array_push(a, mp_ynode_value(n->vals[i], flags));
    return a;
  }
  if (n->kind == MP_YNODE_MAP) {
    mp_value *o = mp_value_new_object();
    for (size_t i = 0; i < n->n; i++)
      mp_value_object_setn(o, n->keys[i]->text, n->keys[i]->len,
                           mp_ynode_value(n->vals[i], flags));
    return o;
  }
  if (n->quoted) return mp_value_new_string(n->text, n->len);
  if (mp_ynode_is_null(n)) return mp_value_new_null();
  if (flags & MP_YNODE_TYPED) return typed_scalar(n);
  return mp_value_new_string(n->text, n->len);
}

/* ==== writing ==== */

static int write_handler(void *data, unsigned char *buffer, size_t size) {
  mp_buf_append((mp_buf *)data, buffer, size);
  return 1;
}

static int looks_like_number(const char *s) {
  if (!strncmp(s, "0x", 2) || !strncmp(s, "0o", 2)) return 1;
  const char *t = (*s == '-' || *s == '+') ? s + 1 : s;
  if (!strcasecmp(t, ".inf") || !strcasecmp(s, ".nan")) return 1;
  char *end = NULL;
  errno = 0;
  (void)strtod(s, &end);
  if (end != s && *end == 0) return 1;
  /* a date YAML 1.1 would read as a timestamp */
  return isdigit((unsigned char)s[0]) && strlen(s) >= 10 && s[4] == '-' &&
         s[7] == '-';
}

/* 1 if a plain scalar |s| would not read back as the same string. */
static int needs_quotes(const char *s) {
  static const char *const words[] = {"true", "false", "yes", "no", "on",
                                      "off",  "y",     "n",   "null", "~"};
  if (!*s) return 1;
  for (size_t i = 0; i < MP_ARRAY_LEN(words); i++)
    if (!strcasecmp(s, words[i])) return 1;
  return looks_like_number(s);
}

static int emit(yaml_emitter_t *em, yaml_event_t *ev, mp_err *err) {
  if (!yaml_emitter_emit(em, ev))
    return mp_err_set(err, MP_EINVAL, "cannot write YAML: %s",
                      em->problem ? em->problem : "emitter error");
  return 0;
}

static int emit_scalar(yaml_emitter_t *em, const char *s, size_t len,
                       int plain_null, mp_err *err) {
  yaml_event_t ev;
  yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
  if (!plain_null && needs_quotes(s)) style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  /* Text that is not UTF-8 is refused before libyaml sees it: libyaml
   * lets a surrogate through (then writes an escape its own parser
   * refuses), and for other bad bytes it leaves |ev| unset, which the
   * emitter would free. */
  if (mp_utf8_invalid_at(s, len) != len ||
      !yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s,
                                    (int)len, 1, 1, style))
    return mp_err_set(err, MP_EINVAL, "cannot write YAML: %.*s is not UTF-8",
                      (int)(len > 40 ? 40 : len), s);
  return emit(em, &ev, err);
}

/* The key order of mp_ynode_emit: |first| at the top, or everywhere. */
typedef struct emit_order {
  const char *const *first;
  size_t nfirst;
  int everywhere;
} emit_order;

static int emit_value(yaml_emitter_t *em, const mp_value *v,
                      const emit_order *o, mp_err *err);

static int in_list(const char *const *l, size_t n, const char *k) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(l[i], k)) return 1;
  return 0;
}

static int emit_entry(yaml_emitter_t *em, const char *k, const mp_value *v,
                      const emit_order *o, mp_err *err) {
  int rc = emit_scalar(em, k, strlen(k), 0, err);
  return rc ? rc : emit_value(em, v, o, err);
}

/* Emits the keys named in |o|'s first (in that order) and then the
 * others; |top|: the document's own mapping. */
static int emit_object(yaml_emitter_t *em, const mp_value *v,
                       const emit_order *o, int top, mp_err *err) {
  const char *const *first = top || o->everywhere ? o->first : NULL;
  size_t nfirst = first ? o->nfirst : 0;
  yaml_event_t ev;
  int rc;
  yaml_mapping_start_event_initialize(
      &ev, NULL, NULL, 1,
      v->u.obj.len ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE);
  if ((rc = emit(em, &ev, err))) return rc;
  for (size_t f = 0; f < nfirst; f++) {
    const mp_value *fv = mp_value_object_get(v, first[f]);
    if (fv && (rc = emit_entry(em, first[f], fv, o, err))) return rc;
  }
  for (size_t i = 0; i < v->u.obj.len; i++) {
    const mp_value_entry *e = &v->u.obj.items[i];
    if (in_list(first, nfirst, e->key)) continue;
    if ((rc = emit_entry(em, e->key, e->value, o, err))) return rc;
  }
  yaml_mapping_end_event_initialize(&ev);
  return emit(em, &ev, err);
}

static int emit_value(yaml_emitter_t *em, const mp_value *v,
                      const emit_order *o, mp_err *err) {
  yaml_event_t ev;
  int rc;
  switch (v->kind) {
  case MP_VALUE_NULL:
    return emit_scalar(em, "null", 4, 1, err);
  case MP_VALUE_STRING:
    return emit_scalar(em, v->u.str.ptr, v->u.str.len, 0, err);
  case MP_VALUE_BOOL:
    return emit_scalar(em, v->u.boolean ? "true" : "false",
                       v->u.boolean ? 4 : 5, 1, err);
  case MP_VALUE_NUMBER: {
    char num[64];
    snprintf(num, sizeof(num), "%.17g", v->u.number);
    return emit_scalar(em, num, strlen(num), 1, err);
  }
  case MP_VALUE_OBJECT:
    return emit_object(em, v, o, 0, err);
  case MP_VALUE_ARRAY:
    yaml_sequence_start_event_initialize(
        &ev, NULL, NULL, 1,
        v->u.arr.len ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE);
    if ((rc = emit(em, &ev, err))) return rc;
    for (size_t i = 0; i < v->u.arr.len; i++)
      if ((rc = emit_value(em, v->u.arr.items[i], o, err))) return rc;
    yaml_sequence_end_event_initialize(&ev);
    return emit(em, &ev, err);
  default:
    return mp_err_set(err, MP_EINVAL, "cannot write a %s value as YAML",
                      mp_value_kind_name(v->kind));
  }
}

int mp_ynode_emit(const mp_value *v, const char *const *first, size_t nfirst,
                  unsigned flags, mp_buf *out, mp_err *err) {
  emit_order o = {first, nfirst, (flags & MP_YNODE_FIRST_EVERYWHERE) != 0};
  yaml_emitter_t em;
  yaml_event_t ev;
  int rc;
  if (!yaml_emitter_initialize(&em))
    return mp_err_set(err, MP_EIO, "cannot initialise the YAML emitter");
  yaml_emitter_set_output(&em, write_handler, out);
  yaml_emitter_set_unicode(&em, 1);
  yaml_emitter_set_width(&em, -1);
  yaml_emitter_set_indent(&em, 2);
  yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
  if ((rc = emit(&em, &ev, err))) goto done;
  yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
  if ((rc = emit(&em, &ev, err))) goto done;
  if ((rc = emit_object(&em, v, &o, 1, err))) goto done;
  yaml_document_end_event_initialize(&ev, 1);
  if ((rc = emit(&em, &ev, err))) goto done;
  yaml_stream_end_event_initialize(&ev);
  rc = emit(&em, &ev, err);
done:
  yaml_emitter_delete(&em);
  return rc;
}

