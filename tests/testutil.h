/* A minimal unit-test harness: CHECK records a failure and goes on; each
 * test file's main runs its test_* functions with RUN and returns
 * mp_test_summary(). Prints "N passed, N failed". */
#ifndef MP_TESTUTIL_H
#define MP_TESTUTIL_H

#include <stdio.h>
#include <string.h>

static int mp_test_checks_failed;
static int mp_test_passed;
static int mp_test_failed;

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,     \
              #cond);                                                      \
      mp_test_checks_failed++;                                             \
    }                                                                      \
  } while (0)

#define CHECK_STR(a, b)                                                    \
  do {                                                                     \
    const char *a_ = (a), *b_ = (b);                                       \
    if (a_ == NULL || b_ == NULL || strcmp(a_, b_) != 0) {                 \
      fprintf(stderr, "%s:%d: CHECK_STR failed: %s\n  got:  %s\n  want: %s\n", \
              __FILE__, __LINE__, #a, a_ ? a_ : "(null)",                  \
              b_ ? b_ : "(null)");                                         \
      mp_test_checks_failed++;                                             \
    }                                                                      \
  } while (0)

/* Checks that |haystack| contains |needle|. */
#define CHECK_CONTAINS(haystack, needle)                                   \
  do {                                                                     \
    const char *h_ = (haystack), *n_ = (needle);                           \
    if (h_ == NULL || strstr(h_, n_) == NULL) {                            \
      fprintf(stderr, "%s:%d: CHECK_CONTAINS failed\n  text: %s\n  want: %s\n", \
              __FILE__, __LINE__, h_ ? h_ : "(null)", n_);                 \
      mp_test_checks_failed++;                                             \
    }                                                                      \
  } while (0)

#define RUN(fn)                                                            \
  do {                                                                     \
    int before_ = mp_test_checks_failed;                                   \
    fn();                                                                  \
    if (mp_test_checks_failed == before_) {                                \
      mp_test_passed++;                                                    \
      printf("ok   %s\n", #fn);                                            \
    } else {                                                               \
      mp_test_failed++;                                                    \
      printf("FAIL %s\n", #fn);                                            \
    }                                                                      \
    fflush(stdout);                                                        \
  } while (0)

static inline int mp_test_summary(void) {
  printf("%d passed, %d failed\n", mp_test_passed, mp_test_failed);
  return mp_test_failed ? 1 : 0;
}

#endif
