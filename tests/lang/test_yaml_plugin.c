/* Tests of Pulumi YAML component providers (lang/yaml_plugin.h): the
 * schema of a PulumiPlugin.yaml's components, and Construct run against a
 * recording monitor. */
#include "lang/yaml_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/value_pb.h"
#include "lang/fake_monitor.h"
#include "pulumi/provider.pb-c.h"
#include "testutil.h"

#define STACK_URN "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
#define COMP_URN "urn:pulumi:dev::proj::comp:index:Thing::t1"

static const char *const plugin_yaml =
    "name: comp\n"
    "version: 1.2.3\n"
    "runtime: yaml\n"
    "components:\n"
    "  Thing:\n"
    "    description: a thing\n"
    "    inputs:\n"
    "      size:\n"
    "        type: integer\n"
    "      label:\n"
    "        type: string\n"
    "        default: plain\n"
    "      flag:\n"
    "        type: boolean\n"
    "        secret: true\n"
    "        default: true\n"
    "      tags:\n"
    "        type: array\n"
    "        items:\n"
    "          type: string\n"
    "        default: []\n"
    "    variables:\n"
    "      doubled: ${size}${size}\n"
    "    resources:\n"
    "      child:\n"
    "        type: test:Resource\n"
    "        properties:\n"
    "          value: ${label}\n"
    "    outputs:\n"
    "      where: ${pulumi.organization}/${pulumi.project}/${pulumi.stack}\n"
    "      doubled: ${doubled}\n"
    "      childValue: ${child.value}\n"
    "      flag: ${flag}\n"
    "  Empty: {}\n";

typedef struct plugin_dir {
  char dir[64];
} plugin_dir;

static void dir_with(plugin_dir *d, const char *yaml) {
  strcpy(d->dir, "/tmp/mp_yplug_XXXXXX");
  CHECK(mkdtemp(d->dir) != NULL);
  char path[128];
  snprintf(path, sizeof(path), "%s/PulumiPlugin.yaml", d->dir);
  FILE *f = fopen(path, "w");
  fputs(yaml, f);
  fclose(f);
}

static void dir_free(plugin_dir *d) {
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", d->dir);
  CHECK(system(cmd) == 0);
}

static const mp_value *at(const mp_value *v, const char *path) {
  char buf[256];
  snprintf(buf, sizeof(buf), "%s", path);
  for (char *k = strtok(buf, "/"); k && v; k = strtok(NULL, "/"))
    v = mp_value_object_get(v, k);
  return v;
}

static const char *str_at(const mp_value *v, const char *path) {
  const mp_value *s = at(v, path);
  return s && s->kind == MP_VALUE_STRING ? s->u.str.ptr : NULL;
}

static void test_schema(void) {
  plugin_dir d;
  dir_with(&d, plugin_yaml);
  mp_provider *p = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_yaml_plugin_new("comp", d.dir, &p, &err) == 0);
  char *json = NULL;
  CHECK(p->vt->get_schema(p, 0, NULL, NULL, &json, &err) == 0);
  mp_value *s = NULL;
  CHECK(mp_value_from_json(json, strlen(json), NULL, &s, NULL) == 0);
  CHECK_STR(str_at(s, "name"), "comp");
  CHECK_STR(str_at(s, "version"), "1.2.3");
  const mp_value *r = at(s, "resources/comp:index:Thing");
  CHECK(r != NULL);
  CHECK(at(r, "isComponent")->kind == MP_VALUE_BOOL &&
        at(r, "isComponent")->u.boolean);
  CHECK_STR(str_at(r, "description"), "a thing");
  CHECK_STR(str_at(r, "inputProperties/size/type"), "integer");
  CHECK_STR(str_at(r, "inputProperties/label/type"), "string");
  CHECK_STR(str_at(r, "inputProperties/label/default"), "plain");
  CHECK(at(r, "inputProperties/flag/secret")->u.boolean);
  CHECK_STR(str_at(r, "inputProperties/tags/items/type"), "string");
  const mp_value *req = at(r, "requiredInputs");
  CHECK(req && req->u.arr.len == 1 &&
        !strcmp(req->u.arr.items[0]->u.str.ptr, "size"));
  CHECK_STR(str_at(r, "properties/where/$ref"), "pulumi.json#/Any");
  CHECK(at(r, "required")->u.arr.len == 4);
  CHECK(at(s, "resources/comp:index:Empty/isComponent") != NULL);
  CHECK(p->vt->get_schema(p, 1, NULL, NULL, &json, &err) == MP_EINVAL);
  mp_prov_resp resp;
  mp_prov_resp_init(&resp);
  CHECK(p->vt->get_plugin_info(p, NULL, &resp, &err) == 0);
  CHECK_STR(resp.version, "1.2.3");
  mp_prov_resp_destroy(&resp);
  mp_value_free(s);
  free(json);
  mp_provider_free(p);
  dir_free(&d);
}

