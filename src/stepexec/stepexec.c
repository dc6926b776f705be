/* Chain scheduling and the state writes around each step. */
#include "stepexec/stepexec.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/queue.h"
#include "engine/urn.h"
#include "stepexec/exec_int.h"

typedef struct run {
  mp_chain *chain;
  size_t next; /* index of the step to run */
  mp_stepexec *ex;
  uv_work_t work;
  mp_step *step;   /* the step on the worker */
  mp_err err;      /* the worker's error */
  int rc;
  int partial;     /* the failed call still produced a resource */
  int dropped;     /* cancelled before it started: it only ends */
  /* The store's ticket of the step's last write when it may not be
   * durable yet (a file:// stack writes in the background): the provider
   * call waits for its pending operation, the step's completion for its
   * result, both on the worker pool so that the loop goes on. */
  int64_t ticket;
  int finishing;   /* the result is written: only its completion is left */
  int holds_slot;  /* counts in ex->calling */
  uv_work_t wait;  /* the wait for the result's ticket */
  mp_queue link; /* in |waiting| or |ready| */
} run;

struct mp_stepexec { /* Owner: loop thread. */
  mp_stepexec_opts o;
  /* Runs while there is something to start or to finish: the loop, never
   * the call that submitted the work, runs the hooks (as libuv never runs
   * a callback inside the call that started it). */
  uv_idle_t drain;
  mp_queue waiting; /* chains not started yet */
  mp_queue ready;   /* runs whose step ended (or that were dropped) */
  mp_queue resume;  /* runs whose next step waits for a slot */
  size_t running;   /* started (ready ones included) */
  /* Runs that hold one of the |parallel| slots: from a step's start until
   * its provider call is over. A step whose result is still being written
   * (a file:// or bucket stack) makes no provider call and gives its slot
   * back, so that the next steps' pending operations share that write. */
  size_t calling;
  size_t queued;    /* waiting */
  int canceled;
  int draining;     /* drain() is running (it never nests) */
};

static run *pop_run(mp_queue *h) {
  mp_queue *q = mp_queue_pop(h);
  return q ? mp_queue_data(q, run, link) : NULL;
}

static void on_drain(uv_idle_t *h);

mp_stepexec *mp_stepexec_new(const mp_stepexec_opts *o) {
  mp_stepexec *ex = mp_xcalloc(1, sizeof(*ex));
  mp_queue_init(&ex->waiting);
  mp_queue_init(&ex->ready);
  mp_queue_init(&ex->resume);
  ex->o = *o;
  if (ex->o.parallel < 1) ex->o.parallel = 1;
  uv_idle_init(o->loop, &ex->drain);
  ex->drain.data = ex;
  return ex;
}

static void on_closed(uv_handle_t *h) { free(h->data); }

void mp_stepexec_close(mp_stepexec *ex) {
  if (ex == NULL) return;
  assert(mp_stepexec_busy(ex) == 0);
  uv_close((uv_handle_t *)&ex->drain, on_closed);
}

size_t mp_stepexec_busy(const mp_stepexec *ex) {
  return ex->running + ex->queued;
}

static void step_begin(run *r);
static void step_end(run *r);
static void step_finish(run *r);

/* The loop is to drain the executor on its next turn. */
static void wake(mp_stepexec *ex) {
  if (!uv_is_active((uv_handle_t *)&ex->drain))
    uv_idle_start(&ex->drain, on_drain);
}

/* |r|'s current step ended: the loop finishes it. */
static void ready(run *r) {
  mp_queue_push(&r->ex->ready, &r->link);
  wake(r->ex);
}

static void take_slot(run *r) {
  r->ex->calling++;
  r->holds_slot = 1;
}

static void give_slot(run *r) {
  if (!r->holds_slot) return;
  r->ex->calling--;
  r->holds_slot = 0;
}

static void chain_done(run *r, int failed) {
  mp_stepexec *ex = r->ex;
  give_slot(r);
  ex->running--;
  if (ex->o.hooks.on_chain_done)
    ex->o.hooks.on_chain_done(ex->o.hooks.ud, r->chain, failed);
  mp_chain_free(r->chain);
  free(r);
}

/* |r| will not start: it only ends, with on_chain_done -1. */
static void drop(run *r) {
  r->ex->running++;
  r->dropped = 1;
  ready(r);
}

