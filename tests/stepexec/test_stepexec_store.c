/* The step executor's state writes (src/stepexec/), against a real SQLite
 * store: a pending operation is recorded before each world-changing call
 * and replaced by the result after it; a failed call leaves neither. The
 * scripted provider stops inside each call while the loop thread reads
 * the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/op.h"
#include "engine/urn.h"
#include "scripted_provider.h"
#include "stepexec/stepexec.h"
#include "testutil.h"

#define URN(n) "urn:pulumi:s::p::pkgA:m:T::" n
#define PROV_URN "urn:pulumi:s::p::pulumi:providers:pkgA::default"
#define PROV_REF PROV_URN "::p1"

typedef struct st_fx {
  uv_loop_t loop;
  uv_async_t look; /* a provider call asks the loop to read the store */
  uv_sem_t looked; /* ... and waits until it has */
  char dir[64];
  mp_store *store;
  mp_stack_ref st;
  mp_strv views; /* "<method> <name>: <resources> / <pending>" */
  /* The call being looked at: written on the worker, read on the loop
   * (libuv's async wake-up orders them, but ThreadSanitizer cannot see
   * into libuv, so a mutex says it). */
  uv_mutex_t mu;
  char call[128];
  mp_strv done;
  mp_snapshot *olds; /* the prior entries, with their rows */
  mp_store_update *u;
  sp_world w;
  mp_registry *reg;
  mp_stepexec *ex;
} st_fx;

static char *name_of(const char *urn) {
  size_t n = 0;
  const char *p = mp_urn_name(urn, &n);
  return mp_xstrndup(p ? p : "?", p ? n : 1);
}

/* The stack as stored: resource names in order, then the pending
 * operations. */
static char *view(st_fx *f) {
  mp_snapshot *snap = NULL;
  mp_err err;
  if (mp_store_load(f->store, f->st, NULL, &snap, &err) < 0)
    return mp_xasprintf("load failed: %s", err.msg);
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < snap->nres; i++) {
    char *n = name_of(snap->res[i]->urn);
    mp_buf_printf(&b, "%s%s", i ? "," : "", n);
    free(n);
  }
  mp_buf_puts(&b, " /");
  for (size_t i = 0; i < snap->npending; i++) {
    char *n = name_of(snap->pending[i].res->urn);
    mp_buf_printf(&b, " %s:%s", mp_pending_type_name(snap->pending[i].type), n);
    free(n);
  }
  mp_snapshot_free(snap);
  return mp_buf_detach(&b, NULL);
}

static void on_look(uv_async_t *h) {
  st_fx *f = h->data;
  char *v = view(f);
  uv_mutex_lock(&f->mu);
  mp_strv_push_take(&f->views, mp_xasprintf("%s: %s", f->call, v));
  uv_mutex_unlock(&f->mu);
  free(v);
  uv_sem_post(&f->looked);
}

/* Worker thread, inside a provider call; one call at a time (parallel 1). */
static void on_call(void *ud, const char *method, const char *urn) {
  st_fx *f = ud;
  char *n = name_of(urn);
  uv_mutex_lock(&f->mu);
  snprintf(f->call, sizeof(f->call), "%s %s", method, n);
  uv_mutex_unlock(&f->mu);
  free(n);
  uv_async_send(&f->look);
  uv_sem_wait(&f->looked);
}

static void on_chain_done(void *ud, mp_chain *c, int failed) {
  st_fx *f = ud;
  (void)c;
  mp_strv_push_take(&f->done, mp_xasprintf("%d", failed));
}

static mp_resource *custom(const char *name) {
  char *urn = mp_xasprintf(URN("%s"), name);
  mp_resource *r = mp_resource_new(urn, "pkgA:m:T", 1);
  free(urn);
  r->provider = mp_xstrdup(PROV_REF);
  r->inputs = mp_value_new_object();
  r->outputs = mp_value_new_object();
  return r;
}

static mp_step *step(mp_step_op op, mp_resource *old, mp_resource *new_,
                     unsigned flags) {
  mp_step *s = mp_step_new(op, (new_ ? new_ : old)->urn);
  s->old = old;
  s->new_ = new_;
  s->flags = flags;
  if (!mp_type_is_provider((new_ ? new_ : old)->type))
    s->provider = mp_xstrdup(PROV_REF);
  return s;
}

/* A store in a fresh folder whose stack "s" holds the provider and b,
 * an update open on it (f->u), the prior entries with their rows
 * (f->olds), and an executor (parallel 1) on a loop whose provider calls
 * stop while the loop reads the store. */