static void expect_load_error(const char *yaml, const char *want) {
  plugin_dir d;
  dir_with(&d, yaml);
  mp_provider *p = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_yaml_plugin_new("comp", d.dir, &p, &err) == MP_EINVAL);
  CHECK(p == NULL);
  CHECK_CONTAINS(err.msg, want);
  dir_free(&d);
}

static void test_schema_errors(void) {
  expect_load_error("runtime: yaml\ncomponents: {}\n",
                    "PulumiPlugin.yaml:1:1: missing required `name` field.");
  expect_load_error("name: c\ncomponents:\n  A:\n    inputs:\n"
                    "      n:\n        type: number\n",
                    "PulumiPlugin.yaml:6:15: unknown type: number");
  expect_load_error("name: c\ncomponents:\n  A:\n    inputs:\n"
                    "      n:\n        type: array\n",
                    "PulumiPlugin.yaml:6:9: missing items");
  expect_load_error("name: c\ncomponents:\n  A:\n    inputs:\n"
                    "      n: {}\n",
                    "missing type");
}

/* ---- Construct ---- */

typedef struct answer {
  int calls;
  mp_buf resp;
  int failed;
  char msg[512];
} answer;

static void on_done(void *ud, const mp_buf *resp, const mp_err *err) {
  answer *a = ud;
  a->calls++;
  if (resp) {
    mp_buf_append(&a->resp, resp->data, resp->len);
  } else {
    a->failed = 1;
    snprintf(a->msg, sizeof(a->msg), "%s", err->msg);
  }
}

/* A packed ConstructRequest of comp:index:Thing "t1" with |inputs_json|. */
static void construct_request(const char *inputs_json, int preview,
                              mp_buf *out) {
  mp_value *in = NULL;
  CHECK(mp_value_from_json(inputs_json, strlen(inputs_json), NULL, &in,
                           NULL) == 0);
  Pulumirpc__ConstructRequest q = PULUMIRPC__CONSTRUCT_REQUEST__INIT;
  q.project = "proj";
  q.stack = "dev";
  q.organization = "org";
  q.dryrun = preview;
  q.type = "comp:index:Thing";
  q.name = "t1";
  q.parent = STACK_URN;
  char *deps[] = {"urn:pulumi:dev::proj::test:index:Resource::before"};
  q.n_dependencies = 1;
  q.dependencies = deps;
  CHECK(mp_value_to_pb_struct(in, MP_PB_KEEP_SECRETS, &q.inputs, NULL) == 0);
  size_t n = protobuf_c_message_get_packed_size(&q.base);
  uint8_t *b = mp_xmalloc(n + 1);
  protobuf_c_message_pack(&q.base, b);
  mp_buf_init(out);
  mp_buf_append(out, b, n);
  free(b);
  mp_value_pb_struct_free(q.inputs);
  mp_value_free(in);
}

typedef struct crun {
  uv_loop_t loop;
  mp_monitor m;
  plugin_dir d;
  mp_provider *p;
  answer a;
  int rc;
  mp_err err;
} crun;

static void construct(crun *r, const char *inputs_json, const char *fail) {
  memset(r, 0, sizeof(*r));
  uv_loop_init(&r->loop);
  fake_monitor_init(&r->m, &r->loop, "proj", "dev");
  r->m.fail_name = fail;
  dir_with(&r->d, plugin_yaml);
  CHECK(mp_yaml_plugin_new("comp", r->d.dir, &r->p, &r->err) == 0);
  mp_buf_init(&r->a.resp);
  mp_buf req;
  construct_request(inputs_json, 0, &req);
  r->rc = r->p->vt->construct_here(r->p, &r->m, &req, on_done, &r->a,
                                   &r->err);
  mp_buf_destroy(&req);
  /* The answer comes later, never inside the call. */
  CHECK(r->a.calls == 0);
  if (r->rc == 0) uv_run(&r->loop, UV_RUN_DEFAULT);
}

