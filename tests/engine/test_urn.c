/* Tests for src/engine/urn.c against docs/behaviour.md, "URNs", and the default
 * provider names of Pulumi's provider_test.go. */
#include "engine/urn.h"

#include <stdlib.h>
#include <string.h>

#include "engine/value.h"
#include "testutil.h"

#define ROOT "urn:pulumi:test::test::pulumi:pulumi:Stack::test-test"

static char *new_urn(const char *parent, const char *type, const char *name) {
  mp_err err;
  char *u = mp_urn_new("test", "test", parent, type, name, &err);
  CHECK(u != NULL);
  return u;
}

static void test_urn_root_stack(void) {
  char *root = mp_urn_root_stack("test", "test");
  CHECK_STR(root, ROOT);
  free(root);
  root = mp_urn_root_stack("dev", "website");
  CHECK_STR(root, "urn:pulumi:dev::website::pulumi:pulumi:Stack::website-dev");
  free(root);
}

static void test_urn_new_b2_examples(void) {
  char *a = new_urn(ROOT, "pkgA:m:typA", "resA");
  CHECK_STR(a, "urn:pulumi:test::test::pkgA:m:typA::resA");
  char *noparent = new_urn(NULL, "pkgA:m:typA", "resA");
  CHECK_STR(noparent, a);
  char *empty = new_urn("", "pkgA:m:typA", "resA");
  CHECK_STR(empty, a);
  char *b = new_urn(a, "pkgA:m:typA", "resB");
  CHECK_STR(b, "urn:pulumi:test::test::pkgA:m:typA$pkgA:m:typA::resB");
  char *c = new_urn(b, "pkgA:m:typA", "resC");
  char *d = new_urn(c, "pkgA:m:typA", "resD");
  CHECK_STR(d, "urn:pulumi:test::test::"
               "pkgA:m:typA$pkgA:m:typA$pkgA:m:typA$pkgA:m:typA::resD");
  char *first = new_urn(ROOT, "pkgB:m:first", "first");
  char *nested = new_urn(first, "nested", "nested");
  char *sg = new_urn(nested, "pkgA:m:sg", "sg");
  CHECK_STR(sg, "urn:pulumi:test::test::pkgB:m:first$nested$pkgA:m:sg::sg");
  /* Renaming a parent does not change its children's URNs. */
  char *a2 = new_urn(ROOT, "pkgA:m:typA", "renamed");
  char *b2 = new_urn(a2, "pkgA:m:typA", "resB");
  CHECK_STR(b2, b);
  char *items[] = {a, noparent, empty, b, c, d, first, nested, sg, a2, b2};
  for (size_t i = 0; i < MP_ARRAY_LEN(items); i++) free(items[i]);
}

static void test_urn_new_rejects_bad_parent(void) {
  mp_err err;
  mp_err_clear(&err);
  char *u = mp_urn_new("test", "test", "not-a-urn", "t:m:T", "x", &err);
  CHECK(u == NULL);
  CHECK(err.code == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "parent 'not-a-urn' is not a valid URN");
}

static void test_urn_parse_parts(void) {
  const char *s = "urn:pulumi:test::test::pkgB:m:first$nested$pkgA:m:sg::sg";
  mp_urn u;
  mp_err err;
  CHECK(mp_urn_parse(s, strlen(s), &u, &err) == 0);
  CHECK_STR(u.stack, "test");
  CHECK_STR(u.project, "test");
  CHECK_STR(u.qualified_type, "pkgB:m:first$nested$pkgA:m:sg");
  CHECK_STR(u.type, "pkgA:m:sg");
  CHECK_STR(u.name, "sg");
  mp_urn_destroy(&u);
  CHECK(u.name == NULL);
  mp_urn_destroy(&u); /* destroy is idempotent */
}

