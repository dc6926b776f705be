/* A parsed YAML document as a small tree that keeps every node's position,
 * so that the language host can name file:line:col in its messages. Built
 * with libyaml; no libyaml type leaves ynode.c (STYLE rule 9). */
#ifndef MP_LANG_YNODE_H
#define MP_LANG_YNODE_H

#include <stddef.h>

#include "engine/err.h"

typedef enum mp__ynode_kind {
  MP_YNODE_SCALAR,
  MP_YNODE_MAP,
  MP_YNODE_SEQ
} mp__ynode_kind;

typedef struct mp__ynode mp__ynode;

/* One node. Maps keep their entries in document order. Owner: whoever
 * parsed the document; read-only afterwards. */
struct mp__ynode {
  mp__ynode_kind kind;
  int line, col; /* 1-based position of the node's first character */
  char *text;    /* SCALAR: NUL-terminated text */
  size_t len;    /* SCALAR: length of |text| */
  int quoted;    /* SCALAR: not plain (quoted or block), so always a string */
  mp__ynode **keys; /* MAP: the key scalars */
  mp__ynode **vals; /* MAP: values; SEQ: the items */
  size_t n;
};

/* Parses |text| (|len| bytes) as one YAML document into |*out| (owned; free
 * with mp__ynode_free). An empty document gives an empty MAP. |file| names
 * the file in messages. Returns 0 or MP_EINVAL ("<file>:<line>:<col>:
 * ..."). */
int mp__ynode_parse(const char *file, const char *text, size_t len,
                    mp__ynode **out, mp_err *err);
void mp__ynode_free(mp__ynode *n);

/* The value under |key| in MAP |map| (borrowed), or NULL. */
const mp__ynode *mp__ynode_get(const mp__ynode *map, const char *key);
/* The key node of |key| in |map|, or NULL. */
const mp__ynode *mp__ynode_key(const mp__ynode *map, const char *key);
/* 1 if |n| is a plain scalar that YAML reads as null (~, null, empty). */
int mp__ynode_is_null(const mp__ynode *n);

#endif
