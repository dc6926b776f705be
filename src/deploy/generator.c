/* The step generator's thread: the only code of the deployment that
 * crosses threads. The loop thread queues jobs (|in|) and signals the
 * condition variable; the thread takes them one at a time, runs the step
 * generator on them, queues the answers (|out|) and wakes the loop with
 * d->gen.wake, whose callback drains every answer (wake-ups coalesce).
 * The mutex guards the two queues and nothing else: it is held only to
 * push or pop. The generator itself (d->sg) is touched only on this
 * thread once it runs; the prior snapshot it reads is not written while
 * the deployment runs. */
#include <stdlib.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

static void job_free(gen_job *j) {
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
    j->rc = mp_stepgen_register(d->sg, g, j->registration, &j->chain,
                                &j->diags, &j->err);
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
}

static void push(gen_job **head, gen_job **tail, gen_job *j) {
  j->next = NULL;
  if (*tail) (*tail)->next = j;
  else *head = j;
  *tail = j;
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

/* Loop thread: every answer queued so far. */
static void on_wake(uv_async_t *h) {
  deploy *d = h->data;
  gen *g = &d->gen;
  for (;;) {
    uv_mutex_lock(&g->mu);
    gen_job *j = pop(&g->out, &g->out_tail);
    uv_mutex_unlock(&g->mu);
    if (j == NULL) break;
    mp__deploy_on_answer(d, j);
    job_free(j);
  }
  mp__deploy_advance(d);
}

int mp__deploy_gen_start(deploy *d, mp_err *err) {
  gen *g = &d->gen;
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
  uv_cond_destroy(&g->cv);
  uv_mutex_destroy(&g->mu);
}