static void test_urn_name_may_contain_delimiters(void) {
  const char *s = "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::a::b::c";
  mp_urn u;
  mp_err err;
  size_t len;
  CHECK(mp_urn_parse(s, strlen(s), &u, &err) == 0);
  CHECK_STR(u.name, "a::b::c");
  CHECK_STR(u.type, "aws:s3/bucket:Bucket");
  CHECK_STR(u.qualified_type, "aws:s3/bucket:Bucket");
  const char *n = mp_urn_name(s, &len);
  CHECK(n != NULL && len == 7 && strncmp(n, "a::b::c", len) == 0);
  const char *t = mp_urn_type(s, &len);
  CHECK(t != NULL && len == 20 && strncmp(t, "aws:s3/bucket:Bucket", 20) == 0);
  /* A name that is itself empty or just "::" is still valid. */
  CHECK(mp_urn_valid("urn:pulumi:s::p::t::"));
  CHECK(mp_urn_valid("urn:pulumi:s::p::t::::"));
  mp_urn_destroy(&u);
  /* Rebuild from the parts: the same URN. */
  char *again = mp_urn_new("dev", "proj", NULL, "aws:s3/bucket:Bucket",
                           "a::b::c", &err);
  CHECK_STR(again, s);
  free(again);
}

static void test_urn_parse_rebuild_roundtrip(void) {
  const char *urns[] = {
      ROOT,
      "urn:pulumi:test::test::pkgA:m:typA$pkgA:m:typA::resB",
      "urn:pulumi:prod::my proj::my:module:Comp$aws:ec2/vpc:Vpc::vpc-1",
      "urn:pulumi:s::p::pulumi:providers:aws::default_1_2_3",
      "urn:pulumi:::::::",
      "urn:pulumi:s::p::component::x$y::z",
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(urns); i++) {
    mp_urn u;
    mp_err err;
    CHECK(mp_urn_valid(urns[i]));
    CHECK(mp_urn_parse(urns[i], strlen(urns[i]), &u, &err) == 0);
    char *again =
        mp_urn_new(u.stack, u.project, NULL, u.qualified_type, u.name, &err);
    CHECK_STR(again, urns[i]);
    size_t len;
    const char *q = mp_urn_qualified_type(urns[i], &len);
    CHECK(q && len == strlen(u.qualified_type) &&
          strncmp(q, u.qualified_type, len) == 0);
    const char *t = mp_urn_type(urns[i], &len);
    CHECK(t && len == strlen(u.type) && strncmp(t, u.type, len) == 0);
    free(again);
    mp_urn_destroy(&u);
  }
}

static void check_parse_error(const char *s, const char *want) {
  mp_urn u;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_urn_parse(s, strlen(s), &u, &err) == MP_EINVAL);
  CHECK(err.code == MP_EINVAL);
  CHECK_CONTAINS(err.msg, want);
  CHECK(u.stack == NULL && u.name == NULL);
  CHECK(!mp_urn_valid(s));
  CHECK(mp_urn_name(s, NULL) == NULL);
  CHECK(mp_urn_type(s, NULL) == NULL);
  CHECK(mp_urn_qualified_type(s, NULL) == NULL);
}

