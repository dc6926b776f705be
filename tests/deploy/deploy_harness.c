#include "deploy_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/snapshot.h"
#include "monitor/api.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "providers/builtin.h"

typedef struct tsrc {
  mp_source base;
  const treg *regs;
  size_t n, next, answered;
  mp_monitor *m;
  int concurrent;
  int stopped;
  int done_sent;
  const char *fail_after;
  char **urns; /* per registration */
  char **ids;
} tsrc;

static long find_reg(tsrc *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->regs[i].name, name) == 0) return (long)i;
  return -1;
}

static const char *urn_of(tsrc *s, const char *name) {
  long i = find_reg(s, name);
  return i >= 0 ? s->urns[i] : NULL;
}

static void finish(tsrc *s, int failed, const char *msg) {
  if (s->done_sent) return;
  s->done_sent = 1;
  mp_monitor_program_done(s->m, failed, msg);
}

static void send_next(tsrc *s);

typedef struct cbctx {
  tsrc *s;
  size_t i;
} cbctx;

static void after(tsrc *s, size_t i) {
  s->answered++;
  const treg *r = &s->regs[i];
  if (r->outputs && s->urns[i]) {
    Pulumirpc__RegisterResourceOutputsRequest q =
        PULUMIRPC__REGISTER_RESOURCE_OUTPUTS_REQUEST__INIT;
    mp_value *v = NULL;
    mp_value_from_json(r->outputs, strlen(r->outputs), NULL, &v, NULL);
    q.urn = s->urns[i];
    mp_value_to_pb_struct(v, MP_PB_KEEP_SECRETS, &q.outputs, NULL);
    mp_monitor_register_outputs(s->m, &q, NULL);
    mp_value_pb_struct_free(q.outputs);
    mp_value_free(v);
  }
  if (s->fail_after && strcmp(r->name, s->fail_after) == 0) {
    s->stopped = 1;
    finish(s, 1, "program error");
    return;
  }
  if (s->concurrent) {
    if (s->answered == s->n) finish(s, 0, NULL);
  } else {
    send_next(s);
  }
}

static void on_reg(void *ud, const Pulumirpc__RegisterResourceResponse *resp,
                   const mp_err *err) {
  cbctx *c = ud;
  tsrc *s = c->s;
  size_t i = c->i;
  free(c);
  if (resp && resp->result != PULUMIRPC__RESULT__SUCCESS) {
    /* continue-on-error: this resource failed or was skipped; the program
     * goes on with the rest, and its dependents name its URN. */
    const treg *r = &s->regs[i];
    s->urns[i] = mp_xasprintf("urn:pulumi:test::test::%s::%s",
                              r->type ? r->type : T_TYPE, r->name);
    after(s, i);
    return;
  }
  if (resp == NULL) {
    s->answered++;
    if (err && err->code == MP_ECANCELED) s->stopped = 1;
    if (!s->concurrent || s->answered == s->n)
      finish(s, 1, err && err->code != MP_ECANCELED ? err->msg : "");
    if (!s->concurrent) s->stopped = 1;
    return;
  }
  s->urns[i] = mp_xstrdup(resp->urn);
  s->ids[i] = mp_xstrdup(resp->id);
  after(s, i);
}

static void on_read(void *ud, const Pulumirpc__ReadResourceResponse *resp,
                    const mp_err *err) {
  cbctx *c = ud;
  tsrc *s = c->s;
  size_t i = c->i;
  free(c);
  if (resp == NULL) {
    s->stopped = 1;
    finish(s, 1, err ? err->msg : "read failed");
    return;
  }
  s->urns[i] = mp_xstrdup(resp->urn);
  after(s, i);
}

static char *ref_of(tsrc *s, const char *name) {
  long i = find_reg(s, name);
  if (i < 0 || !s->urns[i]) return NULL;
  return mp_provider_ref_format(s->urns[i], s->ids[i]);
}

