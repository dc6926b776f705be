/* The regular expressions of policy config schemas (`pattern`,
 * `patternProperties`, the `regex` format): gojsonschema compiles them
 * with Go's regexp (RE2 syntax: \d, \w, \s, (?i), non-greedy ...), which
 * POSIX regcomp does not read, so they go to PCRE2, whose syntax is a
 * superset of what RE2 accepts for these. */
#ifndef MP_PLUGIN_POLICY_REGEX_H
#define MP_PLUGIN_POLICY_REGEX_H

/* 1 when |pattern| matches somewhere in |subject| (unanchored, as Go's
 * MatchString), 0 when it does not, -1 when |pattern| does not compile. */
int mp__policy_regex_match(const char *pattern, const char *subject);

#endif