static void test_urn_parse_rejects_bad_input(void) {
  check_parse_error("", "invalid URN '': the URN is empty");
  check_parse_error("x", "invalid URN 'x': missing 'urn:pulumi:' prefix");
  check_parse_error("urn:other:s::p::t::n",
                    "invalid URN 'urn:other:s::p::t::n': missing "
                    "'urn:pulumi:' prefix");
  check_parse_error("urn:pulumi:stack", "'urn:pulumi:stack': missing project "
                                        "part");
  check_parse_error("urn:pulumi:s::p", "missing type part");
  check_parse_error("urn:pulumi:s::p::t", "missing name part");
  check_parse_error("urn:pulumi:s::p::t:n", "missing name part");
  check_parse_error("urn:pulumi:s:::p", "missing type part");
  CHECK(!mp_urn_valid(NULL));
  /* The length bounds the parse: a valid URN cut short is not valid. */
  mp_urn u;
  mp_err err;
  CHECK(mp_urn_parse(ROOT, 30, &u, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "missing name part");
}

static void test_urn_type_helpers(void) {
  CHECK(mp_type_is_provider("pulumi:providers:aws"));
  CHECK(!mp_type_is_provider("pulumi:providers:"));
  CHECK(!mp_type_is_provider("pulumi:pulumi:Stack"));
  CHECK(!mp_type_is_provider("aws:s3/bucket:Bucket"));
  CHECK(!mp_type_is_provider(NULL));
  char *p = mp_type_package("pulumi:providers:aws");
  CHECK_STR(p, "aws");
  free(p);
  p = mp_type_package("aws:s3/bucket:Bucket");
  CHECK_STR(p, "aws");
  free(p);
  p = mp_type_package("pkgA:m:typA");
  CHECK_STR(p, "pkgA");
  free(p);
  CHECK(mp_type_package("component") == NULL);
}

static void test_urn_provider_ref_good(void) {
  mp_provider_ref r;
  mp_err err;
  const char *ref = "urn:pulumi:test::test::pulumi:providers:pkgA::default::"
                    "2a6b0c1e-uuid";
  CHECK(mp_provider_ref_parse(ref, &r, &err) == 0);
  CHECK_STR(r.urn, "urn:pulumi:test::test::pulumi:providers:pkgA::default");
  CHECK_STR(r.id, "2a6b0c1e-uuid");
  char *again = mp_provider_ref_format(r.urn, r.id);
  CHECK_STR(again, ref);
  free(again);
  mp_provider_ref_destroy(&r);
  CHECK(r.urn == NULL);

  /* A provider whose name contains "::" splits at the LAST "::". */
  ref = "urn:pulumi:s::p::pulumi:providers:aws::my::prov::id-1";
  CHECK(mp_provider_ref_parse(ref, &r, &err) == 0);
  CHECK_STR(r.urn, "urn:pulumi:s::p::pulumi:providers:aws::my::prov");
  CHECK_STR(r.id, "id-1");
  mp_provider_ref_destroy(&r);

  /* A parented explicit provider has a $-chained URN. */
  ref = "urn:pulumi:s::p::my:m:C$pulumi:providers:aws::prov::"
        MP_UNKNOWN_SENTINEL;
  CHECK(mp_provider_ref_parse(ref, &r, &err) == 0);
  CHECK_STR(r.id, MP_UNKNOWN_SENTINEL);
  mp_provider_ref_destroy(&r);
}

static void test_urn_provider_ref_format_unknown_id(void) {
  const char *u = "urn:pulumi:s::p::pulumi:providers:aws::default";
  char *a = mp_provider_ref_format(u, NULL);
  char *b = mp_provider_ref_format(u, "");
  CHECK_STR(a, "urn:pulumi:s::p::pulumi:providers:aws::default::"
               "04da6b54-80e4-46f7-96ec-b56ff0331ba9");
  CHECK_STR(b, a);
  free(a);
  free(b);
}

static void check_ref_error(const char *ref, const char *want) {
  mp_provider_ref r;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_provider_ref_parse(ref, &r, &err) == MP_EINVAL);
  CHECK(err.code == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "bad provider reference '");
  CHECK_CONTAINS(err.msg, want);
  CHECK(r.urn == NULL && r.id == NULL);
}

