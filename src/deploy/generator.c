/* The step generator's thread: the only code of the deployment that
 * crosses threads. The loop thread queues jobs (|in|) and signals the
 * condition variable; the thread takes them one at a time, runs the step
 * generator on them, queues the answers (|out|) and wakes the loop with
 * d->gen.wake, whose callback drains every answer (wake-ups coalesce).
 * The mutex guards the two queues and nothing else: it is held only to
 * push or pop. The generator itself (d->sg) is touched only on this
 * thread once it runs; the prior snapshot it reads is not written while
 * the deployment runs. Registrations reach |in| through the calls-ahead
 * schedule (ahead.c), in arrival order. */
#include <stdlib.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

void mp__deploy_gen_job_free(gen_job *j) {
  mp_sg_ahead_free(j->ahead);
  mp_goal_free(j->goal);
  free(j->urn);
  mp_chain_free(j->chain);
  for (size_t i = 0; i < j->nlayers; i++) mp_chain_free(j->layers[i]);
  free(j->layers);
  mp_diags_destroy(&j->diags);
  mp_policy_diags_destroy(&j->policy);
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
    d->gen.current = j; /* the policy analysis's findings go to it */
    j->rc = mp_stepgen_register_ahead(d->sg, g, j->registration, j->ahead,
                                      &j->chain, &j->diags, &j->err);
    d->gen.current = NULL;
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
    j->rc = mp_stepgen_deletes(d->sg, &j->layers, &j->nlayers, &j->diags,
                               &j->err);
  /* A preview shows the deletes it reported as errors, then fails. */
  if (j->rc == 0 && mp_stepgen_preview_failed(d->sg)) j->late_fail = 1;
}

static gen_job *pop(mp_queue *h) {
  mp_queue *q = mp_queue_pop(h);
  return q ? mp_queue_data(q, gen_job, link) : NULL;
}

/* Generator thread: until the GEN_QUIT job. */
static void thread_main(void *arg) {
  deploy *d = arg;
  gen *g = &d->gen;
  for (;;) {
    uv_mutex_lock(&g->mu);
    while (mp_queue_empty(&g->in)) uv_cond_wait(&g->cv, &g->mu);
    gen_job *j = pop(&g->in);
    uv_mutex_unlock(&g->mu);
    if (j->kind == GEN_QUIT) {
      free(j);
      return;
    }
    run_job(d, j);
    uv_mutex_lock(&g->mu);
    mp_queue_push(&g->out, &j->link);
    uv_mutex_unlock(&g->mu);
    uv_async_send(&g->wake);
  }
}

/* Loop thread: every answer queued so far. */
static void on_wake(uv_async_t *h) {
  deploy *d = h->data;
  gen *g = &d->gen;
  for (;;) {
    uv_mutex_lock(&g->mu);
    gen_job *j = pop(&g->out);
    uv_mutex_unlock(&g->mu);
    if (j == NULL) break;
    mp__deploy_ahead_answered(d, j);
    mp__deploy_on_answer(d, j);
    mp__deploy_gen_job_free(j);
  }
  mp__deploy_ahead_resume(d);
  mp__deploy_advance(d);
}

int mp__deploy_gen_start(deploy *d, mp_err *err) {
  gen *g = &d->gen;
  mp_queue_init(&g->in);
  mp_queue_init(&g->out);
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
  mp_queue_push(&g->in, &j->link);
  uv_cond_signal(&g->cv);
  uv_mutex_unlock(&g->mu);
}

void mp__deploy_gen_join(deploy *d) {
  gen *g = &d->gen;
  if (g->started) uv_thread_join(&g->thread);
  gen_job *j;
  while ((j = pop(&g->in))) mp__deploy_gen_job_free(j);
  while ((j = pop(&g->out))) mp__deploy_gen_job_free(j);
  uv_cond_destroy(&g->cv);
  uv_mutex_destroy(&g->mu);
}
