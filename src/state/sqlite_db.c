/* The connection-level helpers of the SQLite store: the prepared statement
 * cache, transactions and error translation. */
#include "state/sqlite_int.h"

#include <stdlib.h>
#include <string.h>

/* Indexed by mp__stmt_id. Values are always bound, never formatted in. */
static const char *const stmt_sql[ST__COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_BEGIN_READ] = "BEGIN",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_STACK_ID] = "SELECT id FROM stacks WHERE project = ?1 AND name = ?2",
    [ST_STACK_INSERT] =
        "INSERT INTO stacks(project, name, created) VALUES (?1, ?2, ?3)",
    [ST_STACK_LIST] =
        "SELECT s.project, s.name,"
        " (SELECT count(*) FROM resources r WHERE r.stack_id = s.id),"
        " (SELECT max(u.end_time) FROM updates u WHERE u.stack_id = s.id)"
        " FROM stacks s WHERE ?1 IS NULL OR s.project = ?1"
        " ORDER BY s.project, s.name",
    [ST_STACK_COUNT] = "SELECT count(*) FROM resources WHERE stack_id = ?1",
    [ST_STACK_DELETE] = "DELETE FROM stacks WHERE id = ?1",
    [ST_STACK_RENAME] = "UPDATE stacks SET name = ?2 WHERE id = ?1",
    [ST_SELECTED_GET] = "SELECT name FROM selected WHERE project = ?1",
    [ST_SELECTED_SET] =
        "INSERT INTO selected(project, name) VALUES (?1, ?2)"
        " ON CONFLICT(project) DO UPDATE SET name = excluded.name",
    [ST_SELECTED_RENAME] =
        "UPDATE selected SET name = ?3 WHERE project = ?1 AND name = ?2",
    [ST_SELECTED_DELETE] =
        "DELETE FROM selected WHERE project = ?1 AND name = ?2",
    [ST_SECRETS_GET] =
        "SELECT secrets_type, secrets_state FROM stacks WHERE id = ?1",
    [ST_SECRETS_SET] =
        "UPDATE stacks SET secrets_type = ?2, secrets_state = ?3 WHERE id = ?1",
    [ST_RES_LOAD] =
        "SELECT id, json FROM resources WHERE stack_id = ?1 ORDER BY ord",
    [ST_RES_INSERT] =
        "INSERT INTO resources(stack_id, ord, urn, is_delete, json)"
        " VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_RES_UPDATE] = "UPDATE resources SET urn = ?3, is_delete = ?4, json = ?5"
                      " WHERE id = ?2 AND stack_id = ?1",
    [ST_RES_UPDATE_NEW] =
        "UPDATE resources SET urn = ?3, is_delete = ?4, json = ?5, ord = ?6"
        " WHERE id = ?2 AND stack_id = ?1",
    [ST_RES_MOVE] =
        "UPDATE resources SET ord = ?3 WHERE id = ?2 AND stack_id = ?1",
    [ST_RES_DELETE] = "DELETE FROM resources WHERE id = ?2 AND stack_id = ?1",
    [ST_RES_DELETE_ALL] = "DELETE FROM resources WHERE stack_id = ?1",
    [ST_RES_MIN_ORD] = "SELECT min(ord) FROM resources WHERE stack_id = ?1",
    [ST_RES_REWRITE] = "UPDATE resources SET urn = ?2, json = ?3 WHERE id = ?1",
    [ST_PENDING_LOAD] =
        "SELECT id, type, json FROM pending WHERE stack_id = ?1 ORDER BY id",
    [ST_PENDING_INSERT] =
        "INSERT INTO pending(stack_id, type, json) VALUES (?1, ?2, ?3)",
    [ST_PENDING_DELETE] = "DELETE FROM pending WHERE id = ?2 AND stack_id = ?1",
    [ST_PENDING_DELETE_ALL] = "DELETE FROM pending WHERE stack_id = ?1",
    [ST_PENDING_MAX] =
        "SELECT coalesce(max(id), 0) FROM pending WHERE stack_id = ?1",
    [ST_PENDING_DROP_OLD] =
        "DELETE FROM pending WHERE stack_id = ?1 AND type <> 'creating'"
        " AND id <= ?2",
    [ST_PENDING_REWRITE] = "UPDATE pending SET json = ?2 WHERE id = ?1",
    [ST_EXT_LOAD] = "SELECT ref, json FROM extensions WHERE stack_id = ?1"
                    " ORDER BY ref",
    [ST_EXT_INSERT] = "INSERT OR IGNORE INTO extensions(stack_id, ref, json)"
                      " VALUES (?1, ?2, ?3)",
    [ST_EXT_DELETE_ALL] = "DELETE FROM extensions WHERE stack_id = ?1",
    [ST_LOCK_GET] =
        "SELECT pid, host, time, operation FROM locks WHERE stack_id = ?1",
    [ST_LOCK_INSERT] = "INSERT INTO locks(stack_id, pid, host, time, operation)"
                       " VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_LOCK_DELETE] = "DELETE FROM locks WHERE stack_id = ?1",
    [ST_LOCK_RELEASE] =
        "DELETE FROM locks WHERE stack_id = ?1 AND pid = ?2 AND host = ?3",
    [ST_HIST_NEXT] =
        "SELECT coalesce(max(seq), 0) + 1 FROM updates WHERE stack_id = ?1",
    [ST_HIST_INSERT] =
        "INSERT INTO updates(stack_id, seq, kind, message, start_time, result)"
        " VALUES (?1, ?2, ?3, ?4, ?5, 'in-progress')",
    [ST_HIST_END] =
        "UPDATE updates SET result = ?3, end_time = ?4, n_same = ?5,"
        " n_create = ?6, n_update = ?7, n_delete = ?8, n_replace = ?9,"
        " n_read = ?10, n_import = ?11, n_refresh = ?12, n_discard = ?13,"
        " environment = ?14, config = ?15"
        " WHERE stack_id = ?1 AND seq = ?2",
    [ST_HIST_LIST] =
        "SELECT seq, kind, result, message, start_time, end_time, n_same,"
        " n_create, n_update, n_delete, n_replace, n_read, n_import,"
        " n_refresh, n_discard, environment, config FROM updates"
        " WHERE stack_id = ?1 ORDER BY seq DESC",
    [ST_EVENT_INSERT] =
        "INSERT OR REPLACE INTO update_events(stack_id, version, seq, time_ms,"
        " json) VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_EVENT_LIST] = "SELECT seq, time_ms, json FROM update_events"
                      " WHERE stack_id = ?1 AND version = ?2 ORDER BY seq",
};

