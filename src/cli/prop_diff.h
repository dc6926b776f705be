/* Property diffs as Pulumi's display draws them (its object_diff.go):
 * arrays and objects are diffed element by element, `~ tags: [` with
 * `~ [1]: "b" => "c"` inside, rather than shown as a whole removed value
 * and a whole added one. Used by the --diff detail of a step and by the
 * stack's Outputs section (cli/display.c). */
#ifndef MP_CLI_PROP_DIFF_H
#define MP_CLI_PROP_DIFF_H

#include <stddef.h>

#include "cli/ctx.h"
#include "engine/mem.h"
#include "engine/op.h"
#include "engine/value.h"

typedef enum mp_pdiff_kind {
  MP_PDIFF_SAME,
  MP_PDIFF_ADD,
  MP_PDIFF_DELETE,
  MP_PDIFF_UPDATE
} mp_pdiff_kind;

typedef struct mp_pdiff mp_pdiff;

/* One key of an object's diff (|key|) or one element of an array's
 * (|index|). */
typedef struct mp_pdiff_item {
  char *key;
  size_t index;
  mp_pdiff *d;
} mp_pdiff_item;

/* The difference between two values. An UPDATE of two objects or two
 * arrays has |container| 'o' or 'a' and one item per key or index
 * (sorted); any other UPDATE is a plain `old => new`. The values are
 * borrowed from the compared trees. */
struct mp_pdiff {
  mp_pdiff_kind kind;
  const mp_value *old, *new_;
  char container;
  mp_pdiff_item *items;
  size_t len, cap;
};

/* Pulumi's PropertyMap.Diff of two objects (NULL counts as empty), keys
 * starting with `__` left out: an UPDATE with container 'o', or NULL when
 * nothing was added, deleted or updated. */
mp_pdiff *mp_pdiff_objects(const mp_value *olds, const mp_value *news);
/* A provider's detailed diff |dd| as a tree (Pulumi's
 * translateDetailedDiff): the old values from |old_outputs|, or from
 * |old_inputs| for an entry computed against the inputs; the new ones
 * from |new_inputs|. NULL when |dd| is empty. */
mp_pdiff *mp_pdiff_detailed(const mp_diff *dd, const mp_value *old_outputs,
                            const mp_value *old_inputs,
                            const mp_value *new_inputs);
void mp_pdiff_free(mp_pdiff *d);

/* How to print: ANSI colors or Pulumi's raw color tags per |color|, and
 * secrets shown with MP_RENDER_SHOW_SECRETS in |flags|. */
typedef struct mp_pdiff_style {
  mp_color_mode color;
  unsigned flags;
} mp_pdiff_style;

/* The properties of object diff |d| at |indent| levels of four columns,
 * keys aligned, each as added (+), deleted (-), updated (~) or the same;
 * with |include| (non-empty) only those top-level keys. */
void mp_pdiff_print_object(const mp_pdiff *d, const mp_strv *include,
                           int indent, const mp_pdiff_style *st, mp_buf *out);
/* The one property |key| of object diff |d| (may be NULL), its key padded
 * to |align|. 0 if |d| has no such key. */
int mp_pdiff_print_property(const mp_pdiff *d, const char *key, int align,
                            int indent, const mp_pdiff_style *st, mp_buf *out);
/* Every property of |obj| (an OBJECT) shown as op |op|; with |prefix| the
 * op's symbol before each key (Pulumi's PrintObject). */
void mp_pdiff_print_plain(const mp_value *obj, mp_step_op op, int prefix,
                          int indent, const mp_pdiff_style *st, mp_buf *out);

#endif
