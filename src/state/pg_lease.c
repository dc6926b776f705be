/* Renewing a stack lock's lease while an update runs.
 *
 * Every write pushes the lease forward, but an update may write nothing
 * for a long time (a provider call of many minutes), and the store's
 * thread cannot be woken for it: the store knows no event loop, and the
 * engine must not know which backend it talks to. So each write session
 * of the PostgreSQL store starts one thread with its own connection (a
 * libpq connection is never shared between threads); the store's own
 * connection stays with its owner thread (docs/style.md, "Threads"). The
 * two threads share only |stop|, guarded by |mu| and signalled through
 * |cv|; nothing else crosses. When the process dies the thread dies with it
 * and the lease runs out, which is the point. */
#include "state/pg_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <uv.h>

struct mp_pg_lease {
  uv_thread_t thr;
  uv_mutex_t mu;
  uv_cond_t cv;
  int stop; /* guarded by mu: the session has ended */
  /* Read only once the thread runs. */
  char *url, *location;
  char stack_id[24], lease_ms[24];
  char token[40];
  uint64_t every_ns; /* time between renewals */
};

/* One renewal on *conn (connecting first if needed). Returns 1 if the lock
 * is still ours, 0 if it is not (stop renewing), -1 if the server could not
 * be reached (try again next time). */
static int renew(mp_pg_lease *l, PGconn **conn) {
  if (*conn == NULL) {
    mp_err ignored;
    *conn = mp__pg_connect(l->url, l->location, "minipulumi lease", &ignored);
    if (*conn == NULL)
      return -1;
  }
  const char *v[] = {l->stack_id, l->token, l->lease_ms};
  PGresult *r = PQexecParams(*conn, mp__pg_stmt_sql(PQ_LOCK_RENEW), 3, NULL, v,
                             NULL, NULL, 0);
  int rc = -1;
  if (PQresultStatus(r) == PGRES_COMMAND_OK)
    rc = strtoll(PQcmdTuples(r), NULL, 10) == 1;
  PQclear(r);
  if (rc < 0 && PQstatus(*conn) != CONNECTION_OK) {
    PQfinish(*conn);
    *conn = NULL;
  }
  return rc;
}

static void lease_main(void *arg) {
  mp_pg_lease *l = arg;
  PGconn *conn = NULL;
  uv_mutex_lock(&l->mu);
  while (!l->stop) {
    uv_cond_timedwait(&l->cv, &l->mu, l->every_ns);
    if (l->stop)
      break;
    uv_mutex_unlock(&l->mu);
    int ours = renew(l, &conn);
    uv_mutex_lock(&l->mu);
    if (ours == 0)
      break; /* broken by cancel or taken over: nothing left to renew */
  }
  uv_mutex_unlock(&l->mu);
  PQfinish(conn);
}

static void lease_free(mp_pg_lease *l) {
  free(l->url);
  free(l->location);
  free(l);
}

int mp__pg_lease_start(const char *url, const char *location, int64_t stack_id,
                       const char *token, int64_t lease_ms, mp_pg_lease **out,
                       mp_err *err) {
  *out = NULL;
  mp_pg_lease *l = mp_xcalloc(1, sizeof(*l));
  l->url = mp_xstrdup(url);
  l->location = mp_xstrdup(location);
  snprintf(l->stack_id, sizeof(l->stack_id), "%" PRId64, stack_id);
  snprintf(l->lease_ms, sizeof(l->lease_ms), "%" PRId64, lease_ms);
  snprintf(l->token, sizeof(l->token), "%s", token);
  l->every_ns = (uint64_t)lease_ms * 1000000u / 8u;
  int rc = uv_mutex_init(&l->mu);
  if (rc == 0 && (rc = uv_cond_init(&l->cv)) < 0)
    uv_mutex_destroy(&l->mu);
  if (rc == 0 && (rc = uv_thread_create(&l->thr, lease_main, l)) < 0) {
    uv_cond_destroy(&l->cv);
    uv_mutex_destroy(&l->mu);
  }
  if (rc < 0) {
    lease_free(l);
    return mp_err_from_uv(err, rc, "cannot start renewing the stack lock");
  }
  *out = l;
  return 0;
}

void mp__pg_lease_stop(mp_pg_lease *l) {
  if (l == NULL)
    return;
  uv_mutex_lock(&l->mu);
  l->stop = 1;
  uv_cond_signal(&l->cv);
  uv_mutex_unlock(&l->mu);
  uv_thread_join(&l->thr);
  uv_cond_destroy(&l->cv);
  uv_mutex_destroy(&l->mu);
  lease_free(l);
}
