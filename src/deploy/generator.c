/* The step generator's thread: the only code of the deployment that
 * crosses threads. The loop thread queues jobs (|in|) and signals the
 * condition variable; the thread takes them one at a time, runs the step
 * generator on them, queues the answers (|out|) and wakes the loop with
 * d->gen.wake, whose callback drains every answer (wake-ups coalesce).
 * The mutex guards the two queues and nothing else: it is held only to
 * push or pop. The generator itself (d->sg) is touched only on this
 * thread once it runs; the prior snapshot it reads is not written while
 * the deployment runs.
 *
 * Before a registration reaches the thread, its Check and Diff are made
 * ahead on the worker pool (stepgen.h, mp_sg_ahead), at most --parallel
 * pool works at once, while the thread decides earlier registrations
 * (when the calls take microseconds, one work makes those of several
 * registrations in turn: see batch_size); the jobs
 * still reach the thread in arrival order, so every decision is the
 * serial generator's, in the same order. The loop thread owns a job from
 * its arrival until it is queued for the thread; the pool thread running
 * its call touches only its mp_sg_ahead. */
#include <stddef.h>
#include <stdlib.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

static void job_free(gen_job *j) {
  mp_sg_ahead_free(j->ahead);
  mp_goal_free(j->goal);
  free(j->urn);
  mp_chain_free(j->chain);
  for (size_t i = 0; i < j->nlayers; i++) mp_chain_free(j->layers[i]);
  free(j->layers);
  mp_diags_destroy(&j->diags);
  free(j);
}

/* Generator thread. */
static void run_job(deploy *d, gen_job *j) {
  mp_err_clear(&j->err);
  if (j->kind == GEN_REGISTER) {
    mp_goal *g = j->goal;
    j->goal = NULL;
    j->urn = mp_urn_new(d->o->stack.name, d->o->stack.project, g->parent,
                        g->type, g->name, NULL);
    j->rc = mp_stepgen_register_ahead(d->sg, g, j->registration, j->ahead,
                                      &j->chain, &j->diags, &j->err);
    return;
  }
  j->rc = 0;
  /* Pulumi checks `up`'s targets after the program and still runs the
   * targeted deletes before it fails. */
  if (d->o->kind == MP_DEPLOY_UPDATE)
    j->late_fail = mp_stepgen_check_targets(d->sg, 0, &j->diags) > 0;
  if (mp_stepgen_preview_failed(d->sg))
    j->rc = mp_err_set(&j->err, MP_EINVAL, "%s", "");
  if (j->rc == 0)
    j->rc = mp_stepgen_deletes(d->sg, d->o->kind == MP_DEPLOY_DESTROY,
                               &j->chain, &j->layers, &j->nlayers, &j->diags,
                               &j->err);
  /* A preview shows the deletes it reported as errors, then fails. */
  if (j->rc == 0 && mp_stepgen_preview_failed(d->sg)) j->late_fail = 1;
}

static void push(gen_job **head, gen_job **tail, gen_job *j) {
  j->next = NULL;
  if (*tail) (*tail)->next = j;
  else *head = j;
  *tail = j;
}

static void push_call(gen *g, gen_job *j) {
  j->next_call = NULL;
  if (g->calls_tail) g->calls_tail->next_call = j;
  else g->calls = j;
  g->calls_tail = j;
}

static gen_job *pop(gen_job **head, gen_job **tail) {
  gen_job *j = *head;
  if (j) {
    *head = j->next;
    if (*head == NULL) *tail = NULL;
  }
  return j;
}

/* Generator thread: until the GEN_QUIT job. */
static void thread_main(void *arg) {
  deploy *d = arg;
  gen *g = &d->gen;
  for (;;) {
    uv_mutex_lock(&g->mu);
    while (g->in == NULL) uv_cond_wait(&g->cv, &g->mu);
    gen_job *j = pop(&g->in, &g->in_tail);
    uv_mutex_unlock(&g->mu);
    if (j->kind == GEN_QUIT) {
      free(j);
      return;
    }
    run_job(d, j);
    uv_mutex_lock(&g->mu);
    push(&g->out, &g->out_tail, j);
    uv_mutex_unlock(&g->mu);
    uv_async_send(&g->wake);
  }
}

