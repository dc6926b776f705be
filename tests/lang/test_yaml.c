/* Tests of the Pulumi YAML language host against a recording monitor. */
#include "lang/yaml_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/value_pb.h"
#include "lang/fake_monitor.h"
#include "lang/ynode.h"
#include "testutil.h"

/* ---- harness ---- */

typedef struct run {
  uv_loop_t loop;
  mp_monitor m;
  mp_project *proj;
  mp_source *src;
  int load_rc, start_rc;
  int last_use; /* mp_yaml_source_last_use before the start */
  mp_err err;
  char dir[64];
} run;

static void write_file(const char *dir, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

/* Runs |yaml| as Pulumi.yaml with stack config |config| (JSON or NULL). */
/* A cleared run with a fresh project folder of its own. */
static void run_init(run *r) {
  memset(r, 0, sizeof(*r));
  strcpy(r->dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r->dir) != NULL);
}

static void run_program_in(run *r, const char *config, int preview,
                           const char *fail_name) {
  uv_loop_init(&r->loop);
  fake_monitor_init(&r->m, &r->loop, "proj", "dev");
  r->m.preview = preview;
  r->m.fail_name = fail_name;
  mp_err_clear(&r->err);
  /* Loading: the project file, then what the host reads of it. */
  r->load_rc = mp_project_load(r->dir, &r->proj, &r->err);
  if (r->load_rc == 0)
    r->load_rc = mp_yaml_source_new(r->proj, &r->src, &r->err);
  if (r->load_rc < 0)
    return;
  if (r->last_use)
    mp_yaml_source_last_use(r->src);
  mp_value *cfg = NULL;
  if (config)
    CHECK(mp_value_from_json(config, strlen(config), NULL, &cfg, NULL) == 0);
  mp_source_info info = {.loop = &r->loop,
                         .project = "proj",
                         .stack = "dev",
                         .organization = "org",
                         .root_dir = r->dir,
                         .dry_run = preview,
                         .parallel = 4,
                         .config = cfg};
  r->start_rc = r->src->vt->start(r->src, &r->m, &info, &r->err);
  mp_value_free(cfg);
  if (r->start_rc == 0)
    uv_run(&r->loop, UV_RUN_DEFAULT);
}

/* |flags|: RUN_LAST_USE marks the source as its program's last run. */
enum { RUN_LAST_USE = 1 };

static void run_program_with(run *r, const char *yaml, const char *config,
                             int preview, int flags) {
  memset(r, 0, sizeof(*r));
  r->last_use = flags & RUN_LAST_USE;
  strcpy(r->dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r->dir) != NULL);
  write_file(r->dir, "Pulumi.yaml", yaml);
  run_program_in(r, config, preview, NULL);
}

static void run_program(run *r, const char *yaml, const char *config,
                        int preview) {
  run_program_with(r, yaml, config, preview, 0);
}

static void run_free(run *r) {
  if (r->src)
    r->src->vt->free(r->src);
  mp_project_free(r->proj);
  fake_monitor_destroy(&r->m);
  uv_run(&r->loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&r->loop) == 0);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf %s", r->dir);
  CHECK(system(cmd) == 0);
}

/* A compact rendering: secrets as secret(..), unknowns as ?. */
static void show_into(const mp_value *v, mp_buf *b) {
  switch (v->kind) {
  case MP_VALUE_OBJECT:
    mp_buf_putc(b, '{');
    for (size_t i = 0; i < v->u.obj.len; i++) {
      mp_buf_printf(b, "%s%s:", i ? "," : "", v->u.obj.items[i].key);
      show_into(v->u.obj.items[i].value, b);
    }
    mp_buf_putc(b, '}');
    return;
  case MP_VALUE_ARRAY:
    mp_buf_putc(b, '[');
    for (size_t i = 0; i < v->u.arr.len; i++) {
      if (i)
        mp_buf_putc(b, ',');
      show_into(v->u.arr.items[i], b);
    }
    mp_buf_putc(b, ']');
    return;
  case MP_VALUE_SECRET:
    mp_buf_puts(b, "secret(");
    show_into(v->u.secret, b);
    mp_buf_putc(b, ')');
    return;
  case MP_VALUE_UNKNOWN:
    mp_buf_putc(b, '?');
    return;
  case MP_VALUE_ASSET:
    mp_buf_printf(b, "asset(%s)", v->u.asset.text    ? v->u.asset.text
                                  : v->u.asset.path ? v->u.asset.path
                                                    : "uri");
    return;
  case MP_VALUE_ARCHIVE:
    if (v->u.archive.assets) {
      mp_buf_puts(b, "archive(");
      show_into(v->u.archive.assets, b);
      mp_buf_putc(b, ')');
      return;
    }
    mp_buf_printf(b, "archive(%s)", v->u.archive.path ? v->u.archive.path
                                                      : v->u.archive.uri);
    return;
  default:
    mp_value_to_json(v, NULL, 0, b, NULL);
  }
}

/* Owned rendering of a Struct. */
static char *show_struct(const Google__Protobuf__Struct *s) {
  mp_value *v = NULL;
  mp_buf b;
  mp_buf_init(&b);
  if (mp_value_from_pb_struct(s, &v, NULL) == 0)
    show_into(v, &b);
  mp_value_free(v);
  return mp_buf_detach(&b, NULL);
}

static char *props(const run *r, const char *name) {
  const Pulumirpc__RegisterResourceRequest *q = fake_monitor_reg(&r->m, name);
  return q ? show_struct(q->object) : mp_xstrdup("(not registered)");
}

static char *outputs(const run *r) {
  return r->m.outputs ? show_struct(r->m.outputs->outputs)
                      : mp_xstrdup("(none)");
}

#define CHECK_OWNED_STR(expr, want)                                        \
  do {                                                                     \
    char *s_ = (expr);                                                     \
    CHECK_STR(s_, want);                                                   \
    free(s_);                                                              \
  } while (0)

static const char *prop_deps(const Pulumirpc__RegisterResourceRequest *q,
                             const char *key, size_t i) {
  for (size_t k = 0; k < q->n_propertydependencies; k++)
    if (strcmp(q->propertydependencies[k]->key, key) == 0)
      return i < q->propertydependencies[k]->value->n_urns
                 ? q->propertydependencies[k]->value->urns[i]
                 : "(none)";
  return "(no entry)";
}

#define STACK_URN "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
#define URN(type, name) "urn:pulumi:dev::proj::" type "::" name

/* ---- registration ---- */

static void test_yaml_stack_first_and_concurrent(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "resources:\n"
              "  c:\n    type: test:Resource\n"
              "    properties:\n      v: ${a.v}\n"
              "  a:\n    type: test:Resource\n    properties:\n      v: 1\n"
              "  b:\n    type: test:Resource\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  CHECK(r.m.nregs == 4);
  CHECK_STR(r.m.regs[0]->type, "pulumi:pulumi:Stack");
  CHECK_STR(r.m.regs[0]->name, "proj-dev");
  CHECK_STR(r.m.regs[0]->parent, "");
  CHECK(!r.m.regs[0]->custom);
  CHECK(r.m.regs[0]->object != NULL);
  /* a and b both go out before either is answered; c waits for a. */
  long ra = fake_monitor_event(&r.m, "reg:a"),
       rb = fake_monitor_event(&r.m, "reg:b"),
       aa = fake_monitor_event(&r.m, "ans:a"),
       ab = fake_monitor_event(&r.m, "ans:b"),
       rc = fake_monitor_event(&r.m, "reg:c");
  CHECK(ra > 0 && rb > 0 && ra < aa && rb < aa && rb < ab);
  CHECK(rc > aa);
  const Pulumirpc__RegisterResourceRequest *a = fake_monitor_reg(&r.m, "a");
  CHECK_STR(a->type, "test:index:Resource");
  CHECK_STR(a->parent, STACK_URN);
  CHECK(a->custom && a->acceptsecrets && a->supportspartialvalues &&
        a->aliasspecs && a->acceptresources);
  CHECK(a->customtimeouts != NULL);
  CHECK(a->protect_opt_case == 0 && a->retain_on_delete_opt_case == 0);
  CHECK_OWNED_STR(props(&r, "c"), "{v:1}");
  CHECK(r.m.outputs_calls == 1);
  CHECK_STR(r.m.outputs->urn, STACK_URN);
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  CHECK(fake_monitor_event(&r.m, "outputs") <
        fake_monitor_event(&r.m, "done"));
  run_free(&r);
}

