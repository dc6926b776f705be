/* `minipulumi new` writing a built-in template's Pulumi.yaml with the
 * user's project name and description (cli/cmd_new.c): the description
 * may hold anything (colons, newlines, `#`, quotes), the name anything
 * that passes the project name check. The input's first byte picks the
 * template; the rest is the description, then, after a NUL, the name
 * ("proj" if none). A project written reads back, as YAML, with exactly
 * that name and description. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/templates.h"
#include "fuzz_util.h"
#include "lang/ynode.h"

/* The scalar under |key| equals |want|. */
static int scalar_is(const mp_ynode *doc, const char *key, const char *want) {
  const mp_ynode *v = mp_ynode_get(doc, key);
  return v && v->kind == MP_YNODE_SCALAR && v->len == strlen(want) &&
         !memcmp(v->text, want, v->len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  size_t count = 0;
  while (mp_template_at(count)) count++;
  const mp_template *t = mp_template_at(data[0] % count);
  char *rest = fuzz_cstring(data + 1, size - 1);
  size_t dlen = strlen(rest);
  const char *desc = rest;
  const char *name = dlen < size - 1 && rest[dlen + 1] ? rest + dlen + 1 : "proj";
  char *dir = mp_xasprintf("%s/new", fuzz_dir());
  const char *argv[] = {"new",    t->name,       "--dir", dir,   "--name",
                        name,     "--description", desc,  "--yes", "--force",
                        "--generate-only", NULL};
  mp_ctx *ctx = fuzz_cli_ctx();
  int status = mp_cmd_new(11, argv, ctx);
  if (status == 0) {
    char *path = mp_xasprintf("%s/Pulumi.yaml", dir);
    mp_ynode *doc = NULL;
    mp_err err;
    if (mp_ynode_load(path, "Pulumi.yaml", &doc, &err) != 0)
      fprintf(stderr, "%s\n", err.msg);
    FUZZ_CHECK(doc != NULL, "a project written is not YAML");
    FUZZ_CHECK(scalar_is(doc, "name", name), "the name did not read back");
    FUZZ_CHECK(scalar_is(doc, "description", desc),
               "the description did not read back");
    mp_ynode_free(doc);
    free(path);
  }
  free(dir);
  free(rest);
  return 0;
}
