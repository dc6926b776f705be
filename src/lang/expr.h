/* Pulumi YAML expressions: literals, lists, objects, `${...}` references
 * and interpolations, and the `fn::` built-in functions. Built from the
 * document tree once; evaluated by eval.c. */
#ifndef MP_LANG_EXPR_H
#define MP_LANG_EXPR_H

#include "engine/mem.h"
#include "engine/value.h"
#include "lang/ynode.h"

typedef enum mp__xkind {
  MP_X_NULL,
  MP_X_BOOL,
  MP_X_NUM,
  MP_X_STR,    /* literal string */
  MP_X_INTERP, /* parts: STR and ACCESS, concatenated as text */
  MP_X_ACCESS, /* ${root.a[0]["k"]} */
  MP_X_LIST,
  MP_X_OBJECT,
  MP_X_FN
} mp__xkind;

typedef enum mp__fn {
  MP_FN_SECRET,
  MP_FN_JOIN,
  MP_FN_SELECT,
  MP_FN_SPLIT,
  MP_FN_TOJSON,
  MP_FN_TOBASE64,
  MP_FN_FROMBASE64,
  MP_FN_READFILE,
  MP_FN_STRINGASSET,
  MP_FN_FILEASSET,
  MP_FN_FILEARCHIVE,
  MP_FN_REMOTEASSET,
  MP_FN_INVOKE,
  MP_FN_UNSECRET,
  MP_FN_FILEBASE64,
  MP_FN_FILEBASE64SHA256,
  MP_FN_SHA1,
  MP_FN_LENGTH,
  MP_FN_SINGLEORNONE,
  MP_FN_RESOURCENAME,
  MP_FN_RESOURCETYPE,
  MP_FN_REMOTEARCHIVE,
  MP_FN_ASSETARCHIVE
} mp__fn;

/* What the root of a reference names (resolved by the analysis). */
typedef enum mp__refkind {
  MP_REF_NONE,
  MP_REF_RESOURCE,
  MP_REF_VARIABLE,
  MP_REF_CONFIG,
  MP_REF_PULUMI
} mp__refkind;

typedef struct mp__xacc {
  char *key;    /* property name, or NULL for an index */
  size_t index;
} mp__xacc;

typedef struct mp__yexpr mp__yexpr;

/* Owner: the program (run.c); evaluated on the loop thread. */
struct mp__yexpr {
  mp__xkind kind;
  int line, col;
  int boolean;
  double number;
  char *str;          /* STR: the text; ACCESS: the root name */
  size_t len;         /* STR: length */
  mp__yexpr **items;  /* LIST items, OBJECT values, INTERP parts */
  char **keys;        /* OBJECT keys */
  size_t *key_lens;   /* OBJECT: their lengths (a key may hold a NUL) */
  size_t n;
  mp__xacc *acc;      /* ACCESS: the accessors after the root */
  size_t nacc;
  mp__refkind ref;    /* ACCESS: resolved root */
  size_t ref_index;
  mp__fn fn;          /* FN */
  mp__yexpr *arg;     /* FN: the argument */
  /* fn::invoke: 0 not called, 1 in flight, 2 answered */
  int invoke_state;
  mp_value *invoke_result; /* owned, when answered */
  mp_strv invoke_deps;     /* URNs the arguments depended on */
  /* fn::invoke: the function's schema returns no object, so the answer's
   * one property is the result (schemas.c) */
  int invoke_unwrap;
  /* fn::invoke of an extension package's function (schemas.c): the
   * schema's token (owned) and the extension's packageRef (borrowed from
   * the program); NULL otherwise. */
  char *invoke_token;
  const char *invoke_ref;
};

/* Builds the expression for |n|. |file| names the file in messages.
 * Returns 0 or MP_EINVAL ("<file>:<line>:<col>: ..."), e.g. for an
 * unknown fn:: or a malformed ${...}. */
int mp__yexpr_build(const mp_ynode *n, const char *file, mp__yexpr **out,
                    mp_err *err);
void mp__yexpr_free(mp__yexpr *x);

/* Calls |fn| on every ACCESS under |x| (interpolation parts, invoke
 * arguments and options included); stops at the first nonzero return and
 * returns it. */
int mp__yexpr_walk(mp__yexpr *x, int (*fn)(void *ud, mp__yexpr *acc),
                   void *ud);
/* The fn:: name of |f| ("fn::join"). */
const char *mp__fn_name(mp__fn f);

#endif
