/* The program of an update: the project's language host. */
#include <string.h>

#include "cli/cli.h"
#include "cli/operation.h"
#include "lang/yaml_host.h"

int mp_cli_source_new(mp_ctx *ctx, const char *stack, mp_source **out,
                      mp_err *err) {
  mp_cli_project *p = ctx->project;
  (void)stack;
  *out = NULL;
  const char *rt = p->runtime ? p->runtime : "";
  if (!*rt)
    return mp_err_set(err, MP_EINVAL,
                      "project '%s' has no runtime; add `runtime: yaml` to "
                      "its Pulumi.yaml",
                      p->name);
  if (strcmp(rt, "yaml") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "the '%s' runtime of project '%s' is not supported; "
                      "minipulumi runs `runtime: yaml` programs",
                      rt, p->name);
  return mp_yaml_source_new(p->lang, out, err);
}