/* An invoke's options.dependsOn: it waits for those resources, and what
 * takes its result depends on them. */
static void test_yaml_invoke_depends_on(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "resources:\n"
              "  first:\n    type: test:Resource\n"
              "  second:\n    type: test:Resource\n"
              "    properties:\n      text: ${data.q}\n"
              "variables:\n  data:\n    fn::invoke:\n"
              "      function: test:echo\n"
              "      arguments:\n        q: hello\n"
              "      options:\n        dependsOn:\n          - ${first}\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  CHECK(fake_monitor_event(&r.m, "ans:first") <
        fake_monitor_event(&r.m, "inv:test:index:echo"));
  const Pulumirpc__RegisterResourceRequest *q = fake_monitor_reg(&r.m, "second");
  CHECK(q != NULL && q->n_dependencies == 1);
  if (q != NULL && q->n_dependencies == 1)
    CHECK_STR(q->dependencies[0], URN("test:index:Resource", "first"));
  if (q != NULL)
    CHECK_STR(prop_deps(q, "text", 0), URN("test:index:Resource", "first"));
  run_free(&r);
}

static void test_yaml_dependencies(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "variables:\n  both: ${a.v}-${b.id}\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n      v: x\n"
              "  b:\n    type: test:Resource\n"
              "  d:\n    type: test:Resource\n"
              "  c:\n    type: test:Resource\n"
              "    properties:\n      x: ${a.v}\n      y: lit\n"
              "      z: ${both}\n"
              "    options:\n      dependsOn:\n        - ${d}\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  const Pulumirpc__RegisterResourceRequest *c = fake_monitor_reg(&r.m, "c");
  CHECK(c != NULL);
  if (c == NULL) {
    run_free(&r);
    return;
  }
  CHECK(c->n_dependencies == 3);
  mp_strv deps = {c->dependencies, c->n_dependencies, c->n_dependencies};
  CHECK(mp_strv_contains(&deps, URN("test:index:Resource", "a")));
  CHECK(mp_strv_contains(&deps, URN("test:index:Resource", "b")));
  CHECK(mp_strv_contains(&deps, URN("test:index:Resource", "d")));
  CHECK(c->n_propertydependencies == 3);
  CHECK_STR(prop_deps(c, "x", 0), URN("test:index:Resource", "a"));
  CHECK_STR(prop_deps(c, "x", 1), "(none)");
  CHECK_STR(prop_deps(c, "y", 0), "(none)");
  CHECK_STR(prop_deps(c, "z", 0), URN("test:index:Resource", "a"));
  CHECK_STR(prop_deps(c, "z", 1), URN("test:index:Resource", "b"));
  CHECK_OWNED_STR(props(&r, "c"), "{x:\"x\",y:\"lit\",z:\"x-id-b\"}");
  run_free(&r);
}

static void test_yaml_options(void) {
  run r;
  run_program(
      &r,
      "name: proj\nruntime: yaml\n"
      "resources:\n"
      "  prov:\n    type: pulumi:providers:test\n"
      "  par:\n    type: test:Resource\n"
      "  owner:\n    type: test:Resource\n"
      "  r:\n    type: test:Resource\n    name: real-name\n"
      "    options:\n"
      "      parent: ${par}\n      provider: ${prov}\n"
      "      protect: true\n      retainOnDelete: false\n"
      "      deleteBeforeReplace: true\n"
      "      ignoreChanges: [a, b.c]\n      replaceOnChanges: [d]\n"
      "      additionalSecretOutputs: [e]\n"
      "      import: imp-1\n      version: 1.2.3\n"
      "      deletedWith: ${owner}\n"
      "      hideDiffs: [f]\n      replaceWith:\n        - ${owner}\n"
      "      envVarMappings:\n        OLD: NEW\n"
      "      replacementTrigger: ${owner.id}\n"
      "      customTimeouts:\n        create: 5m\n        delete: 1h\n"
      "      aliases:\n        - urn:pulumi:dev::proj::test:index:Resource::old\n"
      "        - name: older\n          parent: ${owner}\n"
      "        - name: oldest\n          noParent: true\n"
      "  plain:\n    type: test:Resource\n"
      "    options:\n      deleteBeforeReplace: false\n",
      NULL, 0);
  CHECK(r.start_rc == 0);
  const Pulumirpc__RegisterResourceRequest *q =
      fake_monitor_reg(&r.m, "real-name");
  CHECK(q != NULL);
  if (q == NULL) {
    run_free(&r);
    return;
  }
  CHECK_STR(q->parent, URN("test:index:Resource", "par"));
  CHECK_STR(q->provider, URN("pulumi:providers:test", "prov") "::id-prov");
  CHECK(q->protect_opt_case == 6 && q->protect);
  CHECK(q->retain_on_delete_opt_case == 25 && !q->retainondelete);
  CHECK(q->deletebeforereplace && q->deletebeforereplacedefined);
  CHECK(q->n_ignorechanges == 2);
  CHECK_STR(q->ignorechanges[1], "b.c");
  CHECK(q->n_replaceonchanges == 1);
  CHECK_STR(q->replaceonchanges[0], "d");
  CHECK(q->n_additionalsecretoutputs == 1);
  CHECK_STR(q->importid, "imp-1");
  CHECK_STR(q->version, "1.2.3");
  CHECK_STR(q->deletedwith, URN("test:index:Resource", "owner"));
  CHECK(q->n_hidediffs == 1 && strcmp(q->hidediffs[0], "f") == 0);
  CHECK(q->n_replace_with == 1);
  CHECK_STR(q->replace_with[0], URN("test:index:Resource", "owner"));
  CHECK(q->n_envvarmappings == 1);
  CHECK_STR(q->envvarmappings[0]->key, "OLD");
  CHECK_STR(q->envvarmappings[0]->value, "NEW");
  CHECK(q->replacement_trigger != NULL &&
        q->replacement_trigger->kind_case ==
            GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  CHECK_STR(q->customtimeouts->create, "5m");
  CHECK_STR(q->customtimeouts->delete_, "1h");
  CHECK_STR(q->customtimeouts->update, "");
  CHECK(q->n_aliases == 3);
  CHECK(q->aliases[0]->alias_case == PULUMIRPC__ALIAS__ALIAS_URN);
  CHECK_STR(q->aliases[0]->urn,
            "urn:pulumi:dev::proj::test:index:Resource::old");
  CHECK(q->aliases[1]->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC);
  CHECK_STR(q->aliases[1]->spec->name, "older");
  CHECK_STR(q->aliases[1]->spec->parenturn,
            URN("test:index:Resource", "owner"));
  CHECK(q->aliases[2]->spec->parent_case ==
            PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT &&
        q->aliases[2]->spec->noparent);
  /* Options are not data dependencies; the parent never is. */
  CHECK(q->n_dependencies == 0);
  /* The child was issued after its parent, provider and owner answered. */
  CHECK(fake_monitor_event(&r.m, "reg:real-name") >
        fake_monitor_event(&r.m, "ans:prov"));
  const Pulumirpc__RegisterResourceRequest *p =
      fake_monitor_reg(&r.m, "plain");
  CHECK(!p->deletebeforereplace && p->deletebeforereplacedefined);
  CHECK_STR(p->provider, "");
  CHECK(p->n_aliases == 0);
  run_free(&r);
}

static void test_yaml_default_provider(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "resources:\n"
              "  p:\n    type: pulumi:providers:random\n"
              "    defaultProvider: true\n"
              "  pet:\n    type: random:RandomPet\n"
              "  other:\n    type: test:Resource\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  const Pulumirpc__RegisterResourceRequest *pet =
      fake_monitor_reg(&r.m, "pet");
  CHECK_STR(pet->type, "random:index/randomPet:RandomPet");
  CHECK_STR(pet->provider,
            URN("pulumi:providers:random", "p") "::id-p");
  CHECK_STR(fake_monitor_reg(&r.m, "other")->provider, "");
  run_free(&r);
}

static void test_yaml_type_resolution(void) {
  const char *cases[][2] = {
      {"random:RandomString", "random:index/randomString:RandomString"},
      {"random:index:RandomPassword",
       "random:index/randomPassword:RandomPassword"},
      {"random:RandomInteger", "random:index/randomInteger:RandomInteger"},
      {"random:RandomId", "random:index/randomId:RandomId"},
      {"random:RandomUuid", "random:index/randomUuid:RandomUuid"},
      {"random:index/randomPet:RandomPet", "random:index/randomPet:RandomPet"},
      {"command:local:Command", "command:local:Command"},
      /* the built-in lacks them: kept for the plugin (first hour, 10) */
      {"command:remote:Command", "command:remote:Command"},
      {"random:RandomShuffle", "random:index/randomShuffle:RandomShuffle"},
      {"random:RandomUuid7", "random:index/randomUuid7:RandomUuid7"},
      {"local:File", "local:index:File"},
      {"test:Resource", "test:index:Resource"},
      {"aws:s3:Bucket", "aws:s3:Bucket"},
      {"foo:Thing", "foo:index:Thing"},
      {"pulumi:providers:random", "pulumi:providers:random"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    char *out = NULL;
    mp_err err;
    CHECK(mp_yaml_resolve_type(cases[i][0], &out, &err) == 0);
    CHECK_STR(out, cases[i][1]);
    free(out);
  }
  char *out = NULL;
  mp_err err;
  CHECK(mp_yaml_resolve_type("random:RandomThing", &out, &err) ==
        MP_EINVAL);
  CHECK_CONTAINS(err.msg, "unknown resource type 'random:RandomThing'");
  CHECK(mp_yaml_resolve_type("command:Command", &out, &err) == MP_EINVAL);
  CHECK(mp_yaml_resolve_type("nocolon", &out, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "not a type token");
  CHECK(out == NULL);
}

/* ---- expressions ---- */

static void test_yaml_interpolation(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "variables:\n  n: 42\n  f: 1.5\n  obj:\n    k: [1, two]\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n"
              "      s: pre-${n}-${f}-${obj.k[1]}-post\n"
              "      whole: ${obj}\n"
              "      idx: ${obj[\"k\"][0]}\n"
              "      esc: cost $${price} and ${pulumi.stack}\n"
              "      meta: ${pulumi.project}/${pulumi.organization}\n"
              "      quoted: \"true\"\n      b: true\n      nul: null\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"),
                  "{b:true,esc:\"cost ${price} and dev\",idx:1,"
                  "meta:\"proj/org\",nul:null,quoted:\"true\","
                  "s:\"pre-42-1.5-two-post\",whole:{k:[1,\"two\"]}}");
  run_free(&r);
}

static void test_yaml_functions(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "data.txt", "file body");
  write_file(
      r.dir, "Pulumi.yaml",
      "name: proj\nruntime: yaml\n"
      "resources:\n"
      "  a:\n    type: test:Resource\n    properties:\n"
      "      join:\n        fn::join: [\"-\", [a, 1, true]]\n"
      "      split:\n        fn::split: [\",\", \"x,y,,z\"]\n"
      "      select:\n        fn::select: [1, [p, q, r]]\n"
      "      json:\n        fn::toJSON: {k: [1, v]}\n"
      "      b64:\n        fn::toBase64: hello\n"
      "      unb64:\n        fn::fromBase64: aGVsbG8h\n"
      "      file:\n        fn::readFile: data.txt\n"
      "      sa:\n        fn::stringAsset: text\n"
      "      fa:\n        fn::fileAsset: ./x.txt\n"
      "      ar:\n        fn::fileArchive: ./dir\n"
      "      inv:\n        fn::invoke:\n          function: test:echo\n"
      "          arguments:\n            q: ${pulumi.stack}\n"
      "          return: q\n");
  run_program_in(&r, NULL, 0, NULL);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"),
                  "{ar:archive(./dir),b64:\"aGVsbG8=\",fa:asset(./x.txt),"
                  "file:\"file body\",inv:\"dev\",join:\"a-1-true\","
                  "json:\"{\\\"k\\\":[1,\\\"v\\\"]}\",sa:asset(text),"
                  "select:\"q\",split:[\"x\",\"y\",\"\",\"z\"],"
                  "unb64:\"hello!\"}");
  CHECK(r.m.ninvokes == 1);
  CHECK_STR(r.m.invokes[0]->tok, "test:index:echo");
  /* The invoke ran before the resource that needed it. */
  CHECK(fake_monitor_event(&r.m, "inv:test:index:echo") <
        fake_monitor_event(&r.m, "reg:a"));
  run_free(&r);
}

