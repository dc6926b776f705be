#include "lang/ynode.h"

#include <string.h>
#include <yaml.h>

#include "engine/mem.h"
#include "engine/text.h"

/* Nesting deeper than this is refused (a bound on recursion). */
#define MAX_DEPTH 128

static mp__ynode *node_new(mp__ynode_kind kind, const yaml_mark_t *m) {
  mp__ynode *n = mp_xcalloc(1, sizeof(*n));
  n->kind = kind;
  n->line = (int)m->line + 1;
  n->col = (int)m->column + 1;
  return n;
}

void mp__ynode_free(mp__ynode *n) {
  if (n == NULL)
    return;
  for (size_t i = 0; i < n->n; i++) {
    if (n->keys)
      mp__ynode_free(n->keys[i]);
    mp__ynode_free(n->vals[i]);
  }
  free(n->keys);
  free(n->vals);
  free(n->text);
  free(n);
}

static void seq_push(mp__ynode *seq, mp__ynode *item) {
  seq->vals = mp_xreallocarray(seq->vals, seq->n + 1, sizeof(*seq->vals));
  seq->vals[seq->n++] = item;
}

static void map_push(mp__ynode *map, mp__ynode *key, mp__ynode *val) {
  map->keys = mp_xreallocarray(map->keys, map->n + 1, sizeof(*map->keys));
  map->vals = mp_xreallocarray(map->vals, map->n + 1, sizeof(*map->vals));
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
                      mp__ynode **out);

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

/* Reads the children of a collection until its end event. */
static int parse_children(parse_state *ps, mp__ynode *coll, int depth) {
  for (;;) {
    yaml_event_t ev;
    int rc = next_event(ps, &ev);
    if (rc < 0)
      return rc;
    if (ev.type == YAML_SEQUENCE_END_EVENT ||
        ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      return 0;
    }
    mp__ynode *child = NULL;
    rc = parse_node(ps, &ev, depth + 1, &child);
    yaml_event_delete(&ev);
    if (rc < 0)
      return rc;
    if (coll->kind == MP_YNODE_SEQ) {
      seq_push(coll, child);
      continue;
    }
    if (child->kind != MP_YNODE_SCALAR) {
      rc = mp_err_set(ps->err, MP_EINVAL,
                      "%s:%d:%d: a mapping key must be a plain string",
                      ps->file, child->line, child->col);
      mp__ynode_free(child);
      return rc;
    }
    for (size_t i = 0; i < coll->n; i++) {
      if (strcmp(coll->keys[i]->text, child->text) == 0) {
        rc = mp_err_set(ps->err, MP_EINVAL,
                        "%s:%d:%d: duplicate key '%s' (first at line %d)",
                        ps->file, child->line, child->col, child->text,
                        coll->keys[i]->line);
        mp__ynode_free(child);
        return rc;
      }
    }
    yaml_event_t vev;
    mp__ynode *val = NULL;
    rc = next_event(ps, &vev);
    if (rc == 0) {
      rc = parse_node(ps, &vev, depth + 1, &val);
      yaml_event_delete(&vev);
    }
    if (rc < 0) {
      mp__ynode_free(child);
      return rc;
    }
    map_push(coll, child, val);
  }
}

static int parse_node(parse_state *ps, yaml_event_t *ev, int depth,
                      mp__ynode **out) {
  const yaml_mark_t *m = &ev->start_mark;
  if (depth > MAX_DEPTH)
    return mp_err_set(ps->err, MP_EINVAL, "%s:%d:%d: nesting is too deep",
                      ps->file, (int)m->line + 1, (int)m->column + 1);
  switch (ev->type) {
  case YAML_SCALAR_EVENT: {
    /* A string ends at its first NUL wherever it goes next (a command's
     * arguments, a C string); refuse it rather than cut it. */
    if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
      return mp_err_set(ps->err, MP_EINVAL,
                        "%s:%d:%d: a string may not contain a NUL character "
                        "(\\0)",
                        ps->file, (int)m->line + 1, (int)m->column + 1);
    mp__ynode *n = node_new(MP_YNODE_SCALAR, m);
    n->len = ev->data.scalar.length;
    n->text = mp_xstrndup((const char *)ev->data.scalar.value, n->len);
    n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    *out = n;
    return 0;
  }
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT: {
    mp__ynode *n = node_new(ev->type == YAML_SEQUENCE_START_EVENT
                                ? MP_YNODE_SEQ
                                : MP_YNODE_MAP,
                            m);
    int rc = parse_children(ps, n, depth);
    if (rc < 0) {
      mp__ynode_free(n);
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
static int parse_document(parse_state *ps, mp__ynode **out) {
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
      *out = node_new(MP_YNODE_MAP, &zero);
      return 0;
    }
    rc = parse_node(ps, &ev, 0, out);
    yaml_event_delete(&ev);
    return rc;
  }
}

int mp__ynode_parse(const char *file, const char *text, size_t len,
                    mp__ynode **out, mp_err *err) {
  *out = NULL;
  parse_state ps = {.file = file, .text = text, .len = len, .err = err};
  if (!yaml_parser_initialize(&ps.parser))
    return mp_err_set(err, MP_EIO, "cannot initialise the YAML parser");
  yaml_parser_set_input_string(&ps.parser, (const unsigned char *)text, len);
  mp__ynode *root = NULL;
  int rc = parse_document(&ps, &root);
  yaml_parser_delete(&ps.parser);
  if (rc < 0)
    return rc;
  if (root->kind == MP_YNODE_SCALAR && mp__ynode_is_null(root)) {
    root->kind = MP_YNODE_MAP;
    free(root->text);
    root->text = NULL;
  }
  *out = root;
  return 0;
}

const mp__ynode *mp__ynode_key(const mp__ynode *map, const char *key) {
  if (map == NULL || map->kind != MP_YNODE_MAP)
    return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) == 0)
      return map->keys[i];
  return NULL;
}

const mp__ynode *mp__ynode_get(const mp__ynode *map, const char *key) {
  if (map == NULL || map->kind != MP_YNODE_MAP)
    return NULL;
  for (size_t i = 0; i < map->n; i++)
    if (strcmp(map->keys[i]->text, key) == 0)
      return map->vals[i];
  return NULL;
}

int mp__ynode_is_null(const mp__ynode *n) {
  if (n == NULL)
    return 1;
  if (n->kind != MP_YNODE_SCALAR || n->quoted)
    return 0;
  return n->len == 0 || strcmp(n->text, "~") == 0 ||
         strcmp(n->text, "null") == 0 || strcmp(n->text, "Null") == 0 ||
         strcmp(n->text, "NULL") == 0;
}