static int g_folder; /* the store is a file:// folder */

static void fx_open(st_fx *f) {
  memset(f, 0, sizeof(*f));
  snprintf(f->dir, sizeof(f->dir), "/tmp/mp-stepexec-XXXXXX");
  if (mkdtemp(f->dir) == NULL)
    abort();
  /* a SQLite file, or a file:// folder whose writes go out in the
   * background (the provider call waits for its pending operation) */
  char *db = g_folder ? mp_xasprintf("file://%s/state", f->dir)
                      : mp_xasprintf("%s/state.db", f->dir);
  mp_err err;
  f->st.project = "p";
  f->st.name = "s";
  mp_store_opts so = {0};
  so.verify_writes = 1; /* every write is checked for integrity */
  CHECK(mp_store_open_with(db, &so, &f->store, &err) == 0);
  free(db);
  CHECK(mp_store_stack_create(f->store, f->st, &err) == 0);
  mp_snapshot *prior = mp_snapshot_new();
  mp_resource *prov = mp_resource_new(PROV_URN, "pulumi:providers:pkgA", 1);
  prov->id = mp_xstrdup("p1");
  prov->inputs = mp_value_new_object();
  prov->outputs = mp_value_new_object();
  mp_snapshot_append(prior, prov);
  mp_resource *b = custom("b");
  b->id = mp_xstrdup("id-b");
  mp_snapshot_append(prior, b);
  CHECK(mp_store_replace(f->store, f->st, prior, NULL, &err) == 0);
  mp_snapshot_free(prior);
  CHECK(mp_store_load(f->store, f->st, NULL, &f->olds, &err) == 0);
  CHECK(mp_store_update_begin(f->store, f->st, "update", "", NULL, NULL, &f->u,
                              &err) == 0);
  sp_world_init(&f->w);
  f->w.on_call = on_call;
  f->w.on_call_ud = f;
  f->reg = mp_registry_new(0, sp_factory(&f->w));
  uv_loop_init(&f->loop);
  uv_async_init(&f->loop, &f->look, on_look);
  uv_unref((uv_handle_t *)&f->look); /* provider calls keep the loop up */
  f->look.data = f;
  uv_sem_init(&f->looked, 0);
  uv_mutex_init(&f->mu);
  mp_stepexec_opts o = {0};
  o.loop = &f->loop;
  o.parallel = 1;
  o.store = f->u;
  o.registry = f->reg;
  o.hooks.ud = f;
  o.hooks.on_chain_done = on_chain_done;
  f->ex = mp_stepexec_new(&o);
}

static void fx_close(st_fx *f) {
  mp_err err;
  mp_update_counts counts = {0};
  CHECK(mp_store_update_end(f->u, "failed", &counts, &err) == 0);
  mp_stepexec_close(f->ex);
  uv_close((uv_handle_t *)&f->look, NULL);
  uv_run(&f->loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&f->loop) == 0);
  uv_sem_destroy(&f->looked);
  uv_mutex_destroy(&f->mu);
  mp_registry_free(f->reg);
  sp_world_destroy(&f->w);
  mp_snapshot_free(f->olds);
  mp_store_close(f->store);
  mp_strv_destroy(&f->views);
  mp_strv_destroy(&f->done);
  char *rm = mp_xasprintf("rm -rf '%s'", f->dir);
  CHECK(system(rm) == 0);
  free(rm);
}

/* One chain: the provider carried forward, a created, b deleted, c's
 * create failing (the last step never starts); the store is read inside
 * each call and at the end. */
