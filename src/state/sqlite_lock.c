/* Stack locks: one row per locked stack naming the holder (pid, host,
 * time, operation). Taken atomically inside BEGIN IMMEDIATE; a lock whose
 * holder is a dead process on this host is stale and broken. */
#include "state/sqlite_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_col(sqlite3_stmt *q, int i, char *dst, size_t n) {
  const unsigned char *t = sqlite3_column_text(q, i);
  snprintf(dst, n, "%s", t ? (const char *)t : "");
}

/* Reads the lock row of |stack_id|: 1 and |info| if there is one, 0 if
 * not, or an MP_E code. */
static int read_lock(mp_sqlite *s, int64_t stack_id, mp_lock_info *info,
                     mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_LOCK_GET, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    memset(info, 0, sizeof(*info));
    info->pid = sqlite3_column_int64(q, 0);
    copy_col(q, 1, info->host, sizeof(info->host));
    copy_col(q, 2, info->time, sizeof(info->time));
    copy_col(q, 3, info->operation, sizeof(info->operation));
  }
  mp__stmt_done(q);
  if (rc == SQLITE_ROW)
    return 1;
  if (rc == SQLITE_DONE)
    return 0;
  return mp__sql_err(s, "cannot read the stack lock", err);
}

/* 1 if the holder is certainly gone: a process of this host that no longer
 * exists. A holder on another host is never presumed dead. */
static int holder_is_stale(const mp_sqlite *s, const mp_lock_info *info) {
  if (strcmp(info->host, s->host) != 0 || info->pid <= 0)
    return 0;
  return kill((pid_t)info->pid, 0) != 0 && errno == ESRCH;
}

static int delete_lock(mp_sqlite *s, int64_t stack_id, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_LOCK_DELETE, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  return mp__stmt_exec(s, q, "cannot break the stack lock", err);
}

int mp__lock_acquire(mp_sqlite *s, int64_t stack_id, const char *label,
                     const char *operation, mp_lock_info *stale, mp_err *err) {
  mp_lock_info info;
  int rc = read_lock(s, stack_id, &info, err);
  if (rc < 0)
    return rc;
  if (rc == 1) {
    if (!holder_is_stale(s, &info))
      return mp__store_busy(label, &info, err);
    if (delete_lock(s, stack_id, err) < 0)
      return err->code;
    if (stale) {
      *stale = info;
      snprintf(stale->gone, sizeof(stale->gone), "that process is gone");
    }
  }
  sqlite3_stmt *q = mp__stmt(s, ST_LOCK_INSERT, err);
  if (q == NULL)
    return err->code;
  char *now = mp_now_rfc3339();
  sqlite3_bind_int64(q, 1, stack_id);
  sqlite3_bind_int64(q, 2, s->pid);
  mp__bind_text(q, 3, s->host);
  mp__bind_text(q, 4, now);
  mp__bind_text(q, 5, operation);
  rc = mp__stmt_exec(s, q, "cannot lock the stack", err);
  free(now);
  return rc;
}

int mp__lock_check_free(mp_sqlite *s, int64_t stack_id, const char *label,
                        mp_err *err) {
  mp_lock_info info;
  int rc = read_lock(s, stack_id, &info, err);
  if (rc <= 0)
    return rc;
  if (holder_is_stale(s, &info))
    return 0;
  return mp__store_busy(label, &info, err);
}

int mp__lock_release(mp_sqlite *s, int64_t stack_id, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_LOCK_RELEASE, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  sqlite3_bind_int64(q, 2, s->pid);
  mp__bind_text(q, 3, s->host);
  return mp__stmt_exec(s, q, "cannot unlock the stack", err);
}

int mp__sqlite_lock_get(mp_store *base, mp_stack_ref st, mp_lock_info *info,
                        mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  return read_lock(s, id, info, err);
}

int mp__sqlite_lock_break(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  return delete_lock(s, id, err);
}