static int send_one(tsrc *s, size_t i, mp_err *err) {
  const treg *r = &s->regs[i];
  mp_value *in = NULL;
  const char *json = r->inputs ? r->inputs : "{}";
  if (mp_value_from_json(json, strlen(json), NULL, &in, err) < 0) return -1;
  Google__Protobuf__Struct *obj = NULL;
  mp_value_to_pb_struct(in, MP_PB_KEEP_SECRETS, &obj, NULL);
  const char *deps[6];
  size_t nd = 0;
  for (size_t k = 0; k < 6 && r->deps[k]; k++) deps[nd++] = urn_of(s, r->deps[k]);
  cbctx *c = mp_xcalloc(1, sizeof(*c));
  c->s = s;
  c->i = i;
  char *prov = r->provider ? ref_of(s, r->provider) : NULL;
  int rc;
  if (r->read_id) {
    Pulumirpc__ReadResourceRequest q = PULUMIRPC__READ_RESOURCE_REQUEST__INIT;
    q.type = (char *)(r->type ? r->type : T_TYPE);
    q.name = (char *)r->name;
    q.id = (char *)r->read_id;
    q.properties = obj;
    q.acceptsecrets = 1;
    q.provider = prov ? prov : "";
    rc = mp_monitor_read_resource(s->m, &q, on_read, c, err);
  } else {
    Pulumirpc__RegisterResourceRequest q =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
    q.type = (char *)(r->type ? r->type : T_TYPE);
    q.name = (char *)r->name;
    q.custom = !r->component;
    q.object = obj;
    q.acceptsecrets = 1;
    q.parent = (char *)(r->parent ? urn_of(s, r->parent) : "");
    q.provider = prov ? prov : "";
    q.n_dependencies = nd;
    q.dependencies = (char **)deps;
    Pulumirpc__RegisterResourceRequest__PropertyDependencies pd =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES__INIT;
    pd.n_urns = nd;
    pd.urns = (char **)deps;
    Pulumirpc__RegisterResourceRequest__PropertyDependencies nodeps =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES__INIT;
    Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry ents[16];
    Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *pents[16];
    if (r->prop_deps && in) {
      /* The scripting keys (`__*`) never come from another resource. */
      size_t np = 0;
      for (size_t k = 0; k < in->u.obj.len && np < 16; k++) {
        int script = strncmp(in->u.obj.items[k].key, "__", 2) == 0;
        pulumirpc__register_resource_request__property_dependencies_entry__init(&ents[np]);
        ents[np].key = in->u.obj.items[k].key;
        ents[np].value = script ? &nodeps : &pd;
        pents[np] = &ents[np];
        np++;
      }
      q.n_propertydependencies = np;
      q.propertydependencies = pents;
    }
    if (r->protect) {
      q.protect_opt_case = PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
      q.protect = r->protect > 0;
    }
    if (r->dbr) {
      q.deletebeforereplacedefined = 1;
      q.deletebeforereplace = r->dbr > 0;
    }
    if (r->retain) {
      q.retain_on_delete_opt_case =
          PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE;
      q.retainondelete = 1;
    }
    q.deletedwith = (char *)(r->deleted_with ? urn_of(s, r->deleted_with) : "");
    q.importid = (char *)(r->import_id ? r->import_id : "");
    size_t ni = 0, nr = 0, na = 0;
    while (ni < 4 && r->ignore[ni]) ni++;
    while (nr < 4 && r->replace_on[nr]) nr++;
    q.n_ignorechanges = ni;
    q.ignorechanges = (char **)r->ignore;
    q.n_replaceonchanges = nr;
    q.replaceonchanges = (char **)r->replace_on;
    Pulumirpc__Alias al[3];
    Pulumirpc__Alias__Spec sp[3];
    Pulumirpc__Alias *pal[3];
    while (na < 3 && r->alias_names[na]) {
      pulumirpc__alias__init(&al[na]);
      pulumirpc__alias__spec__init(&sp[na]);
      sp[na].name = (char *)r->alias_names[na];
      al[na].alias_case = PULUMIRPC__ALIAS__ALIAS_SPEC;
      al[na].spec = &sp[na];
      pal[na] = &al[na];
      na++;
    }
    q.n_aliases = na;
    q.aliases = pal;
    rc = mp_monitor_register_resource(s->m, &q, on_reg, c, err);
  }
  free(prov);
  mp_value_pb_struct_free(obj);
  mp_value_free(in);
  if (rc < 0) free(c);
  return rc;
}

