/* The background writer of a DIY write session, which bounds its write cost.
 * A checkpoint file holds the whole stack, so each write costs the size
 * of the stack; writing one per step makes a create of n resources
 * O(n^2). Steps that run at once change the model one after the other;
 * this thread writes the model as it stands whenever it changed since its
 * last write, so every change made while a write was under way goes out
 * together in the next one (a group commit). The only wait on purpose is
 * gather's: for the changes the steps released by the last write are
 * about to make, as long as that write took at most.
 *
 * Each change gets a ticket; mp__diy_writer_wait(ticket) returns once a
 * write that includes it is in the file. These writes skip fsync (a
 * killed process loses nothing, the rename keeps the file whole) and the
 * session's end makes the last one durable: the guarantee of the SQLite
 * store's WAL with synchronous=NORMAL, where an fsync per step would
 * cost most of a create's time. The caller decides what waits: the
 * step executor holds a provider call until its pending operation is
 * durable, and a step's completion (its events, the answer to the
 * program, the next step of its chain) until its result is, so the file
 * never lags behind anything the engine acted on or showed.
 *
 * Threads: the model is changed (by the session's loop thread) only under
 * |mu|, and this thread takes a snapshot of it under |mu| (the small parts
 * printed, the entries' texts by reference); the checkpoint is printed from
 * the snapshot and written outside |mu|, so that a step's change never
 * waits for the print of megabytes. Meanwhile the model keeps every text it
 * drops (m->printing, mp__diy_model_bury) until this thread frees them,
 * under |mu| again. */
#include "state/diy_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How often the writer looks for its lock, in ns. Pulumi's DIY backend
 * looks for other locks once, when it takes its own (lock.go, Lock), and
 * never before a checkpoint write (state.go, saveCheckpoint): a lock
 * broken by `cancel` elsewhere goes unnoticed until the end. Looking at
 * most once a second stops this writer within a second of that, and
 * costs a create a request per second instead of one per write on a
 * bucket (a write is then one PUT). */
#define LOCK_CHECK_NS 1000000000LL

/* The longest a write waits for the changes that the steps the last write
 * released are about to make (see gather), in ns. */
#define GATHER_MAX_NS 20000000LL

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct diy_writer {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t wake;    /* a change, or stop */
  pthread_cond_t durable; /* |written| moved, or a write failed */
  int64_t changed;        /* the newest ticket handed out */
  int64_t written;        /* every ticket up to this one is on disk */
  int stop;
  int unsynced; /* written since the last sync */
  int failed;
  mp_err err; /* the failed write's error */
  mp_diy *s;
  diy_stack *m;
  char *label; /* the stack, as a lost lock's error names it */
  char *qualified; /* the checkpoint's "stack" */
};

/* Group commit of the steps the last write released. A write releases
 * the steps waiting for it, and each of them makes its next change at
 * once (its result after its pending operation, the next step of its
 * chain after its result); a write started on the first of those changes
 * leaves the others for the one after, so the steps fall into two groups
 * and each write carries one of them (557 writes for a create of 1,000
 * at --parallel 8, each carrying 4 changes, where 250 would do). So the
 * next write waits until as many changes as the last one carried (and so
 * released) have come since it ended, or for as long as the last write
 * took (GATHER_MAX_NS at most; a quarter of it gathered less: 1,821
 * checkpoint writes for a create of 3,000 on a folder, against 1,430 and
 * 2,485 before gathering, counted under strace), or the session stops:
 * a write that no step is about to join is not delayed, and nothing any
 * step waits for is held longer than that. Called with |mu| held and a
 * change to write. */
static void gather(diy_writer *w, int64_t carried, int64_t took_ns,
                   int64_t ended_ns, int64_t changed_at_end) {
  int64_t wait_ns = took_ns;
  if (wait_ns > GATHER_MAX_NS)
    wait_ns = GATHER_MAX_NS;
  int64_t deadline = ended_ns + wait_ns;
  while (!w->stop && !w->failed && w->changed - changed_at_end < carried) {
    if (mono_ns() >= deadline)
      return;
    struct timespec ts = {(time_t)(deadline / 1000000000LL),
                          (long)(deadline % 1000000000LL)};
    pthread_cond_timedwait(&w->wake, &w->mu, &ts);
  }
}

