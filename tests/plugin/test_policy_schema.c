/* A policy's config against its config schema (plugin/policy_schema.h):
 * each JSON Schema keyword, a valid and an invalid config, the errors in
 * gojsonschema's words as Pulumi prints them ("<field>: <description>"),
 * sorted as Pulumi sorts them. Where anyOf and oneOf report a branch's
 * errors, it is the branch gojsonschema's score picks. */
#include <stdlib.h>

#include "engine/value.h"
#include "plugin/policy_schema.h"
#include "testutil.h"

static mp_value *json(const char *text) {
  mp_value *v = NULL;
  mp_err e;
  mp_err_clear(&e);
  if (mp_value_from_json(text, strlen(text), NULL, &v, &e) < 0) {
    fprintf(stderr, "bad test JSON %s: %s\n", text, e.msg);
    abort();
  }
  return v;
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted errors of |config| against |props|, one a line ("" when
 * valid; "ERROR <message>" when the schema cannot be loaded). */
static char *errors_of(const char *props, const char *config) {
  mp_value *p = json(props), *c = json(config);
  mp_strv errs;
  mp_strv_init(&errs);
  mp_err e;
  mp_err_clear(&e);
  int rc = mp_policy_schema_check(p, NULL, c, &errs, &e);
  mp_buf b;
  mp_buf_init(&b);
  if (rc < 0) mp_buf_printf(&b, "ERROR %s", e.msg);
  if (errs.len) qsort(errs.items, errs.len, sizeof(char *), by_text);
  for (size_t i = 0; i < errs.len; i++)
    mp_buf_printf(&b, "%s%s", i ? "\n" : "", errs.items[i]);
  mp_strv_destroy(&errs);
  mp_value_free(p);
  mp_value_free(c);
  return mp_buf_detach(&b, NULL);
}

#define EXPECT(props, config, want)                                        \
  do {                                                                     \
    char *got_ = errors_of(props, config);                                 \
    CHECK_STR(got_, want);                                                 \
    free(got_);                                                            \
  } while (0)

static void test_any_of(void) {
  const char *s = "{\"size\": {\"anyOf\": [{\"type\": \"string\"},"
                  " {\"type\": \"integer\", \"minimum\": 1}]}}";
  EXPECT(s, "{\"size\": \"big\"}", "");
  EXPECT(s, "{\"size\": 3}", "");
  /* the integer branch matched better (its type passed): its error */
  EXPECT(s, "{\"size\": 0}",
         "size: Must be greater than or equal to 1\n"
         "size: Must validate at least one schema (anyOf)");
  /* both fail their type: the first branch's error */
  EXPECT(s, "{\"size\": true}",
         "size: Invalid type. Expected: string, given: boolean\n"
         "size: Must validate at least one schema (anyOf)");
}

static void test_one_of(void) {
  const char *s = "{\"port\": {\"oneOf\": ["
                  "{\"type\": \"integer\", \"multipleOf\": 2},"
                  "{\"type\": \"integer\", \"multipleOf\": 3}]}}";
  EXPECT(s, "{\"port\": 4}", "");
  EXPECT(s, "{\"port\": 9}", "");
  EXPECT(s, "{\"port\": 6}",
         "port: Must validate one and only one schema (oneOf)");
  EXPECT(s, "{\"port\": 5}",
         "port: Must be a multiple of 2\n"
         "port: Must validate one and only one schema (oneOf)");
}

static void test_all_of(void) {
  const char *s = "{\"name\": {\"allOf\": [{\"type\": \"string\"},"
                  " {\"minLength\": 3}]}}";
  EXPECT(s, "{\"name\": \"abc\"}", "");
  EXPECT(s, "{\"name\": \"ab\"}",
         "name: Must validate all the schemas (allOf)\n"
         "name: String length must be greater than or equal to 3");
}

static void test_not(void) {
  const char *s = "{\"mode\": {\"not\": {\"enum\": [\"off\"]}}}";
  EXPECT(s, "{\"mode\": \"on\"}", "");
  EXPECT(s, "{\"mode\": \"off\"}", "mode: Must not validate the schema (not)");
}

static void test_format(void) {
  const char *s = "{\"mail\": {\"type\": \"string\", \"format\": \"email\"},"
                  " \"day\": {\"format\": \"date\"},"
                  " \"at\": {\"format\": \"date-time\"},"
                  " \"ip\": {\"format\": \"ipv4\"},"
                  " \"id\": {\"format\": \"uuid\"},"
                  " \"url\": {\"format\": \"uri\"},"
                  " \"host\": {\"format\": \"hostname\"},"
                  " \"odd\": {\"format\": \"no-such-format\"}}";
  EXPECT(s,
         "{\"mail\": \"Ann <ann@example.com>\", \"day\": \"2024-02-29\","
         " \"at\": \"2024-02-29T10:00:00.5+01:00\", \"ip\": \"10.0.0.1\","
         " \"id\": \"0f8fad5b-d9cb-469f-a165-70867728950e\","
         " \"url\": \"https://example.com/a?b#c\", \"host\": \"a.example\","
         " \"odd\": \"anything\"}",
         "");
  EXPECT(s,
         "{\"mail\": \"ann\", \"day\": \"2023-02-29\", \"at\": \"tomorrow\","
         " \"ip\": \"10.0.0\", \"id\": \"0F8FAD5B-D9CB-469F-A165-70867728950E\","
         " \"url\": \"/a/b\", \"host\": \"-a.example\"}",
         "at: Does not match format 'date-time'\n"
         "day: Does not match format 'date'\n"
         "host: Does not match format 'hostname'\n"
         "id: Does not match format 'uuid'\n"
         "ip: Does not match format 'ipv4'\n"
         "mail: Does not match format 'email'\n"
         "url: Does not match format 'uri'");
  /* gojsonschema 1.2.0 gives numbers to the format checkers too, and
   * they refuse them; other kinds are not checked */
  EXPECT(s, "{\"day\": 5, \"odd\": 5, \"ip\": true}",
         "day: Does not match format 'date'");
}

static void test_ref(void) {
  const char *s =
      "{\"min\": {\"type\": \"integer\", \"minimum\": 2},"
      " \"also\": {\"$ref\": \"#/properties/min\", \"maximum\": 0},"
      " \"list\": {\"definitions\": {\"pos\": {\"minimum\": 0}},"
      "            \"items\": {\"$ref\": \"#/properties/list/definitions/pos\"}}}";
  EXPECT(s, "{\"also\": 5, \"list\": [0, 3]}", "");
  /* the reference's siblings are not checked (maximum 0), as in
   * gojsonschema */
  EXPECT(s, "{\"also\": 1, \"list\": [1, -1]}",
         "also: Must be greater than or equal to 2\n"
         "list.1: Must be greater than or equal to 0");
  /* a reference to the whole schema: an object of the same shape */
  const char *rec = "{\"child\": {\"$ref\": \"#\"}, \"n\": {\"type\": \"integer\"}}";
  EXPECT(rec, "{\"child\": {\"child\": {\"n\": 1}}}", "");
  EXPECT(rec, "{\"child\": {\"child\": {\"n\": \"x\"}}}",
         "child.child.n: Invalid type. Expected: integer, given: string");
  /* one that does not resolve: the schema cannot be loaded */
  EXPECT("{\"x\": {\"$ref\": \"#/definitions/none\"}}", "{}",
         "ERROR $ref \"#/definitions/none\" does not point into the policy's "
         "config schema (only local references, \"#/properties/...\", are "
         "resolved)");
}

static void test_pattern_properties(void) {
  const char *s = "{\"tags\": {\"type\": \"object\","
                  " \"patternProperties\": {\"^x-\": {\"type\": \"string\"}},"
                  " \"additionalProperties\": false}}";
  EXPECT(s, "{\"tags\": {\"x-a\": \"1\", \"x-b\": \"2\"}}", "");
  EXPECT(s, "{\"tags\": {\"x-a\": \"1\", \"x-b\": 2, \"y\": \"3\"}}",
         "tags.x-b: Invalid type. Expected: string, given: integer\n"
         "tags: Additional property y is not allowed");
}

/* Patterns in Go's syntax, as gojsonschema compiles them (Go's regexp):
 * \d, \w, \s, (?i), unanchored; one that does not compile fails the load
 * with gojsonschema's message. */
static void test_go_patterns(void) {
  const char *s = "{\"port\": {\"type\": \"string\", \"pattern\": \"^\\\\d+$\"},"
                  " \"name\": {\"pattern\": \"(?i)^web-\\\\w+\"},"
                  " \"word\": {\"pattern\": \"\\\\s\"},"
                  " \"env\": {\"type\": \"object\","
                  " \"patternProperties\": {\"^\\\\d\": {\"type\": \"integer\"}}}}";
  EXPECT(s, "{\"port\": \"8080\", \"name\": \"WEB-a_1\", \"word\": \"a b\","
            " \"env\": {\"1x\": 1, \"y\": \"s\"}}",
         "");
  EXPECT(s, "{\"port\": \"80a\", \"name\": \"db-1\", \"word\": \"ab\","
            " \"env\": {\"1x\": \"s\"}}",
         "env.1x: Invalid type. Expected: integer, given: string\n"
         "name: Does not match pattern '(?i)^web-\\w+'\n"
         "port: Does not match pattern '^\\d+$'\n"
         "word: Does not match pattern '\\s'");
  /* d is not \d: no POSIX reading of the escape */
  EXPECT(s, "{\"port\": \"ddd\"}", "port: Does not match pattern '^\\d+$'");
  EXPECT("{\"a\": {\"pattern\": \"(\"}}", "{\"a\": \"x\"}",
         "ERROR pattern must be a valid regex");
  EXPECT("{\"a\": {\"patternProperties\": {\"[\": {}}}}", "{\"a\": {}}",
         "ERROR Invalid regex pattern '['");
  EXPECT("{\"r\": {\"format\": \"regex\"}}", "{\"r\": \"^\\\\d(?i)x\"}", "");
  EXPECT("{\"r\": {\"format\": \"regex\"}}", "{\"r\": \"a(\"}",
         "r: Does not match format 'regex'");
}

static void test_dependencies(void) {
  const char *s = "{\"tls\": {\"type\": \"object\", \"dependencies\": {"
                  "\"cert\": [\"key\"], \"proxy\": {\"required\": [\"port\"]}}}}";
  EXPECT(s, "{\"tls\": {\"cert\": \"c\", \"key\": \"k\", \"proxy\": \"p\", "
            "\"port\": 1}}",
         "");
  EXPECT(s, "{\"tls\": {\"key\": \"k\"}}", "");
  EXPECT(s, "{\"tls\": {\"cert\": \"c\", \"proxy\": \"p\"}}",
         "tls: Has a dependency on key\n"
         "tls: port is required");
}

static void test_more(void) {
  /* the other draft 6 and 7 keywords gojsonschema checks */
  const char *s = "{\"l\": {\"contains\": {\"const\": 1}},"
                  " \"o\": {\"propertyNames\": {\"maxLength\": 2}},"
                  " \"t\": {\"items\": [{\"type\": \"string\"}],"
                  "         \"additionalItems\": false},"
                  " \"c\": {\"if\": {\"minimum\": 10}, \"then\": {\"multipleOf\": 10},"
                  "         \"else\": {\"maximum\": 5}},"
                  " \"f\": false}";
  EXPECT(s, "{\"l\": [0, 1], \"o\": {\"ab\": 1}, \"t\": [\"a\"], \"c\": 20}",
         "");
  EXPECT(s, "{\"l\": [0], \"o\": {\"abc\": 1}, \"t\": [\"a\", 2], \"c\": 15,"
            " \"f\": 1}",
         "c: Must be a multiple of 10\n"
         "c: Must validate \"then\" as \"if\" was valid\n"
         "f: False always fails validation\n"
         "l.0: l.0 does not match: 1\n"
         "l: At least one of the items must match\n"
         "o: Property name of \"abc\" does not match\n"
         "o: String length must be less than or equal to 2\n"
         "t: No additional items allowed on array");
  EXPECT(s, "{\"c\": 7}",
         "c: Must be less than or equal to 5\n"
         "c: Must validate \"else\" as \"if\" was not valid");
}

int main(void) {
  RUN(test_any_of);
  RUN(test_one_of);
  RUN(test_all_of);
  RUN(test_not);
  RUN(test_format);
  RUN(test_ref);
  RUN(test_pattern_properties);
  RUN(test_go_patterns);
  RUN(test_dependencies);
  RUN(test_more);
  return mp_test_summary();
}
