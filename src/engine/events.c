#include "engine/events.h"

static const char *const op_names[MP_OP__COUNT] = {
    "same",        "create",           "update",
    "delete",      "replace",          "create-replacement",
    "delete-replaced", "read",         "read-replacement",
    "refresh",     "discard",          "discard-replaced",
    "remove-pending-replace", "import", "import-replacement"};

static const char *const op_prefixes[MP_OP__COUNT] = {
    "  ", "+ ", "~ ", "- ", "+-", "++", "--", "> ",
    ">>", "~ ", "< ", "<<", "- ", "= ", "=>"};

static const char *const op_past[MP_OP__COUNT] = {
    "unchanged", "created",  "updated",   "deleted",  "replaced",
    "created",   "deleted",  "read",      "read",     "refreshed",
    "discarded", "discarded", "deleted",  "imported", "imported"};

const char *mp_step_op_name(mp_step_op op) {
  return (unsigned)op < MP_OP__COUNT ? op_names[op] : "unknown";
}

const char *mp_step_op_prefix(mp_step_op op) {
  return (unsigned)op < MP_OP__COUNT ? op_prefixes[op] : "  ";
}

const char *mp_step_op_past(mp_step_op op) {
  return (unsigned)op < MP_OP__COUNT ? op_past[op] : "unknown";
}
