/* Stack locks for many machines: one row per locked stack naming the
 * holder (pid, host, time, operation, as with SQLite) and identifying it
 * by a random token, its database session and a lease.
 *
 * A lock is taken inside a transaction that holds the stack's row (FOR NO
 * KEY UPDATE), so two runners racing for one stack are serialised: the
 * first inserts its row, the second then sees it and fails at once with
 * the holder's name. The holder is alive while its database session
 * exists and its lease runs; the lease is pushed forward by every write
 * (mp__pg_lock_renew) and by the renewal thread (pg_lease.c). A holder
 * whose session ended (the process died: its connection closed) or whose
 * lease expired (a frozen process, a machine cut off) is stale, and the
 * next runner takes the lock over naming it. */
#include "state/pg_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* How long to wait for the session of a holder that died on this host. */
#define DEAD_WAIT_TRIES 100
#define DEAD_WAIT_US 10000

static void copy_col(const PGresult *r, int col, char *dst, size_t n) {
  snprintf(dst, n, "%s", PQgetisnull(r, 0, col) ? "" : PQgetvalue(r, 0, col));
}

/* One read of the lock row of |stack_id| (see read_lock). */
static int read_lock_once(mp_pg *s, int64_t stack_id, mp_lock_info *info,
                          mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  PGresult *r =
      mp__pg_run(s, PQ_LOCK_GET, &p, "cannot read the stack lock", err);
  if (r == NULL)
    return err->code;
  int found = PQntuples(r) > 0;
  if (found) {
    memset(info, 0, sizeof(*info));
    info->pid = mp__pg_int64(r, 0, 0);
    copy_col(r, 1, info->host, sizeof(info->host));
    copy_col(r, 2, info->time, sizeof(info->time));
    copy_col(r, 3, info->operation, sizeof(info->operation));
    if (mp__pg_bool(r, 0, 5))
      snprintf(info->gone, sizeof(info->gone),
               "its database session has ended");
    else if (mp__pg_bool(r, 0, 4))
      snprintf(info->gone, sizeof(info->gone), "its lease expired at %s",
               PQgetvalue(r, 0, 6));
  }
  PQclear(r);
  return found;
}

/* 1 if the holder is a process of this host that no longer exists. */
static int holder_dead_here(const mp_pg *s, const mp_lock_info *info) {
  if (strcmp(info->host, s->host) != 0 || info->pid <= 0)
    return 0;
  return kill((pid_t)info->pid, 0) != 0 && errno == ESRCH;
}

/* Reads the lock row of |stack_id|: 1 and |info| if there is one (with
 * info->gone set when its holder is stale), 0 if not, or an MP_E code.
 *
 * A holder that just died on this host still has a session for the few
 * moments the server takes to notice its closed connection. Its session,
 * not its pid, decides (a pid of another pid namespace that happens to
 * share our host name proves nothing), but it is worth waiting up to
 * DEAD_WAIT_TRIES * DEAD_WAIT_US for that session to end: a crashed
 * runner's stack is then taken over at once, as with SQLite. */
static int read_lock(mp_pg *s, int64_t stack_id, mp_lock_info *info,
                     mp_err *err) {
  int rc = read_lock_once(s, stack_id, info, err);
  for (int i = 0; rc == 1 && info->gone[0] == '\0' && i < DEAD_WAIT_TRIES &&
                  holder_dead_here(s, info);
       i++) {
    usleep(DEAD_WAIT_US);
    /* pg_stat_activity is read once per transaction unless cleared. */
    if (mp__pg_simple(s, "SELECT pg_stat_clear_snapshot()",
                      "cannot read the stack lock", err) < 0)
      return err->code;
    rc = read_lock_once(s, stack_id, info, err);
  }
  return rc;
}

static int delete_lock(mp_pg *s, int64_t stack_id, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  return mp__pg_exec(s, PQ_LOCK_DELETE, &p, "cannot break the stack lock", NULL,
                     err);
}

/* A fresh random token: 32 hex digits. */
static void new_token(char *token) {
  unsigned char b[16];
  if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
    MP_BUG("no randomness for a lock token");
  for (size_t i = 0; i < sizeof(b); i++)
    snprintf(token + 2 * i, 3, "%02x", b[i]);
}

int mp__pg_lock_acquire(mp_pg *s, int64_t stack_id, const char *label,
                        const char *operation, char *token, mp_lock_info *stale,
                        mp_err *err) {
  mp_lock_info info;
  int rc = read_lock(s, stack_id, &info, err);
  if (rc < 0)
    return rc;
  if (rc == 1) {
    if (info.gone[0] == '\0')
      return mp__store_busy(label, &info, err);
    if (delete_lock(s, stack_id, err) < 0)
      return err->code;
    if (stale)
      *stale = info;
  }
  new_token(token);
  char *now = mp_now_rfc3339();
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  mp__pg_int(&p, s->pid);
  mp__pg_text(&p, s->host);
  mp__pg_text(&p, now);
  mp__pg_text(&p, operation);
  mp__pg_text(&p, token);
  mp__pg_int(&p, s->lease_ms);
  rc = mp__pg_exec(s, PQ_LOCK_INSERT, &p, "cannot lock the stack", NULL, err);
  free(now);
  return rc;
}

int mp__pg_lock_check_free(mp_pg *s, int64_t stack_id, const char *label,
                           mp_err *err) {
  mp_lock_info info;
  int rc = read_lock(s, stack_id, &info, err);
  if (rc <= 0 || info.gone[0] != '\0')
    return rc < 0 ? rc : 0;
  return mp__store_busy(label, &info, err);
}

void mp__pg_lock_renew_stmt(mp_pg_update *u, mp_pg_stmt *out) {
  out->id = PQ_LOCK_RENEW;
  out->what = "cannot renew the stack lock";
  mp__pg_int(&out->p, u->stack_id);
  mp__pg_text(&out->p, u->token);
  mp__pg_int(&out->p, u->s->lease_ms);
}

int mp__pg_lock_release(mp_pg_update *u, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, u->stack_id);
  mp__pg_text(&p, u->token);
  return mp__pg_exec(u->s, PQ_LOCK_RELEASE, &p, "cannot unlock the stack", NULL,
                     err);
}

int mp__pg_lock_get(mp_store *base, mp_stack_ref st, mp_lock_info *info,
                    mp_err *err) {
  mp_pg *s = mp__pg(base);
  int64_t id;
  if (mp__pg_stack_id(s, st, MP__PG_READ, &id, err) < 0)
    return err->code;
  int rc = read_lock(s, id, info, err);
  if (rc == 1)
    info->gone[0] = '\0'; /* lock_get reports the holder, not a verdict */
  return rc;
}

int mp__pg_lock_break(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_pg *s = mp__pg(base);
  int64_t id;
  if (mp__pg_stack_id(s, st, MP__PG_READ, &id, err) < 0)
    return err->code;
  return delete_lock(s, id, err);
}
