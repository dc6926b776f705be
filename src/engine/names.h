/* Project and stack names, checked as Pulumi checks them
 * (sdk/go/common/tokens: ValidateProjectName, ParseStackName) and stack
 * references parsed as its DIY backends parse them
 * (pkg/backend/diy/store.go, projectReferenceStore.ParseReference).
 *
 * Both names become folder names of a file:// store and parts of every
 * URN, so `.` and `..` are refused as well, which Pulumi's character rules
 * alone let through. */
#ifndef MP_NAMES_H
#define MP_NAMES_H

#include "engine/err.h"

/* 0 if |name| is a valid project name: 1 to 100 characters, letters,
 * digits, `-`, `_` and `.`, not starting with a digit or `-`, and neither
 * `.` nor `..`. Else MP_EINVAL with Pulumi's words. */
int mp_project_name_check(const char *name, mp_err *err);

/* 0 if |name| is a valid stack name: 1 to 100 characters, letters,
 * digits, `-`, `_` and `.`, and neither `.` nor `..`. Else MP_EINVAL with
 * Pulumi's words (the first bad character and its position). */
int mp_stack_name_check(const char *name, mp_err *err);

/* 1 if |c| may be in a project or stack name: [A-Za-z0-9_.-]. */
int mp_name_char(char c);

/* How a stack reference failed to parse. */
typedef enum mp_stack_ref_error {
  MP_STACK_REF_OK = 0,
  MP_STACK_REF_FORM,         /* more than three `/`-separated parts */
  MP_STACK_REF_ORGANIZATION, /* an organization other than "organization" */
  MP_STACK_REF_PROJECT,      /* an invalid project name */
  MP_STACK_REF_STACK         /* an invalid stack name */
} mp_stack_ref_error;

/* Parses the stack reference |ref|: `<stack>`, `<org>/<stack>` or
 * `<org>/<project>/<stack>`, where an empty or missing <org> is
 * "organization" (the only one a DIY backend has) and an empty or missing
 * <project> is |current| (NULL: none). Both names are checked. Sets
 * *project and *stack (owned) and returns MP_STACK_REF_OK, or sets |err|
 * (MP_EINVAL) and returns what was wrong. */
mp_stack_ref_error mp_stack_ref_parse(const char *ref, const char *current,
                                      char **project, char **stack,
                                      mp_err *err);

#endif