/* The builtins Pulumi YAML added after the first ones: file digests,
 * sha1, length (grapheme clusters for strings), singleOrNone, unsecret,
 * and the name and type of a resource. */
static void test_yaml_more_functions(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "hello.txt", "hello");
  write_file(
      r.dir, "Pulumi.yaml",
      "name: proj\nruntime: yaml\n"
      "variables:\n  s:\n    fn::secret: hush\n"
      "resources:\n"
      "  b:\n    type: test:Resource\n    name: bee\n"
      "  a:\n    type: test:Resource\n    properties:\n"
      "      f64:\n        fn::filebase64: hello.txt\n"
      "      f256:\n        fn::filebase64sha256: hello.txt\n"
      "      sha:\n        fn::sha1: hello\n"
      "      lens:\n"
      "        - fn::length: [1, 2, 3]\n"
      "        - fn::length: {x: 1, y: 2}\n"
      "        - fn::length: \"h\\u00e9llo\"\n"
      "        - fn::length: \"e\\u0301\"\n"
      "        - fn::length: \"\\U0001F468\\u200D\\U0001F469\\u200D"
      "\\U0001F467\"\n"
      "        - fn::length: \"\\U0001F1EB\\U0001F1F7\\U0001F1E9\\U0001F1EA\"\n"
      "        - fn::length: \"\\u1112\\u1161\\u11AB\\uD55C\"\n"
      "        - fn::length: \"\\U0001F44D\\U0001F3FD!\"\n"
      "        - fn::length: \"a\\r\\nb\"\n"
      "      one:\n        fn::singleOrNone: [x]\n"
      "      none:\n        fn::singleOrNone: []\n"
      "      plain:\n        fn::unsecret: ${s}\n"
      "      rname:\n        fn::pulumiResourceName: ${b}\n"
      "      rtype:\n        fn::pulumiResourceType: ${b}\n"
      "      ra:\n        fn::remoteArchive: http://h/a.tgz\n"
      "      aa:\n        fn::assetArchive:\n          f:\n"
      "            fn::stringAsset: t\n"
      "      sinv:\n        fn::test:echo:\n          q: hi\n");
  run_program_in(&r, NULL, 0, NULL);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"),
                  "{aa:archive({f:asset(t)}),"
                  "f256:\"LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=\","
                  "f64:\"aGVsbG8=\",lens:[3,2,5,1,1,2,2,2,3],none:null,"
                  "one:\"x\",plain:\"hush\",ra:archive(http://h/a.tgz),"
                  "rname:\"bee\","
                  "rtype:\"test:index:Resource\","
                  "sha:\"aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d\","
                  "sinv:{q:\"hi\",tok:\"test:index:echo\"}}");
  run_free(&r);
}

/* A subnormal double is a number, the smallest one included. */
static void test_yaml_subnormal_number(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\nresources:\n"
              "  a:\n    type: test:Resource\n    properties:\n"
              "      tiny: 5e-324\n      small: 2.2250738585072009e-308\n"
              "      big: 1e400\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"), "{big:\"1e400\",small:2.225073858507201e-308,"
                                  "tiny:5e-324}");
  run_free(&r);
}

/* A config entry's `name:` is the key read; the program refers to the
 * entry by its own key. */
static void test_yaml_config_name(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "configuration:\n  size:\n    type: String\n"
              "    name: instanceSize\n"
              "  count:\n    type: Number\n    name: other:n\n"
              "    default: 3\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n"
              "      s: ${size}\n      n: ${count}\n",
              "{\"proj:instanceSize\": \"big\"}", 0);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"), "{n:3,s:\"big\"}");
  run_free(&r);
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "configuration:\n  size:\n    type: String\n"
              "    name: instanceSize\n",
              "{\"proj:size\": \"big\"}", 0);
  CHECK(r.start_rc < 0);
  CHECK_CONTAINS(r.err.msg, "missing required configuration variable "
                            "'proj:instanceSize'");
  run_free(&r);
}