static void test_urn_provider_ref_bad(void) {
  check_ref_error("", "expected '<provider urn>::<provider id>'");
  check_ref_error("no-delimiter", "expected '<provider urn>::<provider id>'");
  check_ref_error("urn:pulumi:s::p::pulumi:providers:aws::default",
                  "'urn:pulumi:s::p::pulumi:providers:aws' is not a valid "
                  "URN");
  check_ref_error("garbage::id", "'garbage' is not a valid URN");
  check_ref_error("urn:pulumi:s::p::pkgA:m:typA::resA::id",
                  "type 'pkgA:m:typA' is not a provider type");
  check_ref_error("urn:pulumi:s::p::pulumi:providers:::default::id",
                  "type 'pulumi:providers' is not a provider type");
  check_ref_error("urn:pulumi:s::p::pulumi:providers:aws$my:m:C::x::id",
                  "type 'my:m:C' is not a provider type");
}

static void check_default_name(const char *version, const char *url,
                               const char *want) {
  mp_err err;
  char *n = mp_default_provider_name(version, url, &err);
  CHECK_STR(n, want);
  free(n);
}

static void test_urn_default_provider_names(void) {
  check_default_name(NULL, NULL, "default");
  check_default_name("", "", "default");
  check_default_name("1.2.3", NULL, "default_1_2_3");
  check_default_name("0.17.10", NULL, "default_0_17_10");
  check_default_name("0.18.1", NULL, "default_0_18_1");
  check_default_name("0.17.7-dev.1555435978+gb7030aa4.dirty", NULL,
                     "default_0_17_7_dev_1555435978_gb7030aa4_dirty");
  check_default_name("1.0.0-alpha-1.0+build.01", NULL,
                     "default_1_0_0_alpha-1_0_build_01");
  check_default_name("2.0.0+exp.sha.5114f85", NULL,
                     "default_2_0_0_exp_sha_5114f85");
  check_default_name("0.18.1", "pulumi.com/pkg",
                     "default_0_18_1_pulumi.com/pkg");
  check_default_name("0.17.7-dev.1555435978+gb7030aa4.dirty",
                     "company.com/artifact-storage/pkg",
                     "default_0_17_7_dev_1555435978_gb7030aa4_dirty_"
                     "company.com/artifact-storage/pkg");
  check_default_name(NULL, "company.com/", "default_company.com");
  check_default_name("1.2.3",
                     "https://github.com/pulumi/pulumi/blob/master/x.go#L61",
                     "default_1_2_3_https_/github.com/pulumi/pulumi/blob/"
                     "master/x.go_L61");
  check_default_name(NULL, "///", "default__");
  check_default_name(NULL, "s3://b\xc3\xa9/k ey", "default_s3_/b__/k_ey");
}

static void test_urn_default_provider_name_rejects_bad_semver(void) {
  static const char *const bad[] = {
      "1.2",     "1",      "v1.2.3",  "1.2.3.4", "01.2.3",  "1.02.3",
      "1.2.03",  "1.2.3-", "1.2.3+",  "1.2.3-a..b", "1.2.3-01",
      "1.2.3-a_b", "1.2.3+a/b", "a.b.c", "1..3",   "1.2.3 ",
      "99999999999999999999.0.0"};
  for (size_t i = 0; i < MP_ARRAY_LEN(bad); i++) {
    mp_err err;
    mp_err_clear(&err);
    char *n = mp_default_provider_name(bad[i], NULL, &err);
    CHECK(n == NULL);
    CHECK(err.code == MP_EINVAL);
    CHECK_CONTAINS(err.msg, "invalid provider version '");
    CHECK_CONTAINS(err.msg, bad[i]);
    free(n);
  }
}

static void test_urn_default_provider_urn(void) {
  char *u = mp_default_provider_urn("test", "test", "pkgA", "default_1_2_3");
  CHECK_STR(u, "urn:pulumi:test::test::pulumi:providers:pkgA::default_1_2_3");
  CHECK(mp_urn_is_default_provider(u));
  free(u);
  CHECK(mp_urn_is_default_provider(
      "urn:pulumi:s::p::pulumi:providers:aws::default"));
  CHECK(!mp_urn_is_default_provider(
      "urn:pulumi:s::p::pulumi:providers:aws::explicit"));
  CHECK(!mp_urn_is_default_provider("urn:pulumi:s::p::aws:m:T::default"));
  CHECK(!mp_urn_is_default_provider(
      "urn:pulumi:s::p::pulumi:providers:::default"));
  CHECK(!mp_urn_is_default_provider("not a urn"));
}

