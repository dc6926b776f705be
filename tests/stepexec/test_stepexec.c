/* The step executor (src/stepexec/) on its own: chains of hand-made steps
 * run on a libuv loop against the scripted provider, with the hooks
 * logged. No generator, no monitor, no store: what is checked is the
 * scheduling (the order of steps and hooks, nothing finished inside
 * submit, failure ending a chain, cancellation, the parallel limit) and
 * the provider calls the steps make. */
#include "stepexec/stepexec.h"

#include <stdlib.h>
#include <string.h>

#include "engine/op.h"
#include "engine/urn.h"
#include "scripted_provider.h"
#include "testutil.h"

#define TYPE "pkgA:m:T"
#define URN(n) "urn:pulumi:s::p::pkgA:m:T::" n
#define PROV_URN "urn:pulumi:s::p::pulumi:providers:pkgA::default"
#define PROV_REF PROV_URN "::p1"

typedef struct ex_fx {
  uv_loop_t loop;
  sp_world w;
  mp_registry *reg;
  mp_stepexec *ex;
  mp_strv log;              /* the hooks, in order */
  mp_strv done;             /* "<first step's name>=<failed>" per ended chain */
  int running, max_running; /* steps begun and not yet ended */
} ex_fx;

static const char *name_of(const char *urn, size_t *n) {
  const char *p = mp_urn_name(urn, n);
  if (p == NULL)
    p = "?", *n = 1;
  return p;
}

static void on_step(void *ud, mp_event_kind kind, const mp_step *s,
                    const char *msg) {
  ex_fx *f = ud;
  size_t n;
  const char *name = name_of(s->urn, &n);
  const char *what = kind == MP_EVENT_RESOURCE_PRE    ? "pre"
                     : kind == MP_EVENT_RES_OUTPUTS   ? "out"
                     : kind == MP_EVENT_RES_OP_FAILED ? "fail"
                                                      : "diag";
  if (kind == MP_EVENT_RESOURCE_PRE && ++f->running > f->max_running)
    f->max_running = f->running;
  if (kind == MP_EVENT_RES_OUTPUTS || kind == MP_EVENT_RES_OP_FAILED)
    f->running--;
  mp_strv_push_take(
      &f->log, mp_xasprintf("%s %s:%.*s%s%s", what, mp_op_info_of(s->op)->name,
                            (int)n, name, msg ? " " : "", msg ? msg : ""));
}

static void on_reply(void *ud, mp_chain *c, mp_step *s) {
  ex_fx *f = ud;
  (void)c;
  size_t n;
  const char *name = name_of(s->urn, &n);
  mp_strv_push_take(&f->log,
                    mp_xasprintf("reply %.*s id=%s", (int)n, name,
                                 s->new_ && s->new_->id ? s->new_->id : "-"));
}

static void on_chain_done(void *ud, mp_chain *c, int failed) {
  ex_fx *f = ud;
  size_t n;
  const char *name = c->len ? name_of(c->steps[0]->urn, &n) : "-";
  if (!c->len)
    n = 1;
  mp_strv_push_take(&f->done, mp_xasprintf("%.*s=%d", (int)n, name, failed));
}

static void fx_init(ex_fx *f, int parallel, int ignore_protect) {
  memset(f, 0, sizeof(*f));
  uv_loop_init(&f->loop);
  sp_world_init(&f->w);
  f->reg = mp_registry_new(0, sp_factory(&f->w));
  mp_resource *p = mp_resource_new(PROV_URN, "pulumi:providers:pkgA", 1);
  p->id = mp_xstrdup("p1");
  mp_registry_add_known(f->reg, p);
  mp_resource_free(p);
  mp_stepexec_opts o = {0};
  o.loop = &f->loop;
  o.parallel = parallel;
  o.ignore_protect = ignore_protect;
  o.registry = f->reg;
  o.hooks.ud = f;
  o.hooks.on_step = on_step;
  o.hooks.on_reply = on_reply;
  o.hooks.on_chain_done = on_chain_done;
  f->ex = mp_stepexec_new(&o);
}

static void fx_run(ex_fx *f) { uv_run(&f->loop, UV_RUN_DEFAULT); }

static void fx_destroy(ex_fx *f) {
  mp_stepexec_close(f->ex);
  uv_run(&f->loop, UV_RUN_DEFAULT);
  CHECK(uv_loop_close(&f->loop) == 0);
  mp_registry_free(f->reg);
  sp_world_destroy(&f->w);
  mp_strv_destroy(&f->log);
  mp_strv_destroy(&f->done);
}