static void send_next(tsrc *s) {
  if (s->stopped) return;
  if (s->next >= s->n) {
    finish(s, 0, NULL);
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  if (send_one(s, s->next++, &err) < 0) {
    s->stopped = 1;
    finish(s, 1, err.msg);
  }
}

static int src_start(mp_source *b, mp_monitor *m, const mp_source_info *info,
                     mp_err *err) {
  (void)info;
  (void)err;
  tsrc *s = (tsrc *)b;
  s->m = m;
  if (s->n == 0) {
    finish(s, 0, NULL);
    return 0;
  }
  if (!s->concurrent) {
    send_next(s);
    return 0;
  }
  for (size_t i = 0; i < s->n; i++) {
    mp_err e;
    if (send_one(s, i, &e) < 0) {
      s->answered++;
      if (s->answered == s->n) finish(s, 1, e.msg);
    }
  }
  return 0;
}

static void src_cancel(mp_source *b) { ((tsrc *)b)->stopped = 1; }

static void src_free(mp_source *b) {
  tsrc *s = (tsrc *)b;
  for (size_t i = 0; i < s->n; i++) {
    free(s->urns[i]);
    free(s->ids[i]);
  }
  free(s->urns);
  free(s->ids);
  free(s);
}

static const mp_source_vtable tsrc_vt = {src_start, src_cancel, src_free, NULL,
                                         NULL};

/* ---- the environment ---- */

void tenv_init(tenv *e) {
  memset(e, 0, sizeof(*e));
  snprintf(e->dir, sizeof(e->dir), "/tmp/mp-deploy-XXXXXX");
  if (mkdtemp(e->dir) == NULL) abort();
  snprintf(e->world, sizeof(e->world), "%s/world", e->dir);
  snprintf(e->db, sizeof(e->db), "%s/state.db", e->dir);
  if (mkdir(e->world, 0755) < 0) abort();
  mp_err err;
  /* Every write checked when the suite asks, as the CLI does (tests/meson.build
   * sets MINIPULUMI_VERIFY_WRITES; the benchmarks do not). */
  const char *verify = getenv("MINIPULUMI_VERIFY_WRITES");
  mp_store_opts so = {.verify_writes = verify && *verify && strcmp(verify, "0")};
  if (mp_store_open_with(e->db, &so, &e->store, &err) < 0) {
    fprintf(stderr, "store: %s\n", err.msg);
    abort();
  }
  mp_stack_ref st = {"test", "test"};
  if (mp_store_stack_create(e->store, st, &err) < 0) {
    fprintf(stderr, "stack: %s\n", err.msg);
    abort();
  }
  mp_strv_init(&e->steps);
}

void tenv_destroy(tenv *e) {
  mp_store_close(e->store);
  mp_strv_destroy(&e->steps);
  mp_strv_destroy(&e->failed);
  mp_strv_destroy(&e->diags);
  char cmd[400];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", e->dir);
}

static char *step_text(const mp_event *ev) {
  size_t n = 0;
  const char *name = mp_urn_name(ev->meta.urn, &n);
  return mp_xasprintf("%s %.*s", mp_op_info_of(ev->meta.op)->name, (int)n,
                      name ? name : "?");
}

static void sink(void *ud, const mp_event *ev) {
  tenv *e = ud;
  if (ev->kind == MP_EVENT_RES_OUTPUTS) mp_strv_push_take(&e->steps, step_text(ev));
  else if (ev->kind == MP_EVENT_RES_OP_FAILED)
    mp_strv_push_take(&e->failed, step_text(ev));
  else if (ev->kind == MP_EVENT_DIAGNOSTIC)
    mp_strv_push_take(&e->diags, mp_xasprintf("%s: %s", ev->severity, ev->message));
}

void trun(tenv *e, const treg *regs, size_t n, const trun_opts *o) {
  static const trun_opts defaults = {0};
  if (o == NULL) o = &defaults;
  mp_strv_destroy(&e->steps);
  mp_strv_destroy(&e->failed);
  mp_strv_destroy(&e->diags);
  tsrc *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &tsrc_vt;
  s->regs = regs;
  s->n = n;
  s->concurrent = o->concurrent;
  s->fail_after = o->fail_after;
  s->urns = mp_xcalloc(n + 1, sizeof(char *));
  s->ids = mp_xcalloc(n + 1, sizeof(char *));
  mp_strv targets, replaces, excludes;
  mp_strv_init(&targets);
  mp_strv_init(&replaces);
  mp_strv_init(&excludes);
  for (int i = 0; i < 4 && o->excludes[i]; i++)
    mp_strv_push_take(&excludes, mp_xasprintf("urn:pulumi:test::test::%s", o->excludes[i]));
  mp_value *config = NULL;
  if (o->config) mp_value_from_json(o->config, strlen(o->config), NULL, &config, NULL);
  for (int i = 0; i < 4 && o->targets[i]; i++)
    mp_strv_push_take(&targets, mp_xasprintf("urn:pulumi:test::test::%s", o->targets[i]));
  for (int i = 0; i < 4 && o->replaces[i]; i++)
    mp_strv_push_take(&replaces, mp_xasprintf("urn:pulumi:test::test::%s", o->replaces[i]));
  mp_deploy_opts d = {0};
  d.kind = o->kind;
  d.dry_run = o->preview;
  d.store = e->store;
  d.stack.project = "test";
  d.stack.name = "test";
  d.source = o->kind == MP_DEPLOY_UPDATE ? &s->base : NULL;
  mp_builtin_opts bo = {.test_world = e->world};
  d.providers = mp_builtin_providers(&bo);
  d.parallel = o->parallel ? o->parallel : 1;
  d.steps.targets = &targets;
  d.steps.replaces = &replaces;
  d.steps.excludes = &excludes;
  d.steps.exclude_dependents = o->exclude_dependents;
  d.config = config;
  d.steps.target_dependents = o->target_dependents;
  d.continue_on_error = o->continue_on_error;
  d.serial_stepgen = o->serial_stepgen;
  d.sink = sink;
  d.sink_ud = e;
  mp_err err;
  mp_err_clear(&err);
  e->rc = mp_deploy_run(&d, &e->res, &err);
  if (e->rc < 0) fprintf(stderr, "deploy: %s\n", err.msg);
  src_free(&s->base);
  mp_strv_destroy(&targets);
  mp_strv_destroy(&replaces);
  mp_strv_destroy(&excludes);
  mp_value_free(config);
}

int steps_are(tenv *e, const char *const *want) {
  size_t n = 0;
  while (want[n]) n++;
  int ok = n == e->steps.len;
  for (size_t i = 0; ok && i < n; i++) ok = strcmp(want[i], e->steps.items[i]) == 0;
  if (!ok) {
    fprintf(stderr, "  steps: want [");
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? ", " : "", want[i]);
    fprintf(stderr, "]\n         got  [");
    for (size_t i = 0; i < e->steps.len; i++)
      fprintf(stderr, "%s%s", i ? ", " : "", e->steps.items[i]);
    fprintf(stderr, "]\n");
    for (size_t i = 0; i < e->diags.len; i++)
      fprintf(stderr, "  diag: %s\n", e->diags.items[i]);
  }
  return ok;
}