static void start_calls(deploy *d);

/* Loop thread: every answer queued so far. */
static void on_wake(uv_async_t *h) {
  deploy *d = h->data;
  gen *g = &d->gen;
  for (;;) {
    uv_mutex_lock(&g->mu);
    gen_job *j = pop(&g->out, &g->out_tail);
    uv_mutex_unlock(&g->mu);
    if (j == NULL) break;
    if (j->counted) g->ahead_live--;
    mp__deploy_on_answer(d, j);
    job_free(j);
  }
  start_calls(d);
  mp__deploy_advance(d);
}

/* ---- calls ahead (loop thread, but call_work) ---- */

/* Queues for the thread every registration at the head of the arrival
 * order whose calls ahead are over. */
static void flush_arrived(deploy *d) {
  gen *g = &d->gen;
  while (g->arrived && g->arrived->ready) {
    gen_job *j = g->arrived;
    g->arrived = j->next;
    if (g->arrived == NULL) g->arrived_tail = NULL;
    mp__deploy_gen_push(d, j);
  }
}

/* A batch's budget: see batch_size. */
#define BATCH_TARGET_NS (500 * 1000)

/* Pool thread: for each job of the batch, plans the registration's calls
 * and makes them one after another (each depends on the answer before).
 * Once the batch has taken longer than its budget (a provider that turned
 * slow), the rest is left for call_after to hand out again, one per work,
 * so that slow calls overlap. Reads the jobs' goals and what of the
 * generator does not change (stepgen.h). */
static void call_work(uv_work_t *w) {
  deploy *d = (deploy *)(void *)((char *)w->loop - offsetof(deploy, loop));
  uint64_t start = uv_hrtime();
  for (gen_job *j = w->data; j; j = j->batch_next) {
    uint64_t t0 = uv_hrtime();
    if (j != w->data && t0 - start > BATCH_TARGET_NS) break;
    j->ran_ahead = 1;
    j->ahead = mp_stepgen_ahead_new(d->sg, j->goal);
    if (j->ahead) {
      do mp_sg_ahead_run(j->ahead);
      while (mp_sg_ahead_next(j->ahead));
    }
    j->ahead_ns = uv_hrtime() - t0;
  }
}

/* Loop thread: puts the jobs of a batch that its work did not reach back
 * among the calls waiting for room, in arrival order (another batch's
 * may have gone back before them). */
static void requeue_unreached(gen *g, gen_job *first) {
  gen_job **at = &g->calls;
  for (gen_job *j = first; j; j = j->batch_next) {
    if (j->ran_ahead) continue;
    g->ahead_live--;
    j->counted = 0;
    while (*at && (*at)->seq < j->seq) at = &(*at)->next_call;
    j->next_call = *at;
    *at = j;
    if (j->next_call == NULL) g->calls_tail = j;
    at = &j->next_call;
  }
}

static void call_after(uv_work_t *w, int status) {
  deploy *d = (deploy *)(void *)((char *)w->loop - offsetof(deploy, loop));
  gen *g = &d->gen;
  g->calls_running--;
  /* canceled: the thread decides without the calls */
  if (status == 0) requeue_unreached(g, w->data);
  for (gen_job *j = w->data; j; j = j->batch_next) {
    if (status == 0 && !j->ran_ahead) continue;
    j->ready = 1;
    if (status == 0) {
      g->ahead_avg_ns = g->ahead_timed == 0
                            ? j->ahead_ns
                            : (g->ahead_avg_ns * 7 + j->ahead_ns) / 8;
      if (g->ahead_timed < 8) g->ahead_timed++;
    }
  }
  flush_arrived(d);
  start_calls(d);
}

/* How many registrations one pool work takes. One while calls are slow
 * (a provider with latency: they must overlap); when a registration's
 * calls take only microseconds (an in-process provider), the hand-offs
 * to and from the pool cost more than the calls, so each work takes as
 * many as fill about half a millisecond, up to 32. */
static int batch_size(const gen *g) {
  enum { BATCH_MAX = 32 };
  if (g->ahead_timed < 8 || g->ahead_avg_ns * 2 > BATCH_TARGET_NS) return 1;
  uint64_t n = BATCH_TARGET_NS / (g->ahead_avg_ns ? g->ahead_avg_ns : 1);
  return n > BATCH_MAX ? BATCH_MAX : (int)n;
}

