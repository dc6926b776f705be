/* JSON Schema's "format" as gojsonschema 1.2.0 (Pulumi's) checks a
 * string (plugin/policy_schema_format.h). Each checker follows the Go
 * function gojsonschema calls (time.Parse, net.ParseIP, url.Parse,
 * mail.ParseAddress, regexp.Compile) closely enough for configs; the
 * regular expressions are gojsonschema's own. */
#include "plugin/policy_schema_format.h"

#include "plugin/policy_regex.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The formats' expressions, matched as the schema's patterns are. */
static int matches(const char *re_text, const char *s) {
  return mp__policy_regex_match(re_text, s) == 1;
}

/* |n| digits at *p, advancing it; -1 if they are not there. */
static int digits(const char **p, int n) {
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (!isdigit((unsigned char)(*p)[i])) return -1;
    v = v * 10 + ((*p)[i] - '0');
  }
  *p += n;
  return v;
}

/* Go's "2006-01-02": the day must exist in its month. */
static int parse_date(const char **p) {
  int y = digits(p, 4);
  if (y < 0 || **p != '-') return 0;
  (*p)++;
  int m = digits(p, 2);
  if (m < 1 || m > 12 || **p != '-') return 0;
  (*p)++;
  int d = digits(p, 2);
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d < 1 || d > days[m - 1] || (m == 2 && d == 29 && !leap)) return 0;
  return 1;
}

/* Go's "15:04:05" (the hour of one or two digits; a fraction after the
 * seconds is accepted, as Go's parse accepts it), then with |zone| Go's
 * "Z07:00" (Z or ±hh:mm). */
static int parse_time(const char **p, int zone) {
  /* the second character is looked at only after a first digit: the
   * string may end at the first */
  int two = isdigit((unsigned char)(*p)[0]) && isdigit((unsigned char)(*p)[1]);
  int h = digits(p, two ? 2 : 1);
  if (h < 0 || h > 23 || **p != ':') return 0;
  (*p)++;
  int mi = digits(p, 2);
  if (mi < 0 || mi > 59 || **p != ':') return 0;
  (*p)++;
  int s = digits(p, 2);
  if (s < 0 || s > 59) return 0;
  if (**p == '.' && isdigit((unsigned char)(*p)[1]))
    for ((*p)++; isdigit((unsigned char)**p); (*p)++) {
    }
  if (!zone) return 1;
  if (**p == 'Z') {
    (*p)++;
    return 1;
  }
  if (**p != '+' && **p != '-') return 0;
  (*p)++;
  int zh = digits(p, 2);
  if (zh < 0 || zh > 23 || **p != ':') return 0;
  (*p)++;
  int zm = digits(p, 2);
  return zm >= 0 && zm <= 59;
}

static int is_date(const char *s) { return parse_date(&s) && *s == '\0'; }

static int is_time(const char *s) {
  const char *p = s;
  if (parse_time(&p, 1) && *p == '\0') return 1;
  p = s;
  return parse_time(&p, 0) && *p == '\0';
}

/* gojsonschema tries "15:04:05", "15:04:05Z07:00", "2006-01-02" and
 * RFC 3339 (with a fraction or not). */
static int is_date_time(const char *s) {
  if (is_time(s) || is_date(s)) return 1;
  const char *p = s;
  if (!parse_date(&p) || *p != 'T') return 0;
  p++;
  if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]))
    return 0; /* RFC 3339's hour has two digits */
  return parse_time(&p, 1) && *p == '\0';
}

static int is_ip(const char *s, int family_char) {
  unsigned char buf[16];
  int ok = inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
  return ok && strchr(s, family_char) != NULL;
}

static int is_hostname(const char *s) {
  return strlen(s) < 256 &&
         matches("^([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}[a-zA-Z0-9])"
                 "(\\.([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}"
                 "[a-zA-Z0-9]))*$",
                 s);
}