static void test_yaml_function_errors(void) {
  const char *progs[][2] = {
      {"      v:\n        fn::select: [5, [a]]\n",
       "Pulumi.yaml:8:9: fn::select: index 5 is out of range"},
      {"      v:\n        fn::fromBase64: '!!'\n",
       "Pulumi.yaml:8:9: fn::fromBase64: '!!' is not valid base64"},
      {"      v:\n        fn::readFile: nope.txt\n",
       "Pulumi.yaml:8:9: fn::readFile: cannot open 'nope.txt'"},
      {"      v:\n        fn::invoke:\n          function: test:fail\n",
       "Pulumi.yaml:8:9: fn::invoke failed: no such thing"},
      {"      v:\n        fn::join: [1, [a]]\n",
       "fn::join: the delimiter must be a string"},
      {"      v:\n        fn::length: 5\n",
       "Pulumi.yaml:8:9: fn::length requires a list, map, or string, got a "
       "number"},
      {"      v:\n        fn::singleOrNone: [1, 2]\n",
       "fn::singleOrNone expected a list of 0 or 1 elements, got 2"},
      {"      v:\n        fn::singleOrNone: x\n",
       "fn::singleOrNone requires a list, got a string"},
      {"      v:\n        fn::sha1: [x]\n",
       "fn::sha1 requires a string, got a list"},
      {"      v:\n        fn::filebase64: 7\n",
       "fn::filebase64 requires a string path, got a number"},
      {"      v:\n        fn::filebase64sha256: nope.bin\n",
       "fn::filebase64sha256: cannot open 'nope.bin'"},
      {"      v:\n        fn::pulumiResourceName: abc\n",
       "fn::pulumiResourceName requires a resource, got a string"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(progs); i++) {
    char *yaml = mp_xasprintf("name: proj\nruntime: yaml\nresources:\n"
                              "  a:\n    type: test:Resource\n"
                              "    properties:\n%s",
                              progs[i][0]);
    run r;
    run_program(&r, yaml, NULL, 0);
    CHECK(r.start_rc == 0);
    CHECK(r.m.done_calls == 1 && r.m.done_failed);
    CHECK_CONTAINS(r.m.done_msg, progs[i][1]);
    CHECK(fake_monitor_reg(&r.m, "a") == NULL);
    CHECK(r.m.outputs_calls == 0);
    run_free(&r);
    free(yaml);
  }
}

static void test_yaml_secrets(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "config:\n  pw:\n    type: string\n"
              "variables:\n  s:\n    fn::secret: hush\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n"
              "      plain: x\n      sec: ${s}\n      interp: a-${s}\n"
              "      joined:\n        fn::join: [\",\", [\"${s}\", b]]\n"
              "      fromcfg: ${pw}\n"
              "  b:\n    type: test:Resource\n    properties:\n"
              "      fromres: ${a.sec}\n"
              "outputs:\n  o: ${s}\n  p: ${a.plain}\n",
              "{\"proj:pw\": {\"4dabf18193072939515e22adb298388d\": "
              "\"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": "
              "\"\\\"pass\\\"\"}}",
              0);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"),
                  "{fromcfg:secret(\"pass\"),interp:secret(\"a-hush\"),"
                  "joined:secret(\"hush,b\"),plain:\"x\","
                  "sec:secret(\"hush\")}");
  CHECK_OWNED_STR(props(&r, "b"), "{fromres:secret(\"hush\")}");
  CHECK_OWNED_STR(outputs(&r), "{o:secret(\"hush\"),p:\"x\"}");
  run_free(&r);
}

static void test_yaml_preview_unknowns(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n      v: 1\n"
              "  b:\n    type: test:Resource\n    properties:\n"
              "      id: ${a.id}\n      interp: x-${a.id}\n"
              "      known: ${a.v}\n      missing: ${a.nothere}\n"
              "      joined:\n        fn::join: [\"-\", [\"${a}\", y]]\n"
              "      urn: ${a.urn}\n"
              "outputs:\n  aid: ${a.id}\n",
              NULL, 1);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "b"),
                  "{id:?,interp:?,joined:?,known:1,missing:?,"
                  "urn:\"" URN("test:index:Resource", "a") "\"}");
  CHECK_OWNED_STR(outputs(&r), "{aid:?}");
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  run_free(&r);
}

static void test_yaml_unknown_outputs_flag(void) {
  run r;
  /* With unknown: true on a's answer, every output of a is unknown. */
  memset(&r, 0, sizeof(r));
  strcpy(r.dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r.dir) != NULL);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nresources:\n"
             "  a:\n    type: test:Resource\n    properties:\n      v: 1\n"
             "  b:\n    type: test:Resource\n    properties:\n"
             "      v: ${a.v}\n");
  uv_loop_init(&r.loop);
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  r.m.preview = 1;
  r.m.unknown_name = "a";
  CHECK(mp_project_load(r.dir, &r.proj, &r.err) == 0);
  CHECK(mp_yaml_source_new(r.proj, &r.src, &r.err) == 0);
  mp_source_info info = {.loop = &r.loop, .project = "proj", .stack = "dev",
                         .root_dir = r.dir, .dry_run = 1};
  CHECK(r.src->vt->start(r.src, &r.m, &info, &r.err) == 0);
  uv_run(&r.loop, UV_RUN_DEFAULT);
  CHECK_OWNED_STR(props(&r, "b"), "{v:?}");
  run_free(&r);
}

static void test_yaml_config(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\n"
              "config:\n"
              "  count:\n    type: integer\n    default: 3\n"
              "  name: fallback\n"
              "  enabled:\n    type: boolean\n"
              "  tags:\n    type: array\n"
              "  ratio:\n    type: number\n    default: 0.5\n"
              "  hidden:\n    type: string\n    secret: true\n"
              "    default: shh\n"
              "resources:\n"
              "  a:\n    type: test:Resource\n    properties:\n"
              "      count: ${count}\n      name: ${name}\n"
              "      enabled: ${enabled}\n      tag0: ${tags[0]}\n"
              "      ratio: ${ratio}\n      full: ${proj:count}\n"
              "      other: ${aws:region}\n      hidden: ${hidden}\n",
              "{\"proj:count\": \"7\", \"proj:enabled\": \"true\", "
              "\"proj:tags\": \"[\\\"x\\\", \\\"y\\\"]\", "
              "\"aws:region\": \"us-west-2\"}",
              0);
  CHECK(r.start_rc == 0);
  CHECK_OWNED_STR(props(&r, "a"),
                  "{count:7,enabled:true,full:7,hidden:secret(\"shh\"),"
                  "name:\"fallback\",other:\"us-west-2\",ratio:0.5,"
                  "tag0:\"x\"}");
  CHECK(mp_project_config_count(r.proj) == 6);
  const mp_project_config *c = mp_project_config_at(r.proj, 0);
  CHECK_STR(c->key, "count");
  CHECK_STR(c->type, "integer");
  CHECK(c->def && c->def->kind == MP_VALUE_NUMBER && c->def->u.number == 3);
  CHECK(mp_project_config_at(r.proj, 1)->type == NULL);
  CHECK(mp_project_config_at(r.proj, 5)->secret);
  run_free(&r);
}

