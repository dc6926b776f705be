/* Tests of src/engine/names.c: project and stack names with Pulumi's
 * words, `.` and `..` refused, and stack references as Pulumi's DIY
 * backends parse them. */
#include "engine/names.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char *repeat(char c, size_t n) {
  char *s = malloc(n + 1);
  memset(s, c, n);
  s[n] = 0;
  return s;
}

static void test_names_project(void) {
  mp_err err;
  static const char *const good[] = {"proj",     "_a",  ".hidden",
                                     "a.b-c_D9", "...", "A"};
  for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
    CHECK(mp_project_name_check(good[i], &err) == 0);
  static const char *const bad[] = {"a b",  "a::b", "a\nb", "a/b",
                                    "1abc", "-abc", "x$y"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    CHECK(mp_project_name_check(bad[i], &err) == MP_EINVAL);
    CHECK_STR(err.msg, "project names may only contain alphanumerics, "
                       "hyphens, underscores, and periods");
  }
  CHECK(mp_project_name_check("", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "project names may not be empty");
  CHECK(mp_project_name_check(NULL, &err) == MP_EINVAL);
  CHECK(mp_project_name_check("..", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "project names may not be '..'");
  CHECK(mp_project_name_check(".", &err) == MP_EINVAL);
  char *s = repeat('a', 100);
  CHECK(mp_project_name_check(s, &err) == 0);
  free(s);
  s = repeat('a', 101);
  CHECK(mp_project_name_check(s, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "project names are limited to 100 characters");
  free(s);
}

static void test_names_stack(void) {
  mp_err err;
  static const char *const good[] = {"dev", "1", "-x", "prod.v2_a-b", "..."};
  for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
    CHECK(mp_stack_name_check(good[i], &err) == 0);
  CHECK(mp_stack_name_check("my bad", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "a stack name may only contain alphanumeric, hyphens, "
                     "underscores, or periods: invalid character ' ' at "
                     "position 2");
  CHECK(mp_stack_name_check("!my stack!", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid character '!' at position 0");
  CHECK(mp_stack_name_check("foo/bar", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid character '/' at position 3");
  CHECK(mp_stack_name_check("a\nb", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid character '\\n' at position 1");
  CHECK(mp_stack_name_check("a\x01", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid character '\\x01' at position 1");
  CHECK(mp_stack_name_check("", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "a stack name may not be empty");
  CHECK(mp_stack_name_check("..", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "a stack name may not be '..'");
  CHECK(mp_stack_name_check(".", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "a stack name may not be '.'");
  char *s = repeat('s', 101);
  CHECK(mp_stack_name_check(s, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "a stack name cannot exceed 100 characters");
  free(s);
}

/* |ref| parses to PROJECT/STACK ("" when refused, with |want|). */
static void check_ref(const char *ref, const char *current,
                      mp_stack_ref_error want, const char *project,
                      const char *stack) {
  mp_err err;
  char *p = NULL, *s = NULL;
  mp_stack_ref_error got = mp_stack_ref_parse(ref, current, &p, &s, &err);
  CHECK(got == want);
  if (want == MP_STACK_REF_OK) {
    CHECK_STR(p, project);
    CHECK_STR(s, stack);
  } else {
    CHECK(p == NULL && s == NULL);
  }
  free(p);
  free(s);
}

static void test_names_stack_ref(void) {
  check_ref("dev", "p3", MP_STACK_REF_OK, "p3", "dev");
  check_ref("organization/dev", "p3", MP_STACK_REF_OK, "p3", "dev");
  check_ref("organization/p1/dev", "p3", MP_STACK_REF_OK, "p1", "dev");
  check_ref("/dev", "p3", MP_STACK_REF_OK, "p3", "dev");
  check_ref("organization//dev", "p3", MP_STACK_REF_OK, "p3", "dev");
  /* two parts are organization/stack, as Pulumi reads them */
  check_ref("p1/dev", "p3", MP_STACK_REF_ORGANIZATION, NULL, NULL);
  check_ref("acme/p1/dev", "p3", MP_STACK_REF_ORGANIZATION, NULL, NULL);
  check_ref("a/b/c/d", "p3", MP_STACK_REF_FORM, NULL, NULL);
  check_ref("organization/../dev", "p3", MP_STACK_REF_PROJECT, NULL, NULL);
  check_ref("organization/a b/dev", "p3", MP_STACK_REF_PROJECT, NULL, NULL);
  check_ref("dev", NULL, MP_STACK_REF_PROJECT, NULL, NULL);
  check_ref("organization/p1/..", "p3", MP_STACK_REF_STACK, NULL, NULL);
  check_ref("..", "p3", MP_STACK_REF_STACK, NULL, NULL);
  check_ref("", "p3", MP_STACK_REF_STACK, NULL, NULL);
  check_ref("organization/p1/", "p3", MP_STACK_REF_STACK, NULL, NULL);
  mp_err err;
  char *p = NULL, *s = NULL;
  CHECK(mp_stack_ref_parse("p1/dev", "p3", &p, &s, &err) ==
        MP_STACK_REF_ORGANIZATION);
  CHECK_STR(err.msg, "organization name must be 'organization'");
}

int main(void) {
  RUN(test_names_project);
  RUN(test_names_stack);
  RUN(test_names_stack_ref);
  return mp_test_summary();
}
