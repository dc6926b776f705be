/* A policy's config against its JSON schema (plugin/policy_schema.c), and
 * the --policy-pack-config file reader (cli/op_policy.c). The input is
 * one JSON object {"properties": {...}, "required": [...], "config":
 * {...}}: the schema's parts as GetAnalyzerInfo gives them and the config
 * checked against them. The same text is also read as a config file. A
 * check either fails (a "$ref" that does not resolve) with no error
 * message, or gives messages that each say something; checking twice
 * gives the same messages. */
#include <stdlib.h>
#include <string.h>

#include "cli/op_policy.h"
#include "fuzz_util.h"
#include "plugin/policy_schema.h"

static const mp_value *member(const mp_value *doc, const char *key,
                              mp_value_kind kind) {
  const mp_value *v = mp_value_object_get(doc, key);
  return v && v->kind == kind ? v : NULL;
}

static void check(const mp_value *props, const mp_value *required,
                  const mp_value *config) {
  mp_strv a, b;
  mp_strv_init(&a);
  mp_strv_init(&b);
  mp_err err;
  int rc = mp_policy_schema_check(props, required, config, &a, &err);
  FUZZ_CHECK(rc == 0 || a.len == 0, "a failed check gave messages");
  for (size_t i = 0; i < a.len; i++)
    FUZZ_CHECK(a.items[i][0] != '\0', "an empty error message");
  int rc2 = mp_policy_schema_check(props, required, config, &b, &err);
  FUZZ_CHECK(rc == rc2 && a.len == b.len, "a second check differs");
  for (size_t i = 0; i < a.len; i++)
    FUZZ_CHECK(!strcmp(a.items[i], b.items[i]), "a second check differs");
  mp_strv_destroy(&a);
  mp_strv_destroy(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_cstring(data, size);
  mp_value *doc = NULL;
  mp_err err;
  if (mp_value_from_json(text, size, NULL, &doc, &err) == 0 &&
      doc->kind == MP_VALUE_OBJECT) {
    const mp_value *config = member(doc, "config", MP_VALUE_OBJECT);
    if (config)
      check(member(doc, "properties", MP_VALUE_OBJECT),
            member(doc, "required", MP_VALUE_ARRAY), config);
  }
  mp_value_free(doc);
  char *path = fuzz_write_file("policy-config.json", data, size);
  mp_value *cfg = NULL;
  if (mp_op_policy_read_config(path, &cfg, &err) == 0)
    FUZZ_CHECK(cfg == NULL || cfg->kind == MP_VALUE_OBJECT,
               "a config file read is not an object");
  mp_value_free(cfg);
  free(path);
  free(text);
  return 0;
}