static void test_yaml_config_errors(void) {
  struct {
    const char *yaml, *config, *msg;
  } cases[] = {
      {"config:\n  need:\n    type: string\n", NULL,
       "Pulumi.yaml:4:3: missing required configuration variable "
       "'proj:need'"},
      {"config:\n  n:\n    type: integer\n", "{\"proj:n\": \"abc\"}",
       "Pulumi.yaml:4:3: Stack 'dev' with configuration key 'n' must be of "
       "type 'integer'; 'abc' is not a decimal integer"},
      {"config:\n  n:\n    type: boolean\n", "{\"proj:n\": \"maybe\"}",
       "Stack 'dev' with configuration key 'n' must be of type 'boolean'; it "
       "is the string 'maybe'"},
      /* The value's kind and the key, not `not a valid string: '?'`. */
      {"config:\n  s:\n    type: string\n", "{\"proj:s\": {\"a\": 1}}",
       "Stack 'dev' with configuration key 's' must be of type 'string'; it "
       "is an object"},
      {"config:\n  s:\n    type: string\n", "{\"proj:s\": [1]}",
       "must be of type 'string'; it is an array"},
      /* Integers as Pulumi parses them (strconv.Atoi), carried exactly. */
      {"config:\n  n:\n    type: integer\n", "{\"proj:n\": \"1e3\"}",
       "must be of type 'integer'; '1e3' is not a decimal integer"},
      {"config:\n  n:\n    type: integer\n", "{\"proj:n\": \"0x10\"}",
       "'0x10' is not a decimal integer"},
      {"config:\n  n:\n    type: integer\n", "{\"proj:n\": \" 12\"}",
       "' 12' is not a decimal integer"},
      {"config:\n  n:\n    type: integer\n", "{\"proj:n\": \"3.0\"}",
       "'3.0' is not a decimal integer"},
      {"config:\n  n:\n    type: integer\n",
       "{\"proj:n\": \"99999999999999999999999\"}",
       "'99999999999999999999999' is out of the range of 64-bit integers"},
      {"config:\n  n:\n    type: integer\n",
       "{\"proj:n\": \"9007199254740993\"}",
       "'9007199254740993' is beyond 2^53"},
      {"config:\n  x:\n    type: number\n", "{\"proj:x\": \"0x10\"}",
       "must be of type 'number'; '0x10' is not a decimal number"},
      {"config:\n  x:\n    type: number\n", "{\"proj:x\": \"inf\"}",
       "'inf' is not a decimal number"},
      /* A secret's text is never quoted. */
      {"config:\n  n:\n    type: integer\n",
       "{\"proj:n\": {\"4dabf18193072939515e22adb298388d\": "
       "\"1b47061264138c4ac30d75fd1eb44270\", \"plaintext\": "
       "\"\\\"hush-1e3\\\"\"}}",
       "must be of type 'integer'; it is a secret string"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    char *yaml =
        mp_xasprintf("name: proj\nruntime: yaml\n%s", cases[i].yaml);
    run r;
    run_program(&r, yaml, cases[i].config, 0);
    CHECK(r.start_rc == MP_EINVAL);
    CHECK_CONTAINS(r.err.msg, cases[i].msg);
    CHECK(r.m.nregs == 0);
    run_free(&r);
    free(yaml);
  }
  /* Declaration errors are found when the host is made, before the
   * program starts. */
  const char *bad[][2] = {
      {"config:\n  n:\n    type: integer\n    default: abc\n",
       "Pulumi.yaml:4:3: type mismatch: default value of type string but "
       "type integer was specified"},
      {"config:\n  n:\n    type: float\n",
       "Pulumi.yaml:5:11: unexpected configuration type 'float'"},
      {"config:\n  n:\n    secret: true\n",
       "Pulumi.yaml:4:3: unable to infer type"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(bad); i++) {
    char *yaml = mp_xasprintf("name: proj\nruntime: yaml\n%s", bad[i][0]);
    run r;
    run_program(&r, yaml, NULL, 0);
    CHECK(r.load_rc == MP_EINVAL);
    CHECK_CONTAINS(r.err.msg, bad[i][1]);
    run_free(&r);
    free(yaml);
  }
}

/* ---- errors ---- */

static void test_yaml_static_errors(void) {
  const char *cases[][2] = {
      {"resources:\n  b:\n    type: test:Resource\n    properties:\n"
       "      x: ${nope.id}\n",
       "Pulumi.yaml:7:10: resource 'b' refers to unknown resource 'nope'"},
      {"resources:\n  a:\n    type: test:Resource\n    properties:\n"
       "      x: ${b.v}\n  b:\n    type: test:Resource\n"
       "    properties:\n      x: ${a.v}\n",
       "dependency cycle: "},
      {"variables:\n  v: ${v}\n", "'v' is part of a dependency cycle: v -> v"},
      {"resources:\n  a:\n    type: random:Nope\n",
       "Pulumi.yaml:5:11: resource 'a': unknown resource type 'random:Nope'"},
      {"resources:\n  a:\n    type: test:Resource\n    options:\n"
       "      protekt: true\n",
       "Pulumi.yaml:7:7: the options of resource 'a' has unknown field "
       "'protekt'"},
      {"resources:\n  a:\n    type: test:Resource\n    options:\n"
       "      protect: maybe\n",
       "Pulumi.yaml:7:16: option 'protect' of resource 'a' must be a "
       "boolean"},
      {"resources:\n  a:\n    type: test:Resource\n    options:\n"
       "      parent: notaref\n",
       "Pulumi.yaml:7:15: option 'parent' of resource 'a' must be a "
       "resource reference"},
      {"resources:\n  a:\n    type: test:Resource\n    options:\n"
       "      dependsOn: [\"${zz}\"]\n",
       "refers to unknown resource 'zz'"},
      {"resources:\n  a:\n    type: test:Resource\n  b:\n"
       "    type: test:Resource\n    options:\n      provider: ${a}\n",
       "Pulumi.yaml:9:17: option 'provider' of resource 'b': 'a' is not a "
       "provider resource"},
      {"resources:\n  a:\n    type: test:Resource\n    colour: red\n",
       "Pulumi.yaml:6:5: resource 'a' has unknown field 'colour'"},
      {"resources:\n  a:\n    properties: {}\n",
       "Pulumi.yaml:5:5: resource 'a' needs a 'type' string"},
      {"outputs:\n  o:\n    fn::frobnicate: 1\n",
       "Pulumi.yaml:5:5: unknown function 'fn::frobnicate'"},
      {"outputs:\n  o: ${a.b[x]}\n", "Pulumi.yaml:4:6: invalid reference"},
      /* Not silently the largest index (18446744073709551615). */
      {"variables:\n  l: [1]\noutputs:\n  o: ${l[18446744073709551616]}\n",
       "Pulumi.yaml:6:6: invalid reference '${l[18446744073709551616]}': the "
       "index 18446744073709551616 is out of range"},
      {"outputs:\n  o: x-${open\n", "unterminated '${'"},
      {"outputs:\n  o: ${pulumi.nothing}\n",
       "unknown property of 'pulumi'"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    char *yaml = mp_xasprintf("name: proj\nruntime: yaml\n%s", cases[i][0]);
    run r;
    run_program(&r, yaml, NULL, 0);
    CHECK(r.load_rc == 0);
    CHECK(r.start_rc == MP_EINVAL);
    CHECK_CONTAINS(r.err.msg, cases[i][1]);
    CHECK(r.m.nregs == 0 && r.m.done_calls == 0);
    run_free(&r);
    free(yaml);
  }
}

static void test_yaml_syntax_errors(void) {
  run r;
  run_program(&r, "name: proj\nruntime: yaml\nresources:\n  a: [1, 2\n",
              NULL, 0);
  CHECK(r.load_rc == MP_EINVAL);
  CHECK_CONTAINS(r.err.msg, "Pulumi.yaml:5:1: invalid YAML");
  run_free(&r);
  run_program(&r, "name: proj\nruntime: yaml\nname: again\n", NULL, 0);
  CHECK(r.load_rc == MP_EINVAL);
  CHECK_CONTAINS(r.err.msg, "Pulumi.yaml:3:1: duplicate key 'name'");
  run_free(&r);
  run_program(&r, "runtime: yaml\n", NULL, 0);
  CHECK(r.load_rc == MP_EINVAL);
  CHECK_CONTAINS(r.err.msg, "Pulumi.yaml' has no project name");
  run_free(&r);
}

static void test_yaml_registration_failure(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nresources:\n"
             "  a:\n    type: test:Resource\n"
             "  b:\n    type: test:Resource\n"
             "  c:\n    type: test:Resource\n    properties:\n"
             "      v: ${a.id}\n");
  run_program_in(&r, NULL, 0, "a");
  CHECK(r.start_rc == 0);
  CHECK(r.m.done_calls == 1 && r.m.done_failed);
  CHECK_CONTAINS(r.m.done_msg,
                 "Pulumi.yaml:4:3: resource 'a': create of 'a' failed");
  /* b was already in flight and is waited for; c is never registered. */
  CHECK(fake_monitor_event(&r.m, "ans:b") >= 0);
  CHECK(fake_monitor_reg(&r.m, "c") == NULL);
  CHECK(fake_monitor_event(&r.m, "done") > fake_monitor_event(&r.m, "ans:b"));
  CHECK(r.m.outputs_calls == 0);
  run_free(&r);
}

static void test_yaml_cancel(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nresources:\n"
             "  a:\n    type: test:Resource\n");
  uv_loop_init(&r.loop);
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  CHECK(mp_project_load(r.dir, &r.proj, &r.err) == 0);
  CHECK(mp_yaml_source_new(r.proj, &r.src, &r.err) == 0);
  mp_source_info info = {.loop = &r.loop, .project = "proj", .stack = "dev",
                         .root_dir = r.dir};
  CHECK(r.src->vt->start(r.src, &r.m, &info, &r.err) == 0);
  r.src->vt->cancel(r.src);
  CHECK(r.m.done_calls == 0); /* the stack registration is in flight */
  uv_run(&r.loop, UV_RUN_DEFAULT);
  CHECK(r.m.done_calls == 1 && r.m.done_failed);
  CHECK_STR(r.m.done_msg, "");
  CHECK(fake_monitor_reg(&r.m, "a") == NULL);
  run_free(&r);
}

/* A package's schema resolves its types: a component (isComponent) is
 * registered remote and not custom, under the schema's token, whichever
 * short form the program writes; the package's other types stay custom;
 * the schema is asked once, before the stack; a type the schema lacks
 * stops the program before anything is registered. */
static const char comp_schema[] =
    "{\"name\": \"comp\", \"resources\": {"
    "\"comp:index:Thing\": {\"isComponent\": true},"
    "\"comp:store/bucket:Bucket\": {}}}";

static void schema_run(run *r, const char *yaml, const char *schema) {
  memset(r, 0, sizeof(*r));
  strcpy(r->dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r->dir) != NULL);
  write_file(r->dir, "Pulumi.yaml", yaml);
  uv_loop_init(&r->loop);
  fake_monitor_init(&r->m, &r->loop, "proj", "dev");
  r->m.schema_pkg = "comp";
  r->m.schema_json = schema;
  CHECK(mp_project_load(r->dir, &r->proj, &r->err) == 0);
  CHECK(mp_yaml_source_new(r->proj, &r->src, &r->err) == 0);
  mp_source_info info = {.loop = &r->loop, .project = "proj", .stack = "dev",
                         .root_dir = r->dir};
  r->start_rc = r->src->vt->start(r->src, &r->m, &info, &r->err);
  if (r->start_rc == 0) uv_run(&r->loop, UV_RUN_DEFAULT);
}