static void *writer_main(void *arg) {
  diy_writer *w = arg;
  /* kept from one write to the next: the checkpoint is about as long as
   * the last one, and growing a buffer of megabytes again costs copies */
  mp_buf text;
  mp_buf_init(&text);
  diy_snap snap;
  mp__diy_snap_init(&snap);
  /* the session has just taken the lock */
  int64_t lock_seen = mono_ns();
  /* the last write: the changes it carried, its time, its end */
  int64_t carried = 0, took_ns = 0, ended_ns = 0, changed_at_end = 0;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->stop && !w->failed && w->written == w->changed)
      pthread_cond_wait(&w->wake, &w->mu);
    if (w->failed || w->written == w->changed)
      break; /* stopping with nothing left, or broken */
    gather(w, carried, took_ns, ended_ns, changed_at_end);
    int64_t target = w->changed;
    int64_t began_ns = mono_ns();
    mp__diy_model_sort(w->m);
    mp__diy_snap_take(&snap, w->m, w->qualified);
    w->m->printing = 1;
    pthread_mutex_unlock(&w->mu);
    mp_buf_reset(&text);
    mp__diy_snap_print(&snap, &text);

    mp_err e;
    mp_err_clear(&e);
    mp_stack_ref st = {w->m->project, w->m->name};
    /* nothing is written once the lock is seen gone (`cancel` elsewhere;
     * LOCK_CHECK_NS). The checkpoint as the operation found it is the
     * .bak of the operation's writes: a copy per write costs a request
     * per step on a bucket (Pulumi's saveCheckpoint copies each time).
     * The file's identity is taken at the end, when others may write it
     * again. */
    int rc = 0;
    int64_t now = mono_ns();
    if (now - lock_seen >= LOCK_CHECK_NS) {
      rc = mp__diy_lock_held(w->s, st, w->label, &e);
      lock_seen = now;
    }
    if (rc == 0)
      rc = mp__diy_flush_write(w->s, w->m, &text, 0, !w->unsynced, NULL, &e);

    pthread_mutex_lock(&w->mu);
    mp__diy_model_unbury(w->m); /* the snapshot is no longer read */
    if (rc < 0) {
      w->failed = 1;
      w->err = e;
      w->m->broken = 1; /* the model is ahead of the file */
    } else {
      w->unsynced = 1;
      carried = target - w->written;
      w->written = target;
    }
    ended_ns = mono_ns();
    took_ns = ended_ns - began_ns;
    changed_at_end = w->changed;
    pthread_cond_broadcast(&w->durable);
  }
  if (!w->failed && w->unsynced) {
    /* the session ends: its last write goes to disk with its name */
    mp_err e;
    mp_err_clear(&e);
    char ident[96];
    pthread_mutex_unlock(&w->mu);
    int rc = mp__diy_flush_sync(w->s, w->m, ident, &e);
    pthread_mutex_lock(&w->mu);
    memcpy(w->m->ident, ident, sizeof(ident));
    if (rc < 0) {
      w->failed = 1;
      w->err = e;
    }
    w->unsynced = 0;
  }
  pthread_cond_broadcast(&w->durable);
  pthread_mutex_unlock(&w->mu);
  mp_buf_destroy(&text);
  mp__diy_snap_destroy(&snap);
  return NULL;
}

diy_writer *mp__diy_writer_start(mp_diy *s, diy_stack *m, const char *label,
                                 mp_err *err) {
  diy_writer *w = mp_xcalloc(1, sizeof(*w));
  w->s = s;
  w->m = m;
  w->label = mp_xstrdup(label);
  mp_stack_ref st = {m->project, m->name};
  w->qualified = mp__diy_qualified(s, st);
  pthread_mutex_init(&w->mu, NULL);
  pthread_condattr_t ca; /* gather's deadline is on the monotonic clock */
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->wake, &ca);
  pthread_condattr_destroy(&ca);
  pthread_cond_init(&w->durable, NULL);
  int rc = pthread_create(&w->thread, NULL, writer_main, w);
  if (rc != 0) {
    pthread_cond_destroy(&w->durable);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->mu);
    free(w->label);
    free(w->qualified);
    free(w);
    mp_err_set(err, MP_EIO,
               "cannot start the writer thread of stack '%s' (error %d)",
               m->name, rc);
    return NULL;
  }
  return w;
}

void mp__diy_writer_lock(diy_writer *w) { pthread_mutex_lock(&w->mu); }

void mp__diy_writer_unlock(diy_writer *w) { pthread_mutex_unlock(&w->mu); }

int64_t mp__diy_writer_changed(diy_writer *w) {
  w->changed++;
  pthread_cond_signal(&w->wake);
  return w->changed;
}

int mp__diy_writer_wait(diy_writer *w, int64_t ticket, mp_err *err) {
  pthread_mutex_lock(&w->mu);
  while (!w->failed && w->written < ticket)
    pthread_cond_wait(&w->durable, &w->mu);
  int rc = 0;
  if (w->written < ticket) {
    *err = w->err;
    rc = err->code;
  }
  pthread_mutex_unlock(&w->mu);
  return rc;
}

int mp__diy_writer_stop(diy_writer *w, mp_err *err) {
  if (w == NULL)
    return 0;
  pthread_mutex_lock(&w->mu);
  w->stop = 1;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->mu);
  pthread_join(w->thread, NULL);
  int rc = 0;
  if (w->failed) {
    *err = w->err;
    rc = err->code;
  }
  pthread_cond_destroy(&w->durable);
  pthread_cond_destroy(&w->wake);
  pthread_mutex_destroy(&w->mu);
  free(w->label);
  free(w->qualified);
  free(w);
  return rc;
}
