/* URNs, provider references, --target globs, type tokens, default
 * provider names and stack names, from one text: the input, and its two
 * halves split at the first newline (a pattern and a URN, a version and a
 * download URL). Each parser must give back parts that rebuild what it
 * read. */
#include <stdlib.h>
#include <string.h>

#include "cli/workspace.h"
#include "engine/names.h"
#include "engine/urn.h"
#include "fuzz_util.h"
#include "lang/yaml_host.h"

static void urn(const char *s) {
  mp_urn u;
  mp_err err;
  size_t len = strlen(s);
  if (mp_urn_parse(s, len, &u, &err) != 0) {
    FUZZ_CHECK(!mp_urn_valid(s), "a URN that does not parse is valid");
    FUZZ_CHECK(mp_urn_name(s, NULL) == NULL, "an invalid URN has a name");
    return;
  }
  FUZZ_CHECK(mp_urn_valid(s), "a parsed URN is not valid");
  size_t n;
  const char *name = mp_urn_name(s, &n);
  FUZZ_CHECK(name && n == strlen(u.name) && !memcmp(name, u.name, n),
             "mp_urn_name differs from the parsed name");
  const char *type = mp_urn_type(s, &n);
  FUZZ_CHECK(type && n == strlen(u.type) && !memcmp(type, u.type, n),
             "mp_urn_type differs from the parsed type");
  char *again = mp_urn_new(u.stack, u.project, NULL, u.qualified_type, u.name,
                           &err);
  FUZZ_CHECK(again && !strcmp(again, s), "the parts do not rebuild the URN");
  free(again);
  free(mp_type_package(u.type));
  (void)mp_urn_is_default_provider(s);
  mp_urn_destroy(&u);
}

static void provider_ref(const char *s) {
  mp_provider_ref r;
  mp_err err;
  if (mp_provider_ref_parse(s, &r, &err) != 0) return;
  FUZZ_CHECK(mp_urn_valid(r.urn), "a provider reference's URN is invalid");
  if (r.id[0] != '\0') {
    char *again = mp_provider_ref_format(r.urn, r.id);
    FUZZ_CHECK(!strcmp(again, s), "a provider reference does not rebuild");
    free(again);
  }
  mp_provider_ref_destroy(&r);
}

static void glob(const char *pat, const char *s) {
  (void)mp_urn_glob(pat, s);
  if (!strchr(pat, '*'))
    FUZZ_CHECK(mp_urn_glob(pat, pat), "a pattern without * misses itself");
}

static void type_token(const char *s) {
  char *out = NULL;
  mp_err err;
  if (mp_yaml_resolve_type(s, &out, &err) == 0) {
    FUZZ_CHECK(out != NULL, "a resolved type token is NULL");
    (void)mp_yaml_type_properties(out);
  }
  free(out);
}

static void default_provider(const char *version, const char *url) {
  mp_err err;
  free(mp_default_provider_name(version, url, &err));
}

static void stack_name(const char *s) {
  char *out = NULL;
  int valid = mp_cli_stack_name_valid(s);
  int status = mp_cli_stack_parse(fuzz_cli_ctx(), s, &out);
  FUZZ_CHECK(!valid || status == 0, "a valid stack name is refused");
  FUZZ_CHECK(status != 0 || (out && mp_cli_stack_name_valid(out)),
             "a stack reference gives an invalid name");
  free(out);
}

/* A reference parsed as the DIY backends parse it names one project and
 * one stack, both valid, and never a folder `.` or `..`. */
static void stack_ref(const char *s) {
  char *project = NULL, *stack = NULL;
  mp_err err;
  if (mp_stack_ref_parse(s, "proj", &project, &stack, &err) ==
      MP_STACK_REF_OK) {
    FUZZ_CHECK(mp_project_name_check(project, NULL) == 0 &&
                   mp_stack_name_check(stack, NULL) == 0,
               "a parsed stack reference gives an invalid name");
    FUZZ_CHECK(strcmp(project, "..") && strcmp(project, ".") &&
                   strcmp(stack, "..") && strcmp(stack, "."),
               "a parsed stack reference names '.' or '..'");
  } else {
    FUZZ_CHECK(project == NULL && stack == NULL,
               "a refused stack reference gives names");
  }
  free(project);
  free(stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = fuzz_cstring(data, size);
  char *nl = strchr(s, '\n');
  char *second = nl ? nl + 1 : "";
  urn(s);
  provider_ref(s);
  type_token(s);
  stack_name(s);
  stack_ref(s);
  if (nl) *nl = '\0';
  glob(s, second);
  urn(second);
  default_provider(s, nl ? second : NULL);
  free(s);
  return 0;
}