static void test_yaml_component_schema(void) {
  run r;
  schema_run(&r,
             "name: proj\nruntime: yaml\nresources:\n"
             "  thing:\n    type: comp:Thing\n"
             "    properties:\n      size: ${b.id}\n"
             "  b:\n    type: comp:store:bucket\n"
             "  t:\n    type: test:Resource\n"
             "    properties:\n      v: ${thing.size}\n",
             comp_schema);
  CHECK(r.start_rc == 0);
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  /* Asked once, first. */
  CHECK(fake_monitor_event(&r.m, "schema:comp") == 0);
  size_t asked = 0;
  for (size_t i = 0; i < r.m.events.len; i++)
    asked += strcmp(r.m.events.items[i], "schema:comp") == 0;
  CHECK(asked == 1);
  const Pulumirpc__RegisterResourceRequest *thing =
      fake_monitor_reg(&r.m, "thing");
  CHECK_STR(thing->type, "comp:index:Thing");
  CHECK(thing->remote && !thing->custom);
  CHECK_STR(prop_deps(thing, "size", 0), URN("comp:store/bucket:Bucket", "b"));
  const Pulumirpc__RegisterResourceRequest *b = fake_monitor_reg(&r.m, "b");
  CHECK_STR(b->type, "comp:store/bucket:Bucket");
  CHECK(b->custom && !b->remote);
  CHECK(fake_monitor_reg(&r.m, "t")->custom);
  run_free(&r);

  schema_run(&r,
             "name: proj\nruntime: yaml\nresources:\n"
             "  a:\n    type: test:Resource\n"
             "  nope:\n    type: comp:index:Nope\n",
             comp_schema);
  CHECK(r.start_rc == 0);
  CHECK(r.m.done_calls == 1 && r.m.done_failed);
  CHECK_STR(r.m.done_msg,
            "Pulumi.yaml:7:11: error resolving type of resource nope: "
            "unable to find resource type \"comp:index:Nope\" in resource "
            "provider \"comp\"");
  CHECK(r.m.nregs == 0);
  run_free(&r);

  /* A schema without resources (the SDK's "{}"): as written, custom. */
  schema_run(&r,
             "name: proj\nruntime: yaml\nresources:\n"
             "  nope:\n    type: comp:Nope\n",
             "{}");
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  CHECK_STR(fake_monitor_reg(&r.m, "nope")->type, "comp:index:Nope");
  CHECK(fake_monitor_reg(&r.m, "nope")->custom);
  run_free(&r);

  /* The schema's constant properties are sent, over the program's own. */
  schema_run(&r,
             "name: proj\nruntime: yaml\nresources:\n"
             "  c:\n    type: comp:Const\n"
             "    properties:\n      kind: Other\n      extra: 1\n",
             "{\"name\": \"comp\", \"resources\": {\"comp:index:Const\": "
             "{\"properties\": {\"kind\": {\"type\": \"string\", \"const\": "
             "\"Constant\"}, \"count\": {\"const\": 3}, \"plain\": {}}}}}");
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  CHECK_OWNED_STR(props(&r, "c"), "{count:3,extra:1,kind:\"Constant\"}");
  run_free(&r);
}

/* A parameterized package's declaration: the package is registered
 * (RegisterPackage with the parameterization) before the stack, and its
 * resources and functions name the reference, but not a resource that
 * names a plugin version of its own (pulumi-yaml run.go). */
static void test_yaml_parameterized_package(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nresources:\n"
             "  hello:\n    type: subpackage:index:Hello\n"
             "  pinned:\n    type: subpackage:index:Hello\n"
             "    options:\n      version: 3.0.0\n"
             "  prov:\n    type: pulumi:providers:subpackage\n"
             "  plain:\n    type: test:Resource\n"
             "outputs:\n"
             "  o:\n    fn::invoke:\n      function: subpackage:index:doIt\n"
             "      arguments:\n        input: x\n");
  char sdks[128];
  snprintf(sdks, sizeof(sdks), "%s/sdks", r.dir);
  CHECK(mkdir(sdks, 0700) == 0);
  write_file(sdks, "subpackage.yaml",
             "packageDeclarationVersion: 1\nname: parameterized\n"
             "version: 1.2.3\nparameterization:\n  name: subpackage\n"
             "  version: 2.0.0\n  value: SGVsbG9Xb3JsZA==\n");
  run_program_in(&r, NULL, 0, NULL);
  CHECK(r.start_rc == 0);
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  CHECK(fake_monitor_event(&r.m, "pkg:subpackage") == 0);
  CHECK_STR(fake_monitor_reg(&r.m, "hello")->packageref, "ref-subpackage");
  CHECK_STR(fake_monitor_reg(&r.m, "hello")->version, "");
  CHECK_STR(fake_monitor_reg(&r.m, "pinned")->packageref, "");
  CHECK_STR(fake_monitor_reg(&r.m, "pinned")->version, "3.0.0");
  CHECK_STR(fake_monitor_reg(&r.m, "prov")->packageref, "ref-subpackage");
  CHECK_STR(fake_monitor_reg(&r.m, "plain")->packageref, "");
  CHECK(r.m.ninvokes == 1);
  CHECK_STR(r.m.invokes[0]->packageref, "ref-subpackage");
  run_free(&r);
}

/* An extension declaration (`extension:`) is registered as RegisterPackage's
 * `extension`; a type or function of the namespace it shares with its base
 * package goes, with the extension's reference, to the extension whose
 * schema has it, and otherwise to the base package without one (Pulumi
 * YAML's loadPackages and distinctName). */
