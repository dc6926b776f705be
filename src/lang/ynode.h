/* YAML documents: the one wrapper of libyaml (no libyaml type leaves
 * ynode.c). A parsed document is a small tree that keeps every node's
 * position, so that messages can name file:line:col; it converts to a
 * value tree, and a value tree is written back as YAML. Used by the
 * Pulumi YAML host (Pulumi.yaml, Main.yaml) and by the CLI (the stack
 * configuration files). */
#ifndef MP_LANG_YNODE_H
#define MP_LANG_YNODE_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"

typedef enum mp_ynode_kind {
  MP_YNODE_SCALAR,
  MP_YNODE_MAP,
  MP_YNODE_SEQ
} mp_ynode_kind;

typedef struct mp_ynode mp_ynode;

/* One node. Maps keep their entries in document order. Owner: whoever
 * parsed the document; read-only afterwards. */
struct mp_ynode {
  mp_ynode_kind kind;
  int line, col; /* 1-based position of the node's first character */
  char *text;    /* SCALAR: NUL-terminated text */
  size_t len;    /* SCALAR: length of |text| */
  int quoted;    /* SCALAR: not plain (quoted or block), so always a string */
  mp_ynode **keys; /* MAP: the key scalars */
  mp_ynode **vals; /* MAP: values; SEQ: the items */
  size_t n;
};

/* Parses |text| (|len| bytes) as one YAML document into |*out| (owned; free
 * with mp_ynode_free). An empty document gives an empty MAP. |file| names
 * the file in messages. Returns 0 or MP_EINVAL ("<file>:<line>:<col>:
 * ..."). */
int mp_ynode_parse(const char *file, const char *text, size_t len,
                    mp_ynode **out, mp_err *err);
void mp_ynode_free(mp_ynode *n);
/* Reads the file |path| and parses it as mp_ynode_parse does, naming it
 * |file| in messages. Returns 0, MP_ENOENT (no such file), MP_EIO
 * ("cannot read '<path>': ..."), or MP_EINVAL (larger than 16 MiB, or not
 * YAML). */
int mp_ynode_load(const char *path, const char *file, mp_ynode **out,
                  mp_err *err);

/* A glance at the head of the YAML file |path|: the text of the scalar
 * under |key| in its top-level mapping if the first |max_events| parse
 * events reach it (owned), else NULL. Reads no further than that; for a
 * guess the full parse confirms (the CLI's head start on the passphrase's
 * key). */
char *mp_ynode_peek(const char *path, const char *key, int max_events);
/* The value under |key| in MAP |map| (borrowed), or NULL. */
const mp_ynode *mp_ynode_get(const mp_ynode *map, const char *key);
/* 1 if |n| is a plain scalar that YAML reads as null (~, null, empty). */
int mp_ynode_is_null(const mp_ynode *n);

enum mp_ynode_value_flags {
  /* Plain scalars as YAML types them: numbers, booleans and null;
   * otherwise every scalar is a string (a plain null scalar still null),
   * so that text such as `0755` or `yes` keeps its spelling. */
  MP_YNODE_TYPED = 1 << 0
};

/* The value tree of |n| (owned); maps keep their keys, sequences their
 * order. flags: enum mp_ynode_value_flags. */
mp_value *mp_ynode_value(const mp_ynode *n, unsigned flags);

enum mp_ynode_emit_flags {
  /* The keys named in |first| come first in every mapping, not only in
   * the document's own. */
  MP_YNODE_FIRST_EVERYWHERE = 1 << 0
};

/* Writes OBJECT |v| as one YAML document into |out|: the keys named in
 * |first| (in that order) before the others (flags: enum
 * mp_ynode_emit_flags), two-space indentation, no
 * line wrapping; a string YAML would read as something else (a number, a
 * boolean, null, a date) is double-quoted. Returns 0 or MP_EINVAL (a
 * value YAML cannot hold: a secret, an unknown, ...). */
int mp_ynode_emit(const mp_value *v, const char *const *first, size_t nfirst,
                  unsigned flags, mp_buf *out, mp_err *err);

#endif