static gen_job *pop_call(gen *g) {
  gen_job *j = g->calls;
  g->calls = j->next_call;
  if (g->calls == NULL) g->calls_tail = NULL;
  j->batch_next = NULL;
  return j;
}

/* Starts waiting registrations' calls while there is room; once the
 * deployment stops, the waiting ones are dropped (the thread decides
 * without them). At most --parallel pool works run, and at most
 * 2 x --parallel x the largest batch size so far registrations hold
 * answers not yet used, so that memory stays bounded. */
static void start_calls(deploy *d) {
  gen *g = &d->gen;
  int batch = batch_size(g);
  /* The window does not shrink when the batch size falls: the answers in
   * it must not hold back the calls handed out again. */
  if (g->live_max < 2 * (g->calls_max + batch))
    g->live_max = 2 * (g->calls_max + batch);
  int live_max = g->live_max;
  /* The oldest registration still waiting, which all the answers in the
   * window wait for, may always go. */
  while (g->calls && ((g->calls_running < g->calls_max &&
                       (g->ahead_live < live_max || g->calls == g->arrived)) ||
                      d->state == DS_STOPPING)) {
    gen_job *j = pop_call(g);
    if (d->state == DS_STOPPING) {
      j->ready = 1;
      continue;
    }
    int n = 1;
    for (gen_job *last = j; n < batch && g->calls &&
                            g->ahead_live + n < live_max;
         n++)
      last = last->batch_next = pop_call(g);
    j->work.data = j;
    if (uv_queue_work(&d->loop, &j->work, call_work, call_after) == 0) {
      g->calls_running++;
      g->ahead_live += n;
      for (gen_job *k = j; k; k = k->batch_next) k->counted = 1;
      continue;
    }
    for (gen_job *k = j; k; k = k->batch_next) k->ready = 1;
  }
  flush_arrived(d);
}

void mp__deploy_gen_arrive(deploy *d, gen_job *j) {
  gen *g = &d->gen;
  j->seq = g->arrivals++;
  j->next = NULL;
  if (g->arrived_tail) g->arrived_tail->next = j;
  else g->arrived = j;
  g->arrived_tail = j;
  char *urn = mp_urn_new(d->o->stack.name, d->o->stack.project,
                         j->goal->parent, j->goal->type, j->goal->name, NULL);
  int repeat = urn == NULL || mp_map_has(&g->seen, urn);
  if (urn && !repeat) mp_map_put(&g->seen, urn, d);
  free(urn);
  if (g->serial || repeat) {
    j->ready = 1;
    flush_arrived(d);
    return;
  }
  push_call(g, j);
  start_calls(d);
}

int mp__deploy_gen_start(deploy *d, mp_err *err) {
  gen *g = &d->gen;
  mp_map_init(&g->seen);
  g->serial = d->o->serial_stepgen;
  g->calls_max = d->o->parallel > 0 ? d->o->parallel
                                    : mp_deploy_default_parallel();
  uv_mutex_init(&g->mu);
  uv_cond_init(&g->cv);
  uv_async_init(&d->loop, &g->wake, on_wake);
  g->wake.data = d;
  int rc = uv_thread_create(&g->thread, thread_main, d);
  if (rc < 0) return mp_err_from_uv(err, rc, "cannot start the step generator");
  g->started = 1;
  return 0;
}

void mp__deploy_gen_push(deploy *d, gen_job *j) {
  gen *g = &d->gen;
  uv_mutex_lock(&g->mu);
  push(&g->in, &g->in_tail, j);
  uv_cond_signal(&g->cv);
  uv_mutex_unlock(&g->mu);
}

void mp__deploy_gen_join(deploy *d) {
  gen *g = &d->gen;
  if (g->started) uv_thread_join(&g->thread);
  gen_job *j;
  while ((j = pop(&g->in, &g->in_tail))) job_free(j);
  while ((j = pop(&g->out, &g->out_tail))) job_free(j);
  while ((j = pop(&g->arrived, &g->arrived_tail))) job_free(j);
  mp_map_destroy(&g->seen);
  uv_cond_destroy(&g->cv);
  uv_mutex_destroy(&g->mu);
}