/* The error for any write to a store that cannot be written; |what|
 * (may be NULL) says which write. */
static int read_only_err(const mp_sqlite *s, const char *what, mp_err *err) {
  return mp_err_set(err, MP_EIO,
                    "%s%sthe state store '%s' is read-only (the file or its "
                    "folder is not writable): it can be read, but nothing "
                    "can be changed; give write access or use another "
                    "--backend",
                    what ? what : "", what ? ": " : "", s->base.location);
}

int mp__sql_err(mp_sqlite *s, const char *what, mp_err *err) {
  int code = sqlite3_errcode(s->db);
  const char *msg = sqlite3_errmsg(s->db);
  switch (code & 0xff) {
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    return mp_err_set(err, MP_EBUSY,
                      "%s: the state store '%s' stayed busy (another "
                      "process is writing to it); try again",
                      what, s->base.location);
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB:
    return mp_err_set(err, MP_ESTATE, "%s: the state store '%s' is damaged: %s",
                      what, s->base.location, msg);
  case SQLITE_READONLY:
    return read_only_err(s, what, err);
  default:
    return mp_err_set(err, MP_EIO, "%s: state store '%s': %s", what,
                      s->base.location, msg);
  }
}

sqlite3_stmt *mp__stmt(mp_sqlite *s, mp__stmt_id id, mp_err *err) {
  if (s->stmts[id] == NULL &&
      sqlite3_prepare_v3(s->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
                         &s->stmts[id], NULL) != SQLITE_OK) {
    mp__sql_err(s, "cannot prepare a statement", err);
    return NULL;
  }
  return s->stmts[id];
}

void mp__stmt_done(sqlite3_stmt *st) {
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
}

int mp__stmt_exec(mp_sqlite *s, sqlite3_stmt *st, const char *what,
                  mp_err *err) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
  }
  int ret = rc == SQLITE_DONE ? 0 : mp__sql_err(s, what, err);
  mp__stmt_done(st);
  return ret;
}

static int run_fixed(mp_sqlite *s, mp__stmt_id id, const char *what,
                     mp_err *err) {
  sqlite3_stmt *st = mp__stmt(s, id, err);
  return st ? mp__stmt_exec(s, st, what, err) : err->code;
}

int mp__tx_begin(mp_sqlite *s, mp_err *err) {
  int rc = mp__sqlite_writable(&s->base, err);
  return rc ? rc : run_fixed(s, ST_BEGIN, "cannot start a transaction", err);
}

int mp__sqlite_writable(const mp_store *base, mp_err *err) {
  const mp_sqlite *s = mp_container_of(base, const mp_sqlite, base);
  if (!s->readonly)
    return 0;
  return read_only_err(s, NULL, err);
}

int mp__tx_begin_read(mp_sqlite *s, mp_err *err) {
  return run_fixed(s, ST_BEGIN_READ, "cannot start a read transaction", err);
}

int mp__tx_commit(mp_sqlite *s, mp_err *err) {
  int rc = run_fixed(s, ST_COMMIT, "cannot commit", err);
  if (rc < 0)
    mp__tx_rollback(s);
  return rc;
}

void mp__tx_rollback(mp_sqlite *s) {
  if (sqlite3_get_autocommit(s->db))
    return; /* nothing open */
  mp_err ignored;
  run_fixed(s, ST_ROLLBACK, "rollback", &ignored);
}

void mp__bind_text(sqlite3_stmt *st, int i, const char *s) {
  if (s == NULL)
    sqlite3_bind_null(st, i);
  else
    sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

char *mp__column_dup(sqlite3_stmt *st, int i) {
  const unsigned char *t = sqlite3_column_text(st, i);
  if (t == NULL)
    return NULL;
  return mp_xstrndup((const char *)t, (size_t)sqlite3_column_bytes(st, i));
}

int mp__stack_id(mp_sqlite *s, mp_stack_ref ref, int64_t *id, mp_err *err) {
  sqlite3_stmt *st = mp__stmt(s, ST_STACK_ID, err);
  if (st == NULL)
    return err->code;
  mp__bind_text(st, 1, ref.project);
  mp__bind_text(st, 2, ref.name);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW)
    *id = sqlite3_column_int64(st, 0);
  int ret = 0;
  if (rc == SQLITE_DONE)
    ret = mp__store_no_stack(ref, err);
  else if (rc != SQLITE_ROW)
    ret = mp__sql_err(s, "cannot look up a stack", err);
  mp__stmt_done(st);
  return ret;
}
