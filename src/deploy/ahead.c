/* The calls ahead: before a registration reaches the generator thread
 * (generator.c), its Check and Diff are made on the worker pool where
 * they can be predicted (stepgen.h, mp_sg_ahead), at most --parallel pool
 * works at once, while the thread decides earlier registrations (when
 * the calls take microseconds, one work makes those of several
 * registrations in turn: see batch_size). The jobs still reach the thread
 * in arrival order, so every decision is the serial generator's, in the
 * same order. The loop thread owns a job from its arrival until it is
 * queued for the thread; the pool thread running its calls touches only
 * its mp_sg_ahead and its slot's |ran| and |ns|. Loop thread, except
 * call_work. */
#include <limits.h>
#include <stdlib.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

static gen_job *job_of_call(mp_queue *q) {
  return q ? mp_container_of(mp_queue_data(q, ahead_slot, call_link), gen_job,
                             sched)
           : NULL;
}

static gen_job *first_arrived(const ahead *a) {
  mp_queue *q = mp_queue_first(&a->arrived);
  return q ? mp_queue_data(q, gen_job, link) : NULL;
}

/* Queues for the thread every registration at the head of the arrival
 * order whose calls ahead are over. */
static void flush_arrived(deploy *d) {
  gen_job *j;
  while ((j = first_arrived(&d->ahead)) && j->sched.ready) {
    mp_queue_remove(&j->link);
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
  deploy *d = mp_container_of(w->loop, deploy, loop);
  uint64_t start = uv_hrtime();
  for (gen_job *j = w->data; j; j = j->sched.batch_next) {
    uint64_t t0 = uv_hrtime();
    if (j != w->data && t0 - start > BATCH_TARGET_NS) break;
    j->sched.ran = 1;
    j->ahead = mp_stepgen_ahead_new(d->sg, j->goal);
    if (j->ahead) {
      do mp_sg_ahead_run(j->ahead);
      while (mp_sg_ahead_next(j->ahead));
    }
    j->sched.ns = uv_hrtime() - t0;
  }
}

/* Puts the jobs of a batch that its work did not reach back among the
 * calls waiting for room, in arrival order (another batch's may have gone
 * back before them). */
static void requeue_unreached(ahead *a, gen_job *first) {
  mp_queue *at = mp_queue_first(&a->calls);
  for (gen_job *j = first; j; j = j->sched.batch_next) {
    if (j->sched.ran) continue;
    a->live--;
    j->sched.counted = 0;
    while (at && job_of_call(at)->sched.seq < j->sched.seq)
      at = mp_queue_after(&a->calls, at);
    mp_queue_insert_before(at ? at : &a->calls, &j->sched.call_link);
  }
}

static void call_after(uv_work_t *w, int status) {
  deploy *d = mp_container_of(w->loop, deploy, loop);
  ahead *a = &d->ahead;
  a->running--;
  /* canceled: the thread decides without the calls */
  if (status == 0) requeue_unreached(a, w->data);
  for (gen_job *j = w->data; j; j = j->sched.batch_next) {
    if (status == 0 && !j->sched.ran) continue;
    j->sched.ready = 1;
    if (status == 0) {
      a->avg_ns = a->timed == 0 ? j->sched.ns : (a->avg_ns * 7 + j->sched.ns) / 8;
      if (a->timed < 8) a->timed++;
    }
  }
  flush_arrived(d);
  mp__deploy_ahead_resume(d);
}

/* How many registrations one pool work takes. One while calls are slow
 * (a provider with latency: they must overlap); when a registration's
 * calls take only microseconds (an in-process provider), the hand-offs
 * to and from the pool cost more than the calls, so each work takes as
 * many as fill about half a millisecond, up to 32. */
static int batch_size(const ahead *a) {
  enum { BATCH_MAX = 32 };
  if (a->timed < 8 || a->avg_ns * 2 > BATCH_TARGET_NS) return 1;
  uint64_t n = BATCH_TARGET_NS / (a->avg_ns ? a->avg_ns : 1);
  return n > BATCH_MAX ? BATCH_MAX : (int)n;
}

static gen_job *pop_call(ahead *a) {
  gen_job *j = job_of_call(mp_queue_pop(&a->calls));
  j->sched.batch_next = NULL;
  return j;
}

/* Starts waiting registrations' calls while there is room; once the
 * deployment stops, the waiting ones are dropped (the thread decides
 * without them). At most --parallel pool works run, and at most
 * 2 x --parallel x the largest batch size so far registrations hold
 * answers not yet used, so that memory stays bounded. */
void mp__deploy_ahead_resume(deploy *d) {
  ahead *a = &d->ahead;
  int batch = batch_size(a);
  /* The window does not shrink when the batch size falls: the answers in
   * it must not hold back the calls handed out again. */
  /* In a wide type: --parallel may be INT_MAX ("unlimited"). */
  long long want = 2LL * ((long long)d->parallel + batch);
  if (want > INT_MAX)
    want = INT_MAX;
  if (a->live_max < want)
    a->live_max = (int)want;
  int live_max = a->live_max;
  /* The oldest registration still waiting, which all the answers in the
   * window wait for, may always go. */
  while (!mp_queue_empty(&a->calls) &&
         ((a->running < d->parallel &&
           (a->live < live_max ||
            job_of_call(mp_queue_first(&a->calls)) == first_arrived(a))) ||
          d->state == DS_STOPPING)) {
    gen_job *j = pop_call(a);
    if (d->state == DS_STOPPING) {
      j->sched.ready = 1;
      continue;
    }
    int n = 1;
    for (gen_job *last = j; n < batch && !mp_queue_empty(&a->calls) &&
                            a->live + n < live_max;
         n++)
      last = last->sched.batch_next = pop_call(a);
    j->sched.work.data = j;
    if (uv_queue_work(&d->loop, &j->sched.work, call_work, call_after) == 0) {
      a->running++;
      a->live += n;
      for (gen_job *k = j; k; k = k->sched.batch_next) k->sched.counted = 1;
      continue;
    }
    for (gen_job *k = j; k; k = k->sched.batch_next) k->sched.ready = 1;
  }
  flush_arrived(d);
}

void mp__deploy_ahead_answered(deploy *d, gen_job *j) {
  if (j->sched.counted) d->ahead.live--;
}

void mp__deploy_ahead_arrive(deploy *d, gen_job *j) {
  ahead *a = &d->ahead;
  j->sched.seq = a->arrivals++;
  mp_queue_push(&a->arrived, &j->link);
  char *urn = mp_urn_new(d->o->stack.name, d->o->stack.project,
                         j->goal->parent, j->goal->type, j->goal->name, NULL);
  int repeat = urn == NULL || mp_map_has(&a->seen, urn);
  if (urn && !repeat) mp_map_put(&a->seen, urn, d);
  free(urn);
  if (d->o->serial_stepgen || repeat) {
    j->sched.ready = 1;
    flush_arrived(d);
    return;
  }
  mp_queue_push(&a->calls, &j->sched.call_link);
  mp__deploy_ahead_resume(d);
}

void mp__deploy_ahead_init(deploy *d) {
  mp_queue_init(&d->ahead.arrived);
  mp_queue_init(&d->ahead.calls);
  mp_map_init(&d->ahead.seen);
}

void mp__deploy_ahead_destroy(deploy *d) {
  mp_queue *q;
  while ((q = mp_queue_pop(&d->ahead.arrived)))
    mp__deploy_gen_job_free(mp_queue_data(q, gen_job, link));
  mp_map_destroy(&d->ahead.seen);
}