void mp_stepexec_submit(mp_stepexec *ex, mp_chain *c) {
  run *r = mp_xcalloc(1, sizeof(*r));
  r->chain = c;
  r->ex = ex;
  if (ex->canceled) {
    drop(r);
    return;
  }
  mp_queue_push(&ex->waiting, &r->link);
  ex->queued++;
  wake(ex);
}

/* Finishes what is ready before starting more, so that a chain whose
 * steps make no provider call runs to its end before the next one starts,
 * in submission order. Called only from the loop's own callbacks (the
 * idle handle, a worker's completion), never from an entry point of this
 * module, so a hook never runs inside the call that started its work. */
static void drain(mp_stepexec *ex) {
  assert(!ex->draining);
  ex->draining = 1;
  for (;;) {
    run *r = pop_run(&ex->ready);
    if (r) {
      if (r->dropped) chain_done(r, -1);
      else if (r->finishing) step_finish(r);
      else step_end(r);
      continue;
    }
    if ((int)ex->calling >= ex->o.parallel) break;
    /* a started chain's next step before a new chain */
    r = pop_run(&ex->resume);
    if (r) {
      if (ex->canceled) {
        chain_done(r, -1);
        continue;
      }
      take_slot(r);
      step_begin(r);
      continue;
    }
    if (mp_queue_empty(&ex->waiting)) break;
    r = pop_run(&ex->waiting);
    ex->queued--;
    ex->running++;
    take_slot(r);
    step_begin(r);
  }
  ex->draining = 0;
}

static void on_drain(uv_idle_t *h) {
  uv_idle_stop(h);
  drain(h->data);
}

void mp_stepexec_cancel(mp_stepexec *ex) {
  ex->canceled = 1;
  /* A chain submitted while there was room for it counts as started: its
   * first step begins on the loop's next turn, as it would have had it
   * begun inside the submit. The chains waiting for room are dropped. */
  size_t room = (size_t)ex->o.parallel > ex->calling
                    ? (size_t)ex->o.parallel - ex->calling
                    : 0;
  mp_queue keep;
  mp_queue_init(&keep);
  run *r;
  while ((r = pop_run(&ex->waiting))) {
    if (room > 0) {
      room--;
      mp_queue_push(&keep, &r->link);
      continue;
    }
    ex->queued--;
    drop(r);
  }
  mp_queue_move(&keep, &ex->waiting);
}

/* ---- store writes ---- */

/* The pending operation written before |s|'s provider call, if any. */
static int pending_type(const mp_step *s, mp_pending_type *t) {
  int p = mp_op_info_of(s->op)->pending;
  if ((s->flags & MP_STEP_NO_CALL) || p < 0) return 0;
  *t = (mp_pending_type)p;
  return 1;
}

typedef struct changes {
  mp_store_change *c; /* grown as needed */
  size_t n, cap;
  mp_resource *scratch; /* a marked copy of the old state, owned */
} changes;

static void add(changes *ch, mp_store_change_kind k, mp_resource *res,
                int64_t row) {
  if (ch->n == ch->cap) {
    ch->cap = ch->cap ? ch->cap * 2 : 4;
    ch->c = mp_xreallocarray(ch->c, ch->cap, sizeof(*ch->c));
  }
  mp_store_change *c = &ch->c[ch->n++];
  memset(c, 0, sizeof(*c));
  c->kind = k;
  c->res = res;
  c->row = row;
}

/* The old row's fate when the step succeeds. */
static void old_effect(changes *ch, mp_step *s) {
  if (s->old == NULL || s->old->row == 0) return;
  if (s->flags & (MP_STEP_MARK_OLD_DELETE | MP_STEP_MARK_OLD_PENDING)) {
    ch->scratch = mp_resource_dup(s->old);
    if (s->flags & MP_STEP_MARK_OLD_DELETE) ch->scratch->delete_ = 1;
    else ch->scratch->pending_replacement = 1;
    add(ch, MP_STORE_UPDATE, ch->scratch, 0);
  } else {
    add(ch, MP_STORE_DELETE, NULL, s->old->row);
  }
}

/* 1 if |s|, a `same` step, leaves its stored row exactly as it is. */
static int same_unchanged(const mp_step *s) {
  return s->old && s->new_ && s->old->row != 0 && s->nrewrites == 0 &&
         !(s->flags & (MP_STEP_MARK_OLD_DELETE | MP_STEP_MARK_OLD_PENDING)) &&
         mp_resource_equal(s->old, s->new_);
}