static void test_urn_glob_matches_like_pulumi(void) {
  const char *u = "urn:pulumi:dev::proj::test:index:Resource::a";
  CHECK(mp_urn_glob(u, u));
  CHECK(!mp_urn_glob("urn:pulumi:dev::proj::test:index:Resource::b", u));
  CHECK(mp_urn_glob("**", u));
  CHECK(mp_urn_glob("urn:pulumi:dev::proj::test:index:Resource::*", u));
  CHECK(mp_urn_glob("urn:pulumi:*::proj::**::a", u));
  CHECK(mp_urn_glob("**::a", u));
  CHECK(mp_urn_glob("***::a", u)); /* `**` then `*` */
  /* `*` stays within a part: it does not cross a ':'. */
  CHECK(!mp_urn_glob("urn:pulumi:*::a", u));
  CHECK(!mp_urn_glob("*", u));
  CHECK(mp_urn_glob("*", "abc"));
  CHECK(mp_urn_glob("*", ""));
  CHECK(mp_urn_glob("", ""));
  CHECK(!mp_urn_glob("", "a"));
  CHECK(!mp_urn_glob("a", ""));
  CHECK(mp_urn_glob("a*b*c", "aXbYc"));
  CHECK(!mp_urn_glob("a*b*c", "aXbY:c"));
  CHECK(mp_urn_glob("a**c", "aX:bY:c"));
  CHECK(!mp_urn_glob("**Z", u));
}

/* A pattern of many stars against a long URN that does not match: a
 * backtracking matcher tries every way to split the URN between the
 * stars (minutes of CPU here); the automaton answers at once. */
static void test_urn_glob_pathological_pattern(void) {
  char urn[400], pat[64];
  snprintf(urn, sizeof(urn), "urn:pulumi:dev::proj::test:index:Resource::");
  size_t n = strlen(urn);
  memset(urn + n, 'a', 300);
  urn[n + 300] = '\0';
  memset(pat, '*', 32);
  strcpy(pat + 32, "Z");
  CHECK(!mp_urn_glob(pat, urn));
  urn[n + 299] = 'Z';
  CHECK(mp_urn_glob(pat, urn));
  /* Single stars too: one part of 300 characters, 20 stars. */
  memset(pat, 0, sizeof(pat));
  for (int i = 0; i < 20; i++) strcat(pat, "*a");
  strcat(pat, "Z");
  urn[n + 299] = 'a';
  CHECK(!mp_urn_glob(pat, urn + n)); /* no Z at all */
  urn[n + 299] = 'Z';
  CHECK(mp_urn_glob(pat, urn + n));
  CHECK(!mp_urn_glob(pat, "aaaaaaaaaaaaaaaaaaaZ")); /* 19 a's: too few */
}

int main(void) {
  RUN(test_urn_root_stack);
  RUN(test_urn_new_b2_examples);
  RUN(test_urn_new_rejects_bad_parent);
  RUN(test_urn_parse_parts);
  RUN(test_urn_name_may_contain_delimiters);
  RUN(test_urn_parse_rebuild_roundtrip);
  RUN(test_urn_parse_rejects_bad_input);
  RUN(test_urn_type_helpers);
  RUN(test_urn_provider_ref_good);
  RUN(test_urn_provider_ref_format_unknown_id);
  RUN(test_urn_provider_ref_bad);
  RUN(test_urn_default_provider_names);
  RUN(test_urn_default_provider_name_rejects_bad_semver);
  RUN(test_urn_default_provider_urn);
  RUN(test_urn_glob_matches_like_pulumi);
  RUN(test_urn_glob_pathological_pattern);
  return mp_test_summary();
}