static void test_pending_then_result(void) {
  st_fx f;
  fx_open(&f);
  sp_script(&f.w, "c")->fail = "no room";
  mp_resource *prov = f.olds->res[0], *b = f.olds->res[1];
  mp_chain *c = mp_chain_new(NULL);
  mp_chain_push(c, step(MP_OP_SAME, mp_resource_dup(prov),
                        mp_resource_dup(prov), MP_STEP_PROVIDER_RES));
  mp_chain_push(c, step(MP_OP_CREATE, NULL, custom("a"), MP_STEP_REPLY));
  mp_chain_push(c, step(MP_OP_DELETE, mp_resource_dup(b), NULL, 0));
  mp_chain_push(c, step(MP_OP_CREATE, NULL, custom("c"), MP_STEP_REPLY));
  mp_chain_push(c, step(MP_OP_CREATE, NULL, custom("never"), MP_STEP_REPLY));
  mp_stepexec_submit(f.ex, c);
  uv_run(&f.loop, UV_RUN_DEFAULT);

  CHECK(f.views.len == 3);
  for (size_t i = 0; i < f.views.len; i++) {
    static const char *const want[] = {"create a: default,b / creating:a",
                                       "delete b: default,a,b / deleting:b",
                                       "create c: default,a / creating:c"};
    if (i < 3)
      CHECK_STR(f.views.items[i], want[i]);
  }
  char *end = view(&f);
  CHECK_STR(end, "default,a /");
  free(end);
  CHECK(f.done.len == 1 && strcmp(f.done.items[0], "1") == 0);
  mp_snapshot *after = NULL;
  mp_err err;
  CHECK(mp_store_load(f.store, f.st, NULL, &after, &err) == 0);
  CHECK(after && after->nres == 2 && strcmp(after->res[1]->id, "id-a") == 0);
  mp_snapshot_free(after);
  fx_close(&f);
}

/* The order of steps' starts and chains' ends (loop thread). */
static mp_strv g_order;

static void order_step(void *ud, mp_event_kind kind, const mp_step *s,
                       const char *msg) {
  (void)ud;
  (void)msg;
  if (kind != MP_EVENT_RESOURCE_PRE) return;
  char *n = name_of(s->urn);
  mp_strv_push_take(&g_order, mp_xasprintf("start %s", n));
  free(n);
}

static void order_done(void *ud, mp_chain *c, int failed) {
  on_chain_done(ud, c, failed);
  char *n = name_of(c->steps[0]->urn);
  mp_strv_push_take(&g_order, mp_xasprintf("end %s", n));
  free(n);
}

/* Two independent creates at --parallel 1. On SQLite a step's result is
 * durable when it is applied, so the first chain ends before the second
 * starts. On a folder the result is written in the background: the step
 * makes no provider call meanwhile, so it gives its slot back and the
 * second create starts (its pending operation can share that write)
 * before the first chain ends; the provider still sees one call at a
 * time (on_call: the loop reads the store inside each). */
static void test_slot_given_back_while_writing(void) {
  st_fx f;
  fx_open(&f);
  mp_strv_init(&g_order);
  mp_stepexec_close(f.ex);
  mp_stepexec_opts o = {0};
  o.loop = &f.loop;
  o.parallel = 1;
  o.store = f.u;
  o.registry = f.reg;
  o.hooks.ud = &f;
  o.hooks.on_step = order_step;
  o.hooks.on_chain_done = order_done;
  f.ex = mp_stepexec_new(&o);
  mp_chain *pc = mp_chain_new(NULL); /* the provider, on its own first */
  mp_resource *prov = f.olds->res[0];
  mp_chain_push(pc, step(MP_OP_SAME, mp_resource_dup(prov),
                         mp_resource_dup(prov), MP_STEP_PROVIDER_RES));
  mp_stepexec_submit(f.ex, pc);
  uv_run(&f.loop, UV_RUN_DEFAULT);
  mp_strv_destroy(&g_order);
  mp_strv_init(&g_order);
  const char *names[] = {"a", "x"};
  for (int i = 0; i < 2; i++) {
    mp_chain *c = mp_chain_new(NULL);
    mp_chain_push(c, step(MP_OP_CREATE, NULL, custom(names[i]), 0));
    mp_stepexec_submit(f.ex, c);
  }
  uv_run(&f.loop, UV_RUN_DEFAULT);
  CHECK(f.done.len == 3);
  CHECK(g_order.len == 4);
  if (g_order.len == 4) {
    CHECK_STR(g_order.items[0], "start a");
    CHECK_STR(g_order.items[1], g_folder ? "start x" : "end a");
    CHECK_STR(g_order.items[2], g_folder ? "end a" : "start x");
    CHECK_STR(g_order.items[3], "end x");
  }
  CHECK(f.views.len == 2);
  char *end = view(&f);
  CHECK_STR(end, "default,a,x,b /"); /* b: no step touched it */
  free(end);
  mp_strv_destroy(&g_order);
  fx_close(&f);
}

int main(void) {
  RUN(test_pending_then_result);
  RUN(test_slot_given_back_while_writing);
  g_folder = 1;
  RUN(test_pending_then_result);
  RUN(test_slot_given_back_while_writing);
  return mp_test_summary();
}