static void success_changes(changes *ch, mp_step *s) {
  if (s->pending_row) add(ch, MP_STORE_PENDING_REMOVE, NULL, s->pending_row);
  if (s->gone_row) add(ch, MP_STORE_DELETE, NULL, s->gone_row);
  if (s->flags & MP_STEP_NO_WRITE) return;
  switch (s->op) {
  case MP_OP_REFRESH: /* written once, at the end of the refresh */
    if (!(s->flags & MP_STEP_REFRESH_WRITES) || s->old == NULL ||
        s->old->row == 0)
      break;
    if (s->new_ == NULL) break; /* gone: the next step's gone_row */
    s->new_->row = s->old->row;
    add(ch, MP_STORE_UPDATE, s->new_, 0);
    break;
  case MP_OP_REPLACE:
    break;
  case MP_OP_SAME:
    if (s->flags & MP_STEP_SKIPPED_CREATE) break;
    if (same_unchanged(s)) {
      /* The stored row already holds the new state: only its place may
       * have to move, and only once a later write needs it there. */
      add(ch, MP_STORE_MOVE_LAZY, NULL, s->old->row);
      s->new_->row = s->old->row;
      break;
    }
    old_effect(ch, s);
    add(ch, MP_STORE_INSERT_NEW, s->new_, 0);
    for (size_t i = 0; i < s->nrewrites; i++)
      add(ch, MP_STORE_UPDATE, s->rewrites[i], 0);
    break;
  case MP_OP_CREATE:
  case MP_OP_UPDATE:
  case MP_OP_CREATE_REPLACEMENT:
  case MP_OP_READ:
  case MP_OP_READ_REPLACEMENT:
  case MP_OP_IMPORT:
  case MP_OP_IMPORT_REPLACEMENT:
    old_effect(ch, s);
    add(ch, MP_STORE_INSERT_NEW, s->new_, 0);
    for (size_t i = 0; i < s->nrewrites; i++)
      add(ch, MP_STORE_UPDATE, s->rewrites[i], 0);
    break;
  default: /* deletes, discards, remove-pending-replace */
    old_effect(ch, s);
    break;
  }
}

/* Writes |ch|; *ticket (if not NULL) may come back > 0 for a write not
 * durable yet (mp_store_apply_begin), else the write is durable. */
static int apply_deferred(mp_stepexec *ex, changes *ch, int64_t *ticket,
                          mp_err *err) {
  int rc = 0;
  int64_t t = 0;
  if (ex->o.store && ch->n > 0) {
    rc = mp_store_apply_begin(ex->o.store, ch->c, ch->n, &t, err);
    if (rc == 0 && ticket == NULL) rc = mp_store_wait(ex->o.store, t, err);
  }
  if (ticket) *ticket = rc == 0 ? t : 0;
  mp_resource_free(ch->scratch);
  ch->scratch = NULL;
  free(ch->c);
  ch->c = NULL;
  ch->n = ch->cap = 0;
  return rc;
}

static int apply(mp_stepexec *ex, changes *ch, mp_err *err) {
  return apply_deferred(ex, ch, NULL, err);
}

/* ---- one step ---- */

static void work_cb(uv_work_t *w) {
  run *r = mp_container_of(w, run, work);
  mp_err_clear(&r->err);
  r->partial = 0;
  const mp_stepexec_hooks *h = &r->ex->o.hooks;
  /* the pending operation is on disk before the world changes */
  r->rc = mp_store_wait(r->ex->o.store, r->ticket, &r->err);
  r->ticket = 0;
  if (r->rc < 0) return;
  int hooks = h->resource_hooks && mp_step_has_hooks(r->step);
  r->rc = hooks ? h->resource_hooks(h->ud, r->step, 0, &r->err) : 0;
  if (r->rc == 0)
    r->rc = mp__exec_call(r->ex->o.registry, h, r->step, r->ex->o.preview,
                          r->ex->o.ignore_protect, &r->partial, &r->err);
  if (r->rc == 0 && hooks) r->rc = h->resource_hooks(h->ud, r->step, 1, &r->err);
}

static void wait_cb(uv_work_t *w) {
  run *r = mp_container_of(w, run, wait);
  r->rc = mp_store_wait(r->ex->o.store, r->ticket, &r->err);
}

static void after_wait_cb(uv_work_t *w, int status) {
  run *r = mp_container_of(w, run, wait);
  if (status == UV_ECANCELED) /* never ran: wait here */
    r->rc = mp_store_wait(r->ex->o.store, r->ticket, &r->err);
  r->ticket = 0;
  mp_queue_push(&r->ex->ready, &r->link);
  drain(r->ex);
}

