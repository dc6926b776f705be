/* Policy schema regular expressions on PCRE2 (policy_regex.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "plugin/policy_regex.h"

#include <pcre2.h>
#include <string.h>

int mp__policy_regex_match(const char *pattern, const char *subject) {
  int code;
  PCRE2_SIZE at;
  /* UTF, as Go's strings; no UCP: Go's \d, \w and \s are ASCII only */
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                 PCRE2_UTF, &code, &at, NULL);
  if (re == NULL) return -1;
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
  int rc = pcre2_match(re, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md,
                       NULL);
  pcre2_match_data_free(md);
  pcre2_code_free(re);
  return rc >= 0 ? 1 : 0;
}
