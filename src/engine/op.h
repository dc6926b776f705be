/* Step operations and every fact about each, in one table (op.c): the
 * name Pulumi gives it in events and JSON, the display's symbol, colour
 * and words, whether it is the step that stands for its resource, whether
 * the summary counts it, whether it is a change, the pending operation
 * written before its provider call, and whether it calls the provider at
 * all. */
#ifndef MP_OP_H
#define MP_OP_H

typedef enum mp_step_op {
  MP_OP_SAME = 0,
  MP_OP_CREATE,
  MP_OP_UPDATE,
  MP_OP_DELETE,
  MP_OP_REPLACE,
  MP_OP_CREATE_REPLACEMENT,
  MP_OP_DELETE_REPLACED,
  MP_OP_READ,
  MP_OP_READ_REPLACEMENT,
  MP_OP_REFRESH,
  MP_OP_DISCARD,
  MP_OP_DISCARD_REPLACED,
  MP_OP_REMOVE_PENDING_REPLACE,
  MP_OP_IMPORT,
  MP_OP_IMPORT_REPLACEMENT,
  MP_OP__COUNT
} mp_step_op;

enum mp_op_info_flags {
  /* The step that represents its resource's logical operation (the parts
   * of a replacement are not). */
  MP_OP_LOGICAL = 1 << 0,
  /* A part of a replacement, shown through its `replace` step. */
  MP_OP_REPLACEMENT_PART = 1 << 1,
  /* Counted in the summary of changes. */
  MP_OP_SUMMARIZED = 1 << 2,
  /* Calls the provider (unless the step says otherwise). */
  MP_OP_CALLS_PROVIDER = 1 << 3,
  /* Not a change for --expect-no-changes (engine/update.go HasChanges):
   * same, read, discard and read-replacement. */
  MP_OP_NOT_A_CHANGE = 1 << 4
};

typedef struct mp_op_info {
  const char *name;   /* "create-replacement", as Pulumi names it */
  const char *symbol; /* the display's prefix: "  ", "+ ", "++", ... */
  int color;          /* ANSI colour number, 0: none */
  const char *doing;  /* "creating replacement" */
  const char *done;   /* "created replacement" */
  const char *plan;   /* "create replacement" (previews) */
  unsigned flags;     /* enum mp_op_info_flags */
  int pending;        /* the mp_pending_type recorded before its provider
                         call, or -1 for none */
} mp_op_info;

/* The facts of |op| (a static entry; an op out of range gives the facts
 * of an unknown op, named "unknown"). */
const mp_op_info *mp_op_info_of(mp_step_op op);

#endif