static char *joined(const mp_strv *v) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < v->len; i++)
    mp_buf_printf(&b, "%s%s", i ? "; " : "", v->items[i]);
  mp_buf_puts(&b, "");
  return mp_buf_detach(&b, NULL);
}

#define CHECK_LOG(v, want)                                                     \
  do {                                                                         \
    char *got_ = joined(v);                                                    \
    CHECK_STR(got_, want);                                                     \
    free(got_);                                                                \
  } while (0)

#define CHECK_CALLS(f, want)                                                   \
  do {                                                                         \
    char *got_ = sp_calls(&(f)->w);                                            \
    CHECK_STR(got_, want);                                                     \
    free(got_);                                                                \
  } while (0)

static mp_resource *custom(const char *name) {
  char *urn = mp_xasprintf(URN("%s"), name);
  mp_resource *r = mp_resource_new(urn, TYPE, 1);
  free(urn);
  r->provider = mp_xstrdup(PROV_REF);
  r->inputs = mp_value_new_object();
  return r;
}

/* A step on custom resource |name|: a create (new state only), an update
 * or same (old id-<name> and new), a delete (old only). */
static mp_step *step(mp_step_op op, const char *name, unsigned flags) {
  mp_resource *r = custom(name);
  mp_step *s = mp_step_new(op, r->urn);
  s->provider = mp_xstrdup(PROV_REF);
  s->flags = flags;
  if (op != MP_OP_CREATE) {
    s->old = mp_resource_dup(r);
    s->old->id = mp_xasprintf("id-%s", name);
  }
  if (op == MP_OP_DELETE)
    mp_resource_free(r);
  else
    s->new_ = r;
  return s;
}

static mp_chain *chain(mp_step *a, mp_step *b) {
  mp_chain *c = mp_chain_new(NULL);
  mp_chain_push(c, a);
  if (b)
    mp_chain_push(c, b);
  return c;
}

/* A step that calls no provider still ends on a later turn of the loop:
 * nothing is reported inside submit. */
static void test_nothing_finishes_inside_submit(void) {
  ex_fx f;
  fx_init(&f, 4, 0);
  mp_stepexec_submit(
      f.ex,
      chain(step(MP_OP_SAME, "a", MP_STEP_REPLY | MP_STEP_NO_CALL), NULL));
  CHECK(f.log.len == 0 && f.done.len == 0);
  CHECK(mp_stepexec_busy(f.ex) == 1);
  fx_run(&f);
  CHECK_LOG(&f.log, "pre same:a; out same:a; reply a id=id-a");
  CHECK_LOG(&f.done, "a=0");
  CHECK(mp_stepexec_busy(f.ex) == 0);
  CHECK_CALLS(&f, "");
  fx_destroy(&f);
}

/* A chain's steps run one after another, each reported before the next
 * starts; the reply carries the id the provider made. */
static void test_chain_steps_in_order(void) {
  ex_fx f;
  fx_init(&f, 4, 0);
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "a", MP_STEP_REPLY),
                                 step(MP_OP_UPDATE, "a", 0)));
  fx_run(&f);
  CHECK_LOG(&f.log, "pre create:a; out create:a; reply a id=id-a; "
                    "pre update:a; out update:a");
  CHECK_CALLS(&f, "create a; update a");
  CHECK_LOG(&f.done, "a=0");
  fx_destroy(&f);
}

/* A failed step ends its chain: the steps after it never start, and other
 * chains go on. */
static void test_failure_ends_the_chain(void) {
  ex_fx f;
  fx_init(&f, 1, 0);
  sp_script(&f.w, "a")->fail = "boom";
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "a", MP_STEP_REPLY),
                                 step(MP_OP_CREATE, "after", 0)));
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "b", 0), NULL));
  fx_run(&f);
  CHECK_LOG(&f.log, "pre create:a; fail create:a boom; pre create:b; "
                    "out create:b");
  CHECK_CALLS(&f, "create a; create b");
  CHECK_LOG(&f.done, "a=1; b=0");
  fx_destroy(&f);
}