static void construct_free(crun *r) {
  mp_provider_free(r->p);
  mp_buf_destroy(&r->a.resp);
  fake_monitor_destroy(&r->m);
  uv_run(&r->loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&r->loop) == 0);
  dir_free(&r->d);
}

static void test_construct(void) {
  crun r;
  construct(&r, "{\"size\": 4, \"extra\": \"x\"}", NULL);
  CHECK(r.rc == 0);
  CHECK(r.a.calls == 1 && !r.a.failed);
  /* The component first, in the stack's place, with the request's
   * inputs and options; the program's monitor is never told it ended. */
  CHECK(fake_monitor_event(&r.m, "reg:t1") == 0);
  CHECK(fake_monitor_event(&r.m, "done") < 0);
  const Pulumirpc__RegisterResourceRequest *c = fake_monitor_reg(&r.m, "t1");
  CHECK_STR(c->type, "comp:index:Thing");
  CHECK_STR(c->parent, STACK_URN);
  CHECK(!c->custom && !c->remote);
  CHECK(c->n_dependencies == 1);
  mp_value *in = NULL;
  CHECK(mp_value_from_pb_struct(c->object, &in, NULL) == 0);
  CHECK(mp_value_object_get(in, "size")->u.number == 4);
  CHECK(mp_value_object_get(in, "extra") != NULL);
  CHECK(mp_value_object_get(in, "label") == NULL);
  mp_value_free(in);
  /* Its resources: named after it, parented to it, the inputs (and a
   * default) as variables. */
  CHECK(fake_monitor_reg(&r.m, "child") == NULL);
  const Pulumirpc__RegisterResourceRequest *ch =
      fake_monitor_reg(&r.m, "t1-child");
  CHECK(ch != NULL);
  CHECK_STR(ch->parent, COMP_URN);
  CHECK(ch->custom);
  /* The outputs on the component, and the answer. */
  CHECK(r.m.outputs_calls == 1);
  CHECK_STR(r.m.outputs->urn, COMP_URN);
  Pulumirpc__ConstructResponse *resp = pulumirpc__construct_response__unpack(
      NULL, r.a.resp.len, (const uint8_t *)r.a.resp.data);
  CHECK(resp != NULL);
  CHECK_STR(resp->urn, COMP_URN);
  mp_value *state = NULL;
  CHECK(mp_value_from_pb_struct(resp->state, &state, NULL) == 0);
  CHECK_STR(str_at(state, "where"), "org/proj/dev");
  CHECK_STR(str_at(state, "doubled"), "44");
  CHECK_STR(str_at(state, "childValue"), "plain");
  const mp_value *flag = mp_value_object_get(state, "flag");
  CHECK(flag && flag->kind == MP_VALUE_SECRET);
  int found = 0;
  for (size_t i = 0; i < resp->n_statedependencies; i++) {
    const Pulumirpc__ConstructResponse__StateDependenciesEntry *e =
        resp->statedependencies[i];
    if (strcmp(e->key, "childValue") == 0) {
      found = 1;
      CHECK(e->value->n_urns == 1);
      CHECK_STR(e->value->urns[0],
                "urn:pulumi:dev::proj::comp:index:Thing$test:index:"
                "Resource::t1-child");
    }
  }
  CHECK(found);
  mp_value_free(state);
  pulumirpc__construct_response__free_unpacked(resp, NULL);
  construct_free(&r);
}

static void test_construct_failures(void) {
  crun r;
  /* A missing required input: refused at once, nothing registered. */
  construct(&r, "{}", NULL);
  CHECK(r.rc == MP_EINVAL);
  CHECK_CONTAINS(r.err.msg, "constructing comp:index:Thing: ");
  CHECK_CONTAINS(r.err.msg, "PulumiPlugin.yaml:8:7: missing required input "
                            "'size'");
  CHECK(r.m.nregs == 0);
  construct_free(&r);

  /* A child that fails: the Construct fails with its message. */
  construct(&r, "{\"size\": 1}", "t1-child");
  CHECK(r.rc == 0);
  CHECK(r.a.calls == 1 && r.a.failed);
  CHECK_CONTAINS(r.a.msg, "create of 't1-child' failed: boom");
  CHECK(r.m.outputs_calls == 0);
  construct_free(&r);
}

int main(void) {
  RUN(test_schema);
  RUN(test_schema_errors);
  RUN(test_construct);
  RUN(test_construct_failures);
  return mp_test_summary();
}