static void step_failed(run *r, mp_step *s, const char *msg) {
  mp_stepexec *ex = r->ex;
  s->failed = 1;
  free(s->error);
  s->error = mp_xstrdup(msg);
  if (ex->o.hooks.on_step)
    ex->o.hooks.on_step(ex->o.hooks.ud, MP_EVENT_RES_OP_FAILED, s, msg);
  chain_done(r, 1);
}

/* A step made after an import, about the imported state |s->new_|: old
 * is that state, new the same with the program's checked inputs. */
static mp_step *after_import(const mp_step *s, mp_step_op op) {
  mp_step *u = mp_step_new(op, s->urn);
  u->old = mp_resource_dup(s->new_);
  u->new_ = mp_resource_dup(s->new_);
  mp_value_free(u->new_->inputs);
  u->new_->inputs = mp_value_dup(s->goal_inputs);
  u->provider = mp_xstrdup(s->provider);
  const mp_res_diff *d = s->import_diff;
  mp_strv_copy(&u->keys, &d->keys);
  mp_strv_copy(&u->diffs, &d->diffs);
  u->has_detailed = d->has_detailed;
  for (size_t i = 0; i < d->detailed.len; i++)
    mp_diff_add(&u->detailed, d->detailed.items[i].path,
                d->detailed.items[i].kind, d->detailed.items[i].input_diff);
  return u;
}

/* What follows an import in its chain, from the Diff its worker made
 * (exec_call.c, import_diff), as Pulumi's continueStepsFromImport goes on
 * from the imported state: no change, nothing (the import answers the
 * registration); a change, an update to the program's inputs, which then
 * answers it (S67, X66); a replacement, which would change the id the
 * program names, an error in an update (the import stays recorded) and a
 * warning in a preview, which shows the replacement. Returns -1 when the
 * chain stops (r->chain->error says why). */
static int import_followup(run *r, mp_step *s) {
  if ((s->op != MP_OP_IMPORT && s->op != MP_OP_IMPORT_REPLACEMENT) ||
      s->import_diff == NULL || s->new_ == NULL)
    return 0;
  const mp_res_diff *d = s->import_diff;
  mp_stepexec *ex = r->ex;
  if (d->replace) {
    char *msg = mp_res_diff_import_replace_msg(d, s->new_->inputs,
                                               s->goal_inputs);
    if (!ex->o.preview) {
      r->chain->error = msg;
      r->chain->error_urn = mp_xstrdup(s->urn);
      return -1;
    }
    if (ex->o.hooks.on_step)
      ex->o.hooks.on_step(ex->o.hooks.ud, MP_EVENT_DIAGNOSTIC, s, msg);
    free(msg);
    mp_step *cr = after_import(s, MP_OP_CREATE_REPLACEMENT);
    free(cr->new_->id);
    cr->new_->id = NULL;
    cr->flags = s->flags & MP_STEP_REPLY;
    mp_step *rp = after_import(s, MP_OP_REPLACE);
    rp->flags = MP_STEP_NO_CALL;
    s->flags &= ~(unsigned)MP_STEP_REPLY;
    mp_chain_insert(r->chain, r->next + 1, cr);
    mp_chain_insert(r->chain, r->next + 2, rp);
    return 0;
  }
  if (!d->changed && s->new_->init_errors.len == 0) return 0;
  mp_step *u = after_import(s, MP_OP_UPDATE);
  u->flags = s->flags & MP_STEP_REPLY;
  s->flags &= ~(unsigned)MP_STEP_REPLY;
  mp_chain_insert(r->chain, r->next + 1, u);
  return 0;
}

/* The provider's warnings about |s|, as diagnostics on its resource;
 * shown once. */
static void report_warnings(mp_stepexec *ex, mp_step *s) {
  for (size_t i = 0; ex->o.hooks.on_step && i < s->warnings.len; i++)
    ex->o.hooks.on_step(ex->o.hooks.ud, MP_EVENT_DIAGNOSTIC, s,
                        s->warnings.items[i]);
  mp_strv_destroy(&s->warnings);
}