/* Chains whose steps call no provider end in submission order. */
static void test_no_call_chains_in_submission_order(void) {
  ex_fx f;
  fx_init(&f, 2, 0);
  const char *names[] = {"c1", "c2", "c3", "c4", "c5"};
  for (size_t i = 0; i < 5; i++)
    mp_stepexec_submit(f.ex,
                       chain(step(MP_OP_SAME, names[i], MP_STEP_NO_CALL),
                             step(MP_OP_DELETE, names[i], MP_STEP_NO_CALL)));
  fx_run(&f);
  CHECK_LOG(&f.done, "c1=0; c2=0; c3=0; c4=0; c5=0");
  CHECK_CALLS(&f, "");
  fx_destroy(&f);
}

/* At most |parallel| chains run at once, and as many do: the executor
 * never has more steps begun and not ended (counted by its own hooks on
 * the loop thread), and the Creates meet in rounds of |parallel| (a
 * rendezvous on the workers that only that many at once passes). */
static void test_parallel_limit(void) {
  for (int parallel = 1; parallel <= 3; parallel++) {
    ex_fx f;
    fx_init(&f, parallel, 0);
    f.w.gate = parallel;
    char name[8];
    for (int i = 0; i < 6; i++) {
      snprintf(name, sizeof(name), "r%d", i);
      mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, name, 0), NULL));
    }
    fx_run(&f);
    CHECK(f.max_running == parallel);
    CHECK(f.w.max_in_flight == parallel);
    CHECK(f.w.gate_timeouts == 0);
    CHECK(f.done.len == 6);
    for (size_t i = 0; i < f.done.len; i++)
      CHECK(strstr(f.done.items[i], "=0") != NULL);
    fx_destroy(&f);
  }
}

/* Cancelling drops the chains waiting for room (-1, on a later turn); one
 * already started finishes its current step and stops. */
static void test_cancel(void) {
  ex_fx f;
  fx_init(&f, 1, 0);
  mp_stepexec_submit(
      f.ex, chain(step(MP_OP_CREATE, "a", 0), step(MP_OP_UPDATE, "a", 0)));
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "b", 0), NULL));
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "c", 0), NULL));
  mp_stepexec_cancel(f.ex);
  CHECK(f.done.len == 0); /* not inside cancel either */
  /* A chain submitted after the cancellation only ends. */
  mp_stepexec_submit(f.ex, chain(step(MP_OP_CREATE, "d", 0), NULL));
  fx_run(&f);
  CHECK_CALLS(&f, "create a");
  CHECK_LOG(&f.log, "pre create:a; out create:a");
  CHECK(f.done.len == 4);
  CHECK(mp_strv_contains(&f.done, "a=-1") &&
        mp_strv_contains(&f.done, "b=-1") &&
        mp_strv_contains(&f.done, "c=-1") && mp_strv_contains(&f.done, "d=-1"));
  fx_destroy(&f);
}

/* A protected resource is not deleted (the provider is not called)
 * unless protection is ignored; retainOnDelete (no call) deletes nothing
 * in the world. */
static void test_delete_protect_and_retain(void) {
  ex_fx f;
  fx_init(&f, 2, 0);
  mp_step *s = step(MP_OP_DELETE, "p", 0);
  s->old->protect = 1;
  mp_stepexec_submit(f.ex, chain(s, NULL));
  mp_stepexec_submit(f.ex,
                     chain(step(MP_OP_DELETE, "keep", MP_STEP_NO_CALL), NULL));
  fx_run(&f);
  CHECK_CALLS(&f, "");
  CHECK(mp_strv_contains(&f.done, "p=1") &&
        mp_strv_contains(&f.done, "keep=0"));
  char *log = joined(&f.log);
  CHECK_CONTAINS(log, "fail delete:p resource \"" URN(
                          "p") "\" cannot be deleted\nbecause it is protected");
  CHECK_CONTAINS(log, "out delete:keep");
  free(log);
  fx_destroy(&f);

  fx_init(&f, 2, 1);
  s = step(MP_OP_DELETE, "p", 0);
  s->old->protect = 1;
  mp_stepexec_submit(f.ex, chain(s, NULL));
  fx_run(&f);
  CHECK_CALLS(&f, "delete p");
  CHECK_LOG(&f.done, "p=0");
  fx_destroy(&f);
}

int main(void) {
  RUN(test_nothing_finishes_inside_submit);
  RUN(test_chain_steps_in_order);
  RUN(test_failure_ends_the_chain);
  RUN(test_no_call_chains_in_submission_order);
  RUN(test_parallel_limit);
  RUN(test_cancel);
  RUN(test_delete_protect_and_retain);
  return mp_test_summary();
}