static void test_yaml_extension_package(void) {
  run r;
  memset(&r, 0, sizeof(r));
  strcpy(r.dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r.dir) != NULL);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nresources:\n"
             "  greeting:\n    type: extbase:Greeting\n"
             "  base:\n    type: extbase:Base\n"
             "outputs:\n"
             "  o:\n    fn::invoke:\n      function: extbase:greet\n"
             "      arguments:\n        name: x\n");
  char sdks[128];
  snprintf(sdks, sizeof(sdks), "%s/sdks", r.dir);
  CHECK(mkdir(sdks, 0700) == 0);
  write_file(sdks, "extbase.yaml",
             "packageDeclarationVersion: 1\nname: extbase\nversion: 45.0.0\n");
  write_file(sdks, "myext.yaml",
             "packageDeclarationVersion: 1\nname: extbase\nversion: 45.0.0\n"
             "extension:\n  name: myext\n  version: 2.0.0\n"
             "  value: SGVsbG8=\n");
  uv_loop_init(&r.loop);
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  r.m.schema_pkg = "extbase";
  r.m.schema_json =
      "{\"name\":\"extbase\",\"resources\":{\"extbase:index:Base\":{}}}";
  r.m.ext_schema_json =
      "{\"name\":\"myext\",\"resources\":{\"extbase:index:Greeting\":{}},"
      "\"functions\":{\"extbase:index:greet\":{}}}";
  CHECK(mp_project_load(r.dir, &r.proj, &r.err) == 0);
  CHECK(mp_yaml_source_new(r.proj, &r.src, &r.err) == 0);
  mp_source_info info = {.loop = &r.loop, .project = "proj", .stack = "dev",
                         .root_dir = r.dir};
  r.start_rc = r.src->vt->start(r.src, &r.m, &info, &r.err);
  if (r.start_rc == 0) uv_run(&r.loop, UV_RUN_DEFAULT);
  CHECK(r.start_rc == 0);
  CHECK(r.m.done_calls == 1 && !r.m.done_failed);
  CHECK(fake_monitor_event(&r.m, "ext:myext") >= 0);
  CHECK(fake_monitor_event(&r.m, "schema:ref-myext") >= 0);
  CHECK(fake_monitor_event(&r.m, "schema:extbase") >= 0);
  const Pulumirpc__RegisterResourceRequest *g = fake_monitor_reg(&r.m, "greeting");
  const Pulumirpc__RegisterResourceRequest *b = fake_monitor_reg(&r.m, "base");
  CHECK(g && b);
  if (g && b) {
    CHECK_STR(g->type, "extbase:index:Greeting");
    CHECK_STR(g->packageref, "ref-myext");
    CHECK_STR(b->type, "extbase:index:Base");
    CHECK_STR(b->packageref, "");
    CHECK_STR(b->version, "45.0.0");
  }
  CHECK(r.m.ninvokes == 1);
  if (r.m.ninvokes == 1) {
    CHECK_STR(r.m.invokes[0]->tok, "extbase:index:greet");
    CHECK_STR(r.m.invokes[0]->packageref, "ref-myext");
  }
  run_free(&r);
}

/* ---- projects ---- */

static void test_yaml_project_fields_and_main(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime:\n  name: yaml\n"
             "description: a test\n");
  write_file(r.dir, "Main.yaml",
             "resources:\n  m:\n    type: test:Resource\n"
             "    properties:\n      x: ${nope}\n");
  run_program_in(&r, NULL, 0, NULL);
  CHECK_STR(mp_project_name(r.proj), "proj");
  CHECK_STR(mp_project_runtime(r.proj), "yaml");
  CHECK_STR(mp_project_description(r.proj), "a test");
  CHECK(r.start_rc == MP_EINVAL);
  CHECK_CONTAINS(r.err.msg, "Main.yaml:5:10: resource 'm' refers to "
                            "unknown resource 'nope'");
  run_free(&r);

  memset(&r, 0, sizeof(r));
  strcpy(r.dir, "/tmp/mp_yaml_XXXXXX");
  CHECK(mkdtemp(r.dir) != NULL);
  write_file(r.dir, "Pulumi.yml", "name: n\nruntime: nodejs\nmain: x.js\n");
  mp_err err;
  CHECK(mp_project_load(r.dir, &r.proj, &err) == 0);
  CHECK_STR(mp_project_runtime(r.proj), "nodejs");
  CHECK_STR(mp_project_main(r.proj), "x.js");
  CHECK(mp_yaml_source_new(r.proj, &r.src, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "not yaml");
  uv_loop_init(&r.loop);
  fake_monitor_init(&r.m, &r.loop, "n", "dev");
  run_free(&r);

  char empty[] = "/tmp/mp_yaml_XXXXXX";
  CHECK(mkdtemp(empty) != NULL);
  mp_project *p = NULL;
  CHECK(mp_project_load(empty, &p, &err) == MP_ENOENT);
  CHECK_CONTAINS(err.msg, "no Pulumi.yaml project file found");
  rmdir(empty);
}

static void test_yaml_get_reads(void) {
  run r;
  run_program(&r,
              "name: proj\nruntime: yaml\nresources:\n"
              "  ext:\n    type: test:Resource\n"
              "    get:\n      id: existing-1\n"
              "      state:\n        k: v\n"
              "  user:\n    type: test:Resource\n    properties:\n"
              "      from: ${ext.k}\n      eid: ${ext.id}\n",
              NULL, 0);
  CHECK(r.start_rc == 0);
  CHECK(r.m.nreads == 1);
  CHECK_STR(r.m.reads[0]->id, "existing-1");
  CHECK_STR(r.m.reads[0]->type, "test:index:Resource");
  CHECK_STR(r.m.reads[0]->parent, STACK_URN);
  CHECK(r.m.reads[0]->acceptsecrets);
  CHECK(fake_monitor_reg(&r.m, "ext") == NULL);
  CHECK_OWNED_STR(props(&r, "user"), "{eid:\"existing-1\",from:\"v\"}");
  run_free(&r);
}

/* The examples load, pass the static checks and register their resources
 * (paths are relative to the build directory, where meson runs tests). */
static void test_yaml_examples(void) {
  struct {
    const char *dir;
    size_t nregs;
    const char *reg;
  } ex[] = {{"random-file", 4, "file"},
            {"command", 3, "upper"},
            {"dbr-protect", 3, "keeper"}};
  char base[512];
  snprintf(base, sizeof(base), "%s", __FILE__);
  char *slash = strrchr(base, '/');
  if (slash)
    *slash = '\0';
  for (size_t i = 0; i < MP_ARRAY_LEN(ex); i++) {
    run r;
    memset(&r, 0, sizeof(r));
    char dir[600];
    snprintf(dir, sizeof(dir), "%s/../../examples/%s", base, ex[i].dir);
    uv_loop_init(&r.loop);
    fake_monitor_init(&r.m, &r.loop, ex[i].dir, "dev");
    CHECK(mp_project_load(dir, &r.proj, &r.err) == 0);
    if (r.proj == NULL) {
      fprintf(stderr, "  %s\n", r.err.msg);
      run_free(&r);
      continue;
    }
    CHECK(mp_yaml_source_new(r.proj, &r.src, &r.err) == 0);
    mp_source_info info = {.loop = &r.loop, .project = ex[i].dir,
                           .stack = "dev", .root_dir = dir};
    CHECK(r.src->vt->start(r.src, &r.m, &info, &r.err) == 0);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    CHECK(r.m.nregs == ex[i].nregs);
    CHECK(fake_monitor_reg(&r.m, ex[i].reg) != NULL);
    CHECK(r.m.done_calls == 1 && !r.m.done_failed);
    strcpy(r.dir, "/nonexistent-mp-yaml-example");
    run_free(&r);
  }
}

/* Pulumi.yaml is read once: the project's fields and the program come
 * from the same load, whatever happens to the file afterwards. */
static void test_yaml_project_read_once(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\nconfig:\n  size: 0755\n"
             "  aws:region: {value: x}\n"
             "resources:\n  a:\n    type: test:Resource\n");
  mp_err err;
  CHECK(mp_project_load(r.dir, &r.proj, &err) == 0);
  /* Defaults keep the spelling of their scalars. */
  const mp_value *d = mp_project_defaults(r.proj);
  const mp_value *size = mp_value_object_get(d, "proj:size");
  CHECK(size && size->kind == MP_VALUE_STRING &&
        strcmp(size->u.str.ptr, "0755") == 0);
  CHECK(mp_value_object_get(d, "aws:region") != NULL);
  /* The program is the document loaded above, not the file as it is now
   * (which is not even YAML). */
  write_file(r.dir, "Pulumi.yaml", "not: [the same");
  CHECK(mp_yaml_source_new(r.proj, &r.src, &err) == 0);
  uv_loop_init(&r.loop);
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  mp_source_info info = {.loop = &r.loop, .project = "proj", .stack = "dev",
                         .root_dir = r.dir};
  CHECK(r.src->vt->start(r.src, &r.m, &info, &err) == 0);
  uv_run(&r.loop, UV_RUN_DEFAULT);
  CHECK(fake_monitor_reg(&r.m, "a") != NULL);
  run_free(&r);
}