static void step_end(run *r) {
  mp_stepexec *ex = r->ex;
  mp_step *s = r->step;
  changes ch = {0};
  report_warnings(ex, s);
  mp_err werr;
  mp_err_clear(&werr);
  if (r->rc < 0) {
    if (s->pending_row) add(&ch, MP_STORE_PENDING_REMOVE, NULL, s->pending_row);
    if (r->partial && s->new_) {
      /* The resource exists: record it with its init errors (S13, S14). */
      if (s->op == MP_OP_UPDATE) old_effect(&ch, s);
      add(&ch, MP_STORE_INSERT_NEW, s->new_, 0);
    }
    if (apply(ex, &ch, &werr) < 0) {
      step_failed(r, s, werr.msg);
      return;
    }
    step_failed(r, s, r->err.msg);
    return;
  }
  success_changes(&ch, s);
  if (apply_deferred(ex, &ch, &r->ticket, &werr) < 0) {
    step_failed(r, s, werr.msg);
    return;
  }
  r->finishing = 1;
  if (r->ticket == 0) {
    step_finish(r);
    return;
  }
  give_slot(r); /* the drain that called us starts the next chain */
  int rc = uv_queue_work(ex->o.loop, &r->wait, wait_cb, after_wait_cb);
  if (rc < 0) { /* wait here */
    r->rc = mp_store_wait(ex->o.store, r->ticket, &r->err);
    r->ticket = 0;
    step_finish(r);
  }
}

/* The step's result is durable (or its write failed: r->rc): what it
 * unblocks goes on. */
static void step_finish(run *r) {
  mp_stepexec *ex = r->ex;
  mp_step *s = r->step;
  r->finishing = 0;
  if (r->rc < 0) {
    step_failed(r, s, r->err.msg);
    return;
  }
  int stop = import_followup(r, s);
  if (ex->o.hooks.on_step)
    ex->o.hooks.on_step(ex->o.hooks.ud, MP_EVENT_RES_OUTPUTS, s, NULL);
  if (stop < 0) {
    chain_done(r, 1);
    return;
  }
  if ((s->flags & MP_STEP_REPLY) && ex->o.hooks.on_reply)
    ex->o.hooks.on_reply(ex->o.hooks.ud, r->chain, s);
  r->next++;
  if (r->next >= r->chain->len || ex->canceled) {
    chain_done(r, r->next >= r->chain->len ? 0 : -1);
    return;
  }
  if (!r->holds_slot) {
    mp_queue_push(&ex->resume, &r->link);
    wake(ex);
    return;
  }
  step_begin(r);
}

static void after_work_cb(uv_work_t *w, int status) {
  run *r = mp_container_of(w, run, work);
  if (status == UV_ECANCELED) {
    r->rc = mp_err_set(&r->err, MP_ECANCELED, "step canceled");
    r->partial = 0;
  }
  /* The loop's callback: finish the step now, as libuv drains its own
   * queue of finished work. */
  mp_queue_push(&r->ex->ready, &r->link);
  drain(r->ex);
}

static void step_begin(run *r) {
  mp_stepexec *ex = r->ex;
  mp_step *s = r->chain->steps[r->next];
  r->step = s;
  if (ex->o.hooks.on_step)
    ex->o.hooks.on_step(ex->o.hooks.ud, MP_EVENT_RESOURCE_PRE, s, NULL);
  mp_pending_type t;
  if (ex->o.store && pending_type(s, &t)) {
    changes ch = {0};
    mp_err werr;
    mp_err_clear(&werr);
    mp_resource *res = s->new_ ? s->new_ : s->old;
    add(&ch, MP_STORE_PENDING_ADD, res, 0);
    ch.c[0].type = t;
    ch.c[0].pending_row = &s->pending_row;
    if (apply_deferred(ex, &ch, &r->ticket, &werr) < 0) {
      step_failed(r, s, werr.msg);
      return;
    }
  }
  if (!mp__exec_needs_worker(s)) {
    if (mp_store_wait(ex->o.store, r->ticket, &r->err) < 0) {
      r->ticket = 0;
      step_failed(r, s, r->err.msg);
      return;
    }
    r->ticket = 0;
    /* no provider call here, so no error hook (they would block the
     * loop) */
    r->rc = mp__exec_call(ex->o.registry, NULL, s, ex->o.preview,
                          ex->o.ignore_protect, &r->partial, &r->err);
    ready(r);
    return;
  }
  int rc = uv_queue_work(ex->o.loop, &r->work, work_cb, after_work_cb);
  if (rc < 0) {
    mp_err e;
    mp_err_from_uv(&e, rc, "cannot schedule step for '%s'", s->urn);
    step_failed(r, s, e.msg);
  }
}