/* RFC 5322's addr-spec (a dot-atom or quoted local part, a dot-atom or
 * bracketed domain), alone or as "Name <addr>", as mail.ParseAddress
 * reads one address. */
static int is_email(const char *s) {
  const char *atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
  const char *spec_fmt =
      "(%s(\\.%s)*|\"([^\"\\\\]|\\\\.)*\")@(%s(\\.%s)*|\\[[^][\\\\]*\\])";
  char spec[512], re[1200];
  snprintf(spec, sizeof(spec), spec_fmt, atext, atext, atext, atext);
  snprintf(re, sizeof(re), "^ *(%s|([^<>]*[^<> ])? *<%s>) *$", spec, spec);
  return matches(re, s);
}

static int valid_escapes(const char *s) {
  for (const char *p = s; *p; p++) {
    if ((unsigned char)*p < 0x20 || *p == 0x7f) return 0;
    if (*p == '%' && !(isxdigit((unsigned char)p[1]) &&
                       isxdigit((unsigned char)p[2])))
      return 0;
  }
  return strchr(s, '\\') == NULL;
}

/* url.Parse's reading: a scheme is [A-Za-z][A-Za-z0-9+.-]* before the
 * first ':'; without one, a first segment with ':' is an error. */
static int has_scheme(const char *s) {
  return matches("^[A-Za-z][A-Za-z0-9+.-]*:", s);
}

static int is_uri_reference(const char *s) {
  if (!valid_escapes(s)) return 0;
  if (has_scheme(s)) return 1;
  size_t seg = strcspn(s, "/?#");
  return memchr(s, ':', seg) == NULL;
}

static int is_uri(const char *s) { return valid_escapes(s) && has_scheme(s); }

static int is_uri_template(const char *s) {
  if (!is_uri_reference(s)) return 0;
  return matches("^([^{}]*(\\{[^}]*\\})?)*$", s);
}

int mp_policy_schema_format_ok(const char *format, const char *s) {
  if (strcmp(format, "date") == 0) return is_date(s);
  if (strcmp(format, "time") == 0) return is_time(s);
  if (strcmp(format, "date-time") == 0) return is_date_time(s);
  if (strcmp(format, "hostname") == 0) return is_hostname(s);
  if (strcmp(format, "email") == 0 || strcmp(format, "idn-email") == 0)
    return is_email(s);
  if (strcmp(format, "ipv4") == 0) return is_ip(s, '.');
  if (strcmp(format, "ipv6") == 0) return is_ip(s, ':');
  if (strcmp(format, "uri") == 0 || strcmp(format, "iri") == 0)
    return is_uri(s);
  if (strcmp(format, "uri-reference") == 0 ||
      strcmp(format, "iri-reference") == 0)
    return is_uri_reference(s);
  if (strcmp(format, "uri-template") == 0) return is_uri_template(s);
  if (strcmp(format, "uuid") == 0) /* 1.2.0's: lower case only */
    return matches("^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-"
                   "[a-f0-9]{12}$",
                   s);
  if (strcmp(format, "regex") == 0)
    return *s == '\0' || mp__policy_regex_match(s, "") >= 0;
  if (strcmp(format, "json-pointer") == 0)
    return matches("^(/([^~/]|~0|~1)*)*$", s);
  if (strcmp(format, "relative-json-pointer") == 0)
    return matches("^(0|[1-9][0-9]*)(#|(/([^~/]|~0|~1)*)*)$", s);
  return 1; /* a format gojsonschema does not know passes */
}

int mp_policy_schema_format_known(const char *format) {
  static const char *const known[] = {
      "date", "time", "date-time", "hostname", "email", "idn-email", "ipv4",
      "ipv6", "uri", "iri", "uri-reference", "iri-reference", "uri-template",
      "uuid", "regex", "json-pointer", "relative-json-pointer"};
  for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
    if (strcmp(format, known[i]) == 0) return 1;
  return 0;
}
