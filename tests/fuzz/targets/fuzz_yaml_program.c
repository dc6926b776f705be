/* A Pulumi YAML program: the input is Pulumi.yaml, loaded, analysed and
 * evaluated by the embedded language host as a deployment runs it
 * (prepare, start, the loop, finish), against the tests' recording
 * monitor (tests/lang/fake_monitor.c), which answers every registration,
 * read and invoke itself: no provider is called. The input's size picks
 * preview or update, and whether it is the project's last run. */
#include <stdlib.h>
#include <uv.h>

#include "fuzz_util.h"
#include "lang/fake_monitor.h"
#include "lang/yaml_host.h"

static mp_value *stack_config(void) {
  mp_value *cfg = mp_value_new_object();
  mp_value_object_set(cfg, "proj:greeting", mp_value_new_cstring("hello"));
  mp_value_object_set(cfg, "proj:count", mp_value_new_cstring("3"));
  mp_value_object_set(cfg, "proj:password",
                      mp_value_new_secret(mp_value_new_cstring("s3cret")));
  return cfg;
}

static void run(mp_project *proj, uv_loop_t *loop, mp_monitor *m,
                int preview, int last_use) {
  mp_source *src = NULL;
  mp_err err;
  if (mp_yaml_source_new(proj, &src, &err) != 0) return;
  if (last_use) mp_yaml_source_last_use(src);
  mp_value *cfg = stack_config();
  mp_source_info info = {.loop = loop,
                         .project = mp_project_name(proj),
                         .stack = "dev",
                         .organization = "organization",
                         .root_dir = fuzz_dir(),
                         .dry_run = preview,
                         .parallel = 4,
                         .config = cfg};
  if (src->vt->prepare) src->vt->prepare(src, &info);
  if (src->vt->start(src, m, &info, &err) == 0) {
    uv_run(loop, UV_RUN_DEFAULT);
    if (src->vt->finish) src->vt->finish(src);
    uv_run(loop, UV_RUN_DEFAULT);
  }
  src->vt->free(src);
  mp_value_free(cfg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  free(fuzz_write_file("Pulumi.yaml", data, size));
  uv_loop_t loop;
  mp_monitor m;
  mp_project *proj = NULL;
  mp_err err;
  FUZZ_CHECK(uv_loop_init(&loop) == 0, "uv_loop_init");
  fake_monitor_init(&m, &loop, "proj", "dev");
  m.preview = (size & 2) != 0;
  if (mp_project_load(fuzz_dir(), &proj, &err) == 0)
    run(proj, &loop, &m, m.preview, size & 1);
  mp_project_free(proj);
  fake_monitor_destroy(&m);
  uv_run(&loop, UV_RUN_DEFAULT);
  FUZZ_CHECK(uv_loop_close(&loop) == 0, "a handle is left open");
  return 0;
}