/* The walk for package declarations meets the project file too and reads
 * the document already loaded instead of parsing the file again (which
 * doubled the parse of a large Pulumi.yaml program): the file rewritten
 * in place after the load declares no package, and a project file that
 * is itself a declaration still counts. */
static void test_yaml_package_walk_reuses_project(void) {
  run r;
  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\n"
             "resources:\n  a:\n    type: test:Resource\n");
  mp_err err;
  CHECK(mp_project_load(r.dir, &r.proj, &err) == 0);
  write_file(r.dir, "Pulumi.yaml",
             "packageDeclarationVersion: 1\nname: sneaky\nversion: 1.0.0\n");
  CHECK(mp_yaml_source_new(r.proj, &r.src, &err) == 0);
  uv_loop_init(&r.loop); /* for run_free */
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  CHECK(mp_project_package_count(r.proj) == 0);
  run_free(&r);

  run_init(&r);
  write_file(r.dir, "Pulumi.yaml",
             "name: proj\nruntime: yaml\npackageDeclarationVersion: 1\n"
             "version: 2.0.0\nresources:\n  a:\n    type: test:Resource\n");
  CHECK(mp_project_load(r.dir, &r.proj, &err) == 0);
  CHECK(mp_yaml_source_new(r.proj, &r.src, &err) == 0);
  uv_loop_init(&r.loop); /* for run_free */
  fake_monitor_init(&r.m, &r.loop, "proj", "dev");
  CHECK(mp_project_package_count(r.proj) == 1);
  const mp_project_package *k = mp_project_package_at(r.proj, 0);
  CHECK(k && strcmp(k->name, "proj") == 0 && k->version &&
        strcmp(k->version, "2.0.0") == 0);
  run_free(&r);
}

/* The CLI's glance at Pulumi.yaml: `name:` among the first keys, and
 * nothing when it is further than the glance goes or absent. */
static void test_yaml_peek_name(void) {
  char dir[64] = "/tmp/mp_yaml_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  CHECK(mp_project_peek_name(dir) == NULL); /* no project file */
  write_file(dir, "Pulumi.yaml",
             "description: {a: [1, {b: c}], name: inner}\n"
             "name: 'proj'\nruntime: yaml\n");
  char *name = mp_project_peek_name(dir);
  CHECK(name && strcmp(name, "proj") == 0); /* not the nested `name` */
  free(name);
  /* `name:` after a long section: the glance stops before it. */
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "runtime: yaml\nresources:\n");
  for (int i = 0; i < 100; i++)
    mp_buf_printf(&b, "  r%d:\n    type: test:Resource\n", i);
  mp_buf_puts(&b, "name: late\n");
  write_file(dir, "Pulumi.yaml", b.data);
  mp_buf_destroy(&b);
  CHECK(mp_project_peek_name(dir) == NULL);
  write_file(dir, "Pulumi.yaml", "- not\n- a mapping\n");
  CHECK(mp_project_peek_name(dir) == NULL);
  char path[128];
  snprintf(path, sizeof(path), "%s/Pulumi.yaml", dir);
  unlink(path);
  write_file(dir, "Pulumi.yml", "name: yml\n");
  name = mp_project_peek_name(dir);
  CHECK(name && strcmp(name, "yml") == 0);
  free(name);
  snprintf(path, sizeof(path), "rm -rf %s", dir);
  CHECK(system(path) == 0);
}

/* A source marked as the program's last run frees the project's program
 * once analysed: the run is the same, and another run says why it cannot
 * start. */
static void test_yaml_last_use(void) {
  run r;
  run_program_with(&r,
                   "name: proj\nruntime: yaml\nresources:\n"
                   "  a:\n    type: test:Resource\n    properties: {v: 1}\n"
                   "  b:\n    type: test:Resource\n"
                   "    properties:\n      v: ${a.v}\n",
                   NULL, 0, RUN_LAST_USE);
  CHECK(r.load_rc == 0 && r.start_rc == 0);
  CHECK(fake_monitor_reg(&r.m, "a") != NULL);
  CHECK(fake_monitor_reg(&r.m, "b") != NULL);
  mp_err err;
  mp_source *again = NULL;
  CHECK(mp_yaml_source_new(r.proj, &again, &err) == MP_EINVAL);
  CHECK(strstr(err.msg, "already run and released") != NULL);
  CHECK(again == NULL);
  run_free(&r);
}

/* The one YAML wrapper: typed and string readings, and writing back. */
static void test_yaml_ynode_values_and_emit(void) {
  const char *text = "a: 0755\nb: 'x'\nc: ~\nd: [true, 1.5]\ne: {f: no}\n";
  mp_ynode *n = NULL;
  mp_err err;
  CHECK(mp_ynode_parse("t.yaml", text, strlen(text), &n, &err) == 0);
  mp_value *typed = mp_ynode_value(n, MP_YNODE_TYPED);
  mp_value *strings = mp_ynode_value(n, 0);
  mp_ynode_free(n);
  mp_buf b;
  mp_buf_init(&b);
  mp_value_to_json(typed, NULL, 0, &b, NULL);
  CHECK_STR(b.data, "{\"a\":755,\"b\":\"x\",\"c\":null,"
                    "\"d\":[true,1.5],\"e\":{\"f\":\"no\"}}");
  mp_buf_destroy(&b);
  mp_buf_init(&b);
  const char *first[] = {"e"};
  CHECK(mp_ynode_emit(strings, first, 1, 0, &b, &err) == 0);
  CHECK_STR(b.data, "e:\n  f: \"no\"\na: \"0755\"\nb: x\nc: null\n"
                    "d:\n- \"true\"\n- \"1.5\"\n");
  /* What is written reads back as the same strings. */
  CHECK(mp_ynode_parse("t.yaml", b.data, b.len, &n, &err) == 0);
  mp_value *again = mp_ynode_value(n, 0);
  CHECK(mp_value_equal(strings, again, 0));
  mp_value_free(again);
  mp_ynode_free(n);
  mp_buf_destroy(&b);
  mp_value_free(typed);
  mp_value_free(strings);
  CHECK(mp_ynode_load("/nonexistent/x.yaml", "x.yaml", &n, &err) ==
        MP_ENOENT);
}

int main(void) {
  RUN(test_yaml_project_read_once);
  RUN(test_yaml_package_walk_reuses_project);
  RUN(test_yaml_ynode_values_and_emit);
  RUN(test_yaml_peek_name);
  RUN(test_yaml_last_use);
  RUN(test_yaml_stack_first_and_concurrent);
  RUN(test_yaml_invoke_depends_on);
  RUN(test_yaml_dependencies);
  RUN(test_yaml_options);
  RUN(test_yaml_default_provider);
  RUN(test_yaml_type_resolution);
  RUN(test_yaml_interpolation);
  RUN(test_yaml_functions);
  RUN(test_yaml_more_functions);
  RUN(test_yaml_subnormal_number);
  RUN(test_yaml_config_name);
  RUN(test_yaml_function_errors);
  RUN(test_yaml_secrets);
  RUN(test_yaml_preview_unknowns);
  RUN(test_yaml_unknown_outputs_flag);
  RUN(test_yaml_config);
  RUN(test_yaml_config_errors);
  RUN(test_yaml_static_errors);
  RUN(test_yaml_syntax_errors);
  RUN(test_yaml_registration_failure);
  RUN(test_yaml_cancel);
  RUN(test_yaml_component_schema);
  RUN(test_yaml_parameterized_package);
  RUN(test_yaml_extension_package);
  RUN(test_yaml_project_fields_and_main);
  RUN(test_yaml_get_reads);
  RUN(test_yaml_examples);
  return mp_test_summary();
}
