/* The step operations' facts (op.h), one row each. */
#include "engine/op.h"

#include "engine/resource.h"

#define NONE (-1)

static const mp_op_info ops[MP_OP__COUNT] = {
    [MP_OP_SAME] = {.name = "same", .symbol = "  ", .color = 0,
                    .doing = "", .done = "", .plan = "",
                    .flags = MP_OP_LOGICAL | MP_OP_NOT_A_CHANGE,
                    .pending = NONE},
    [MP_OP_CREATE] = {.name = "create", .symbol = "+ ", .color = 2,
                      .doing = "creating", .done = "created",
                      .plan = "create",
                      .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED |
                               MP_OP_CALLS_PROVIDER,
                      .pending = MP_PENDING_CREATING},
    [MP_OP_UPDATE] = {.name = "update", .symbol = "~ ", .color = 3,
                      .doing = "updating", .done = "updated",
                      .plan = "update",
                      .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED |
                               MP_OP_CALLS_PROVIDER,
                      .pending = MP_PENDING_UPDATING},
    [MP_OP_DELETE] = {.name = "delete", .symbol = "- ", .color = 1,
                      .doing = "deleting", .done = "deleted",
                      .plan = "delete",
                      .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED |
                               MP_OP_CALLS_PROVIDER,
                      .pending = MP_PENDING_DELETING},
    [MP_OP_REPLACE] = {.name = "replace", .symbol = "+-", .color = 5,
                       .doing = "replacing", .done = "replaced",
                       .plan = "replace",
                       .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED,
                       .pending = NONE},
    [MP_OP_CREATE_REPLACEMENT] = {.name = "create-replacement",
                                  .symbol = "++", .color = 2,
                                  .doing = "creating replacement",
                                  .done = "created replacement",
                                  .plan = "create replacement",
                                  .flags = MP_OP_REPLACEMENT_PART |
                                           MP_OP_CALLS_PROVIDER,
                                  .pending = MP_PENDING_CREATING},
    [MP_OP_DELETE_REPLACED] = {.name = "delete-replaced", .symbol = "--",
                               .color = 1, .doing = "deleting original",
                               .done = "deleted original",
                               .plan = "delete original",
                               .flags = MP_OP_REPLACEMENT_PART |
                                        MP_OP_CALLS_PROVIDER,
                               .pending = MP_PENDING_DELETING},
    [MP_OP_READ] = {.name = "read", .symbol = "> ", .color = 6,
                    .doing = "reading", .done = "read", .plan = "read",
                    .flags = MP_OP_LOGICAL | MP_OP_CALLS_PROVIDER |
                             MP_OP_NOT_A_CHANGE,
                    .pending = MP_PENDING_READING},
    [MP_OP_READ_REPLACEMENT] = {.name = "read-replacement", .symbol = ">>",
                                .color = 6,
                                .doing = "reading for replacement",
                                .done = "read for replacement",
                                .plan = "read for replacement",
                                .flags = MP_OP_REPLACEMENT_PART |
                                         MP_OP_CALLS_PROVIDER |
                                         MP_OP_NOT_A_CHANGE,
                                .pending = MP_PENDING_READING},
    [MP_OP_REFRESH] = {.name = "refresh", .symbol = "~ ", .color = 3,
                       .doing = "refreshing", .done = "refreshed",
                       .plan = "refresh",
                       .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED |
                                MP_OP_CALLS_PROVIDER,
                       .pending = NONE},
    [MP_OP_DISCARD] = {.name = "discard", .symbol = "< ", .color = 1,
                       .doing = "discarding", .done = "discarded",
                       .plan = "discard",
                       .flags = MP_OP_LOGICAL | MP_OP_NOT_A_CHANGE,
                       .pending = NONE},
    [MP_OP_DISCARD_REPLACED] = {.name = "discard-replaced", .symbol = "<<",
                                .color = 1, .doing = "discarding original",
                                .done = "discarded original",
                                .plan = "discard original",
                                .flags = MP_OP_REPLACEMENT_PART,
                                .pending = NONE},
    [MP_OP_REMOVE_PENDING_REPLACE] = {.name = "remove-pending-replace",
                                      .symbol = "- ", .color = 1,
                                      .doing = "removing pending replace",
                                      .done = "removed pending replace",
                                      .plan = "remove pending replace",
                                      .flags = 0, .pending = NONE},
    [MP_OP_IMPORT] = {.name = "import", .symbol = "= ", .color = 6,
                      .doing = "importing", .done = "imported",
                      .plan = "import",
                      .flags = MP_OP_LOGICAL | MP_OP_SUMMARIZED |
                               MP_OP_CALLS_PROVIDER,
                      .pending = MP_PENDING_IMPORTING},
    [MP_OP_IMPORT_REPLACEMENT] = {.name = "import-replacement",
                                  .symbol = "=>", .color = 6,
                                  .doing = "importing replacement",
                                  .done = "imported replacement",
                                  .plan = "import replacement",
                                  .flags = MP_OP_REPLACEMENT_PART |
                                           MP_OP_CALLS_PROVIDER,
                                  .pending = MP_PENDING_IMPORTING},
};

static const mp_op_info unknown = {.name = "unknown", .symbol = "  ",
                                   .doing = "", .done = "", .plan = "",
                                   .pending = NONE};

const mp_op_info *mp_op_info_of(mp_step_op op) {
  return (unsigned)op < MP_OP__COUNT ? &ops[op] : &unknown;
}