int step_index(tenv *e, const char *step) {
  for (size_t i = 0; i < e->steps.len; i++)
    if (strcmp(e->steps.items[i], step) == 0) return (int)i;
  return -1;
}

mp_snapshot *tload(tenv *e) {
  mp_snapshot *s = NULL;
  mp_err err;
  mp_stack_ref st = {"test", "test"};
  if (mp_store_load(e->store, st, NULL, &s, &err) < 0) {
    fprintf(stderr, "load: %s\n", err.msg);
    return NULL;
  }
  if (mp_snapshot_verify(s, &err) < 0) fprintf(stderr, "verify: %s\n", err.msg);
  return s;
}

char *state_names(tenv *e) {
  mp_snapshot *s = tload(e);
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; s && i < s->nres; i++) {
    size_t n;
    const char *name = mp_urn_name(s->res[i]->urn, &n);
    mp_buf_printf(&b, "%s%.*s", i ? " " : "", (int)n, name);
    if (s->res[i]->delete_) mp_buf_puts(&b, "[delete]");
    if (s->res[i]->pending_replacement) mp_buf_puts(&b, "[pending]");
    if (s->res[i]->protect) mp_buf_puts(&b, "[protect]");
  }
  mp_snapshot_free(s);
  return mp_buf_detach(&b, NULL);
}

int calls_count(tenv *e, const char *op) {
  char path[400], pat[64];
  snprintf(path, sizeof(path), "%s/calls.jsonl", e->world);
  snprintf(pat, sizeof(pat), "\"op\":\"%s\"", op);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  char line[65536];
  int n = 0;
  while (fgets(line, sizeof(line), f))
    if (strstr(line, pat) && !strstr(line, "\"preview\":true")) n++;
  fclose(f);
  return n;
}

int calls_lines(tenv *e) {
  char path[400];
  snprintf(path, sizeof(path), "%s/calls.jsonl", e->world);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  int n = 0, c;
  while ((c = fgetc(f)) != EOF)
    if (c == '\n') n++;
  fclose(f);
  return n;
}

int calls_overlap(tenv *e, const char *op, long long span_ns, int from_line) {
  return calls_overlap_with(e, op, NULL, span_ns, from_line);
}

int calls_overlap_with(tenv *e, const char *op, const char *needle,
                       long long span_ns, int from_line) {
  char path[400], pat[64];
  snprintf(path, sizeof(path), "%s/calls.jsonl", e->world);
  snprintf(pat, sizeof(pat), "\"op\":\"%s\"", op);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  long long *starts = NULL;
  size_t n = 0;
  char line[65536];
  for (int ln = 0; fgets(line, sizeof(line), f); ln++) {
    char *t = strstr(line, "\"t\":");
    if (ln < from_line || !strstr(line, pat) ||
        (needle && !strstr(line, needle)) ||
        strstr(line, "\"preview\":true") || t == NULL)
      continue;
    starts = mp_xreallocarray(starts, n + 1, sizeof(*starts));
    starts[n++] = atoll(t + 4);
  }
  fclose(f);
  int most = 0;
  for (size_t i = 0; i < n; i++) {
    int c = 0;
    for (size_t j = 0; j < n; j++)
      if (starts[j] <= starts[i] && starts[i] < starts[j] + span_ns) c++;
    if (c > most) most = c;
  }
  free(starts);
  return most;
}

int world_has(tenv *e, const char *id) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s.json", e->world, id);
  return access(path, F_OK) == 0;
}
