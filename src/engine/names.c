/* Project and stack names and stack references (names.h). */
#include "engine/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

enum { NAME_MAX_LEN = 100 };

static int is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int mp_name_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-';
}

/* `.` and `..` would name a folder above the stack's own in a file://
 * store. */
static int is_dot_name(const char *s) {
  return strcmp(s, ".") == 0 || strcmp(s, "..") == 0;
}

int mp_project_name_check(const char *name, mp_err *err) {
  if (name == NULL || *name == '\0')
    return mp_err_set(err, MP_EINVAL, "project names may not be empty");
  if (strlen(name) > NAME_MAX_LEN)
    return mp_err_set(err, MP_EINVAL,
                      "project names are limited to 100 characters");
  /* Pulumi's tokens.IsName: the first character [A-Za-z_.], the rest
   * [A-Za-z0-9_.-] */
  int ok = is_alpha(name[0]) || name[0] == '_' || name[0] == '.';
  for (const char *p = name + 1; ok && *p; p++)
    ok = mp_name_char(*p);
  if (!ok)
    return mp_err_set(err, MP_EINVAL,
                      "project names may only contain alphanumerics, "
                      "hyphens, underscores, and periods");
  if (is_dot_name(name))
    return mp_err_set(err, MP_EINVAL, "project names may not be '%s'", name);
  return 0;
}

/* |c| as Go's %q writes a byte: 'x', '\n', '\x01'. */
static void quote_char(char c, char out[8]) {
  unsigned char u = (unsigned char)c;
  if (c == '\n')
    snprintf(out, 8, "'\\n'");
  else if (c == '\t')
    snprintf(out, 8, "'\\t'");
  else if (c == '\r')
    snprintf(out, 8, "'\\r'");
  else if (c == '\'' || c == '\\')
    snprintf(out, 8, "'\\%c'", c);
  else if (u < 0x20 || u >= 0x7f)
    snprintf(out, 8, "'\\x%02x'", u);
  else
    snprintf(out, 8, "'%c'", c);
}

int mp_stack_name_check(const char *name, mp_err *err) {
  if (name == NULL || *name == '\0')
    return mp_err_set(err, MP_EINVAL, "a stack name may not be empty");
  if (strlen(name) > NAME_MAX_LEN)
    return mp_err_set(err, MP_EINVAL,
                      "a stack name cannot exceed 100 characters");
  for (const char *p = name; *p; p++)
    if (!mp_name_char(*p)) {
      char q[8];
      quote_char(*p, q);
      return mp_err_set(err, MP_EINVAL,
                        "a stack name may only contain alphanumeric, "
                        "hyphens, underscores, or periods: invalid "
                        "character %s at position %d",
                        q, (int)(p - name));
    }
  if (is_dot_name(name))
    return mp_err_set(err, MP_EINVAL, "a stack name may not be '%s'", name);
  return 0;
}

mp_stack_ref_error mp_stack_ref_parse(const char *ref, const char *current,
                                      char **project, char **stack,
                                      mp_err *err) {
  *project = *stack = NULL;
  const char *s1 = strchr(ref, '/');
  const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
  if (s2 && strchr(s2 + 1, '/')) {
    mp_err_set(err, MP_EINVAL,
               "invalid stack name '%s': write <stack>, "
               "organization/<stack> or organization/<project>/<stack>",
               ref);
    return MP_STACK_REF_FORM;
  }
  size_t org_len = s1 ? (size_t)(s1 - ref) : 0;
  if (org_len && (org_len != 12 || strncmp(ref, "organization", 12) != 0)) {
    mp_err_set(err, MP_EINVAL, "organization name must be 'organization'");
    return MP_STACK_REF_ORGANIZATION;
  }
  char *proj = s2 && s2 > s1 + 1 ? mp_xstrndup(s1 + 1, (size_t)(s2 - s1 - 1))
                                 : mp_xstrdup(current);
  if (proj == NULL) {
    mp_err_set(err, MP_EINVAL,
               "if you're using the --stack flag, pass the fully qualified "
               "name (organization/project/stack)");
    return MP_STACK_REF_PROJECT;
  }
  if (mp_project_name_check(proj, err) != 0) {
    free(proj);
    return MP_STACK_REF_PROJECT;
  }
  const char *name = s2 ? s2 + 1 : s1 ? s1 + 1 : ref;
  if (mp_stack_name_check(name, err) != 0) {
    free(proj);
    return MP_STACK_REF_STACK;
  }
  *project = proj;
  *stack = mp_xstrdup(name);
  return MP_STACK_REF_OK;
}
