/* The connection-level helpers of the PostgreSQL store: connecting, the
 * statement table, running statements, transactions and translating
 * errors. */
#include "state/pg_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Indexed by mp__pg_stmt_id. Values are always parameters, never formatted
 * in. Text is ordered with COLLATE "C" so that lists come out in the same
 * (byte) order as from SQLite whatever the database's collation. */
static const char *const stmt_sql[PQ__COUNT] = {
    [PQ_STACK_ID] = "SELECT id FROM minipulumi.stacks"
                    " WHERE project = $1 AND name = $2",
    [PQ_STACK_ID_SHARE] = "SELECT id FROM minipulumi.stacks"
                          " WHERE project = $1 AND name = $2"
                          " FOR NO KEY UPDATE",
    [PQ_STACK_ID_EXCL] = "SELECT id FROM minipulumi.stacks"
                         " WHERE project = $1 AND name = $2 FOR UPDATE",
    [PQ_STACK_INSERT] = "INSERT INTO minipulumi.stacks(project, name, created)"
                        " VALUES ($1, $2, $3)",
    [PQ_STACK_LIST] =
        "SELECT s.project, s.name,"
        " (SELECT count(*) FROM minipulumi.resources r"
        "   WHERE r.stack_id = s.id),"
        " (SELECT max(u.end_time COLLATE \"C\") FROM minipulumi.updates u"
        "   WHERE u.stack_id = s.id)"
        " FROM minipulumi.stacks s WHERE $1::text IS NULL OR s.project = $1"
        " ORDER BY s.project COLLATE \"C\", s.name COLLATE \"C\"",
    [PQ_STACK_COUNT] =
        "SELECT count(*) FROM minipulumi.resources WHERE stack_id = $1",
    [PQ_STACK_DELETE] = "DELETE FROM minipulumi.stacks WHERE id = $1",
    [PQ_STACK_RENAME] = "UPDATE minipulumi.stacks SET name = $2 WHERE id = $1",
    [PQ_SELECTED_GET] =
        "SELECT name FROM minipulumi.selected WHERE project = $1",
    [PQ_SELECTED_SET] =
        "INSERT INTO minipulumi.selected(project, name) VALUES ($1, $2)"
        " ON CONFLICT (project) DO UPDATE SET name = excluded.name",
    [PQ_SELECTED_RENAME] = "UPDATE minipulumi.selected SET name = $3"
                           " WHERE project = $1 AND name = $2",
    [PQ_SELECTED_DELETE] = "DELETE FROM minipulumi.selected"
                           " WHERE project = $1 AND name = $2",
    [PQ_SECRETS_GET] = "SELECT secrets_type, secrets_state"
                       " FROM minipulumi.stacks WHERE id = $1",
    [PQ_SECRETS_SET] = "UPDATE minipulumi.stacks"
                       " SET secrets_type = $2, secrets_state = $3"
                       " WHERE id = $1",
    [PQ_RES_LOAD] = "SELECT id, json FROM minipulumi.resources"
                    " WHERE stack_id = $1 ORDER BY ord",
    [PQ_RES_INSERT] =
        "INSERT INTO minipulumi.resources(stack_id, ord, urn, is_delete, json)"
        " VALUES ($1, $2, $3, $4, $5) RETURNING id",
    [PQ_RES_UPDATE] =
        "UPDATE minipulumi.resources SET urn = $3, is_delete = $4, json = $5"
        " WHERE id = $2 AND stack_id = $1",
    [PQ_RES_UPDATE_NEW] = "UPDATE minipulumi.resources"
                          " SET urn = $3, is_delete = $4, json = $5, ord = $6"
                          " WHERE id = $2 AND stack_id = $1",
    [PQ_RES_MOVE] = "UPDATE minipulumi.resources SET ord = $3"
                    " WHERE id = $2 AND stack_id = $1",
    [PQ_RES_DELETE] =
        "DELETE FROM minipulumi.resources WHERE id = $2 AND stack_id = $1",
    [PQ_RES_DELETE_ALL] =
        "DELETE FROM minipulumi.resources WHERE stack_id = $1",
    [PQ_RES_MIN_ORD] =
        "SELECT min(ord) FROM minipulumi.resources WHERE stack_id = $1",
    [PQ_RES_REWRITE] =
        "UPDATE minipulumi.resources SET urn = $2, json = $3 WHERE id = $1",
    [PQ_PENDING_LOAD] = "SELECT id, type, json FROM minipulumi.pending"
                        " WHERE stack_id = $1 ORDER BY id",
    [PQ_PENDING_INSERT] = "INSERT INTO minipulumi.pending(stack_id, type, json)"
                          " VALUES ($1, $2, $3) RETURNING id",
    [PQ_PENDING_DELETE] =
        "DELETE FROM minipulumi.pending WHERE id = $2 AND stack_id = $1",
    [PQ_PENDING_DELETE_ALL] =
        "DELETE FROM minipulumi.pending WHERE stack_id = $1",
    [PQ_PENDING_MAX] = "SELECT coalesce(max(id), 0) FROM minipulumi.pending"
                       " WHERE stack_id = $1",
    [PQ_PENDING_DROP_OLD] = "DELETE FROM minipulumi.pending"
                            " WHERE stack_id = $1 AND type <> 'creating'"
                            " AND id <= $2",
    [PQ_PENDING_REWRITE] = "UPDATE minipulumi.pending SET json = $2"
                           " WHERE id = $1",
    [PQ_EXT_LOAD] = "SELECT ref, json FROM minipulumi.extensions"
                    " WHERE stack_id = $1 ORDER BY ref COLLATE \"C\"",
    [PQ_EXT_INSERT] = "INSERT INTO minipulumi.extensions(stack_id, ref, json)"
                      " VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    [PQ_EXT_DELETE_ALL] =
        "DELETE FROM minipulumi.extensions WHERE stack_id = $1",
    /* A holder is gone when its database session no longer exists (the
     * pid, and the start time when this role may see it) or when its
     * lease ran out; both are judged by the server's clock. */
    [PQ_LOCK_GET] =
        "SELECT l.pid, l.host, l.time, l.operation,"
        " l.expires < clock_timestamp(),"
        " NOT EXISTS (SELECT 1 FROM pg_catalog.pg_stat_activity a"
        "   WHERE a.pid = l.session_pid AND (a.backend_start IS NULL"
        "   OR l.session_start IS NULL"
        "   OR a.backend_start = l.session_start)),"
        " to_char(l.expires AT TIME ZONE 'UTC',"
        "   'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        " FROM minipulumi.locks l WHERE l.stack_id = $1",
    [PQ_LOCK_INSERT] =
        "INSERT INTO minipulumi.locks(stack_id, pid, host, time, operation,"
        " token, session_pid, session_start, expires)"
        " SELECT $1, $2, $3, $4, $5, $6, pg_backend_pid(),"
        " (SELECT backend_start FROM pg_catalog.pg_stat_activity"
        "   WHERE pid = pg_backend_pid()),"
        " clock_timestamp() + $7::double precision * interval '1 millisecond'",
    [PQ_LOCK_RENEW] = "UPDATE minipulumi.locks SET expires = clock_timestamp()"
                      " + $3::double precision * interval '1 millisecond'"
                      " WHERE stack_id = $1 AND token = $2",
    [PQ_LOCK_DELETE] = "DELETE FROM minipulumi.locks WHERE stack_id = $1",
    [PQ_LOCK_RELEASE] =
        "DELETE FROM minipulumi.locks WHERE stack_id = $1 AND token = $2",
    [PQ_HIST_NEXT] = "SELECT coalesce(max(seq), 0) + 1 FROM minipulumi.updates"
                     " WHERE stack_id = $1",
    [PQ_HIST_INSERT] =
        "INSERT INTO minipulumi.updates(stack_id, seq, kind, message,"
        " start_time, result) VALUES ($1, $2, $3, $4, $5, 'in-progress')",
    [PQ_HIST_END] =
        "UPDATE minipulumi.updates SET result = $3, end_time = $4,"
        " n_same = $5, n_create = $6, n_update = $7, n_delete = $8,"
        " n_replace = $9, n_read = $10, n_import = $11, n_refresh = $12,"
        " n_discard = $13, environment = $14, config = $15"
        " WHERE stack_id = $1 AND seq = $2",
    [PQ_HIST_LIST] =
        "SELECT seq, kind, result, message, start_time, end_time, n_same,"
        " n_create, n_update, n_delete, n_replace, n_read, n_import,"
        " n_refresh, n_discard, environment, config FROM minipulumi.updates WHERE stack_id = $1"
        " ORDER BY seq DESC",
    [PQ_TAGS_GET] = "SELECT name, value FROM minipulumi.stack_tags"
                    " WHERE stack_id = $1 ORDER BY name",
    [PQ_TAGS_DELETE] = "DELETE FROM minipulumi.stack_tags WHERE stack_id = $1",
    [PQ_TAGS_INSERT] = "INSERT INTO minipulumi.stack_tags(stack_id, name, value)"
                       " VALUES ($1, $2, $3)",
    [PQ_EVENT_INSERT] =
        "INSERT INTO minipulumi.update_events(stack_id, version, seq, time_ms,"
        " json) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (stack_id, version,"
        " seq) DO UPDATE SET time_ms = EXCLUDED.time_ms, json = EXCLUDED.json",
    [PQ_EVENT_LIST] = "SELECT seq, time_ms, json FROM minipulumi.update_events"
                      " WHERE stack_id = $1 AND version = $2 ORDER BY seq",
};

const char *mp__pg_stmt_sql(mp__pg_stmt_id id) { return stmt_sql[id]; }

/* ==== parameters and columns ==== */

void mp__pg_int(mp_pg_params *p, int64_t v) {
  if (p->n >= MP__PG_MAX_PARAMS)
    MP_BUG("more than %d statement parameters", MP__PG_MAX_PARAMS);
  snprintf(p->num[p->n], sizeof(p->num[0]), "%" PRId64, v);
  p->v[p->n] = p->num[p->n];
  p->n++;
}

void mp__pg_text(mp_pg_params *p, const char *s) {
  if (p->n >= MP__PG_MAX_PARAMS)
    MP_BUG("more than %d statement parameters", MP__PG_MAX_PARAMS);
  p->v[p->n++] = s;
}

char *mp__pg_dup(const PGresult *r, int row, int col) {
  if (PQgetisnull(r, row, col))
    return NULL;
  return mp_xstrndup(PQgetvalue(r, row, col), (size_t)PQgetlength(r, row, col));
}

int64_t mp__pg_int64(const PGresult *r, int row, int col) {
  return PQgetisnull(r, row, col) ? 0
                                  : strtoll(PQgetvalue(r, row, col), NULL, 10);
}

int mp__pg_bool(const PGresult *r, int row, int col) {
  return !PQgetisnull(r, row, col) && PQgetvalue(r, row, col)[0] == 't';
}

/* ==== connecting ==== */

/* Replaces every occurrence of |secret| in |msg| by "****". */
static void scrub_one(char *msg, const char *secret, size_t n) {
  if (n == 0)
    return;
  for (char *p = strstr(msg, secret); p; p = strstr(p, secret)) {
    size_t rest = strlen(p + n);
    memcpy(p, "****", 4);
    memmove(p + 4, p + n, rest + 1);
    p += 4;
  }
}

/* Removes the URL's passwords (userinfo, `password=` parameters; as
 * written, since libpq may quote a value it cannot decode) from |msg|. */
static void scrub(char *msg, const char *url) {
  const char *auth = strstr(url, "://");
  if (auth == NULL)
    return;
  auth += 3;
  size_t auth_len = strcspn(auth, "/?#");
  const char *at = NULL, *colon;
  for (const char *p = auth; p < auth + auth_len; p++)
    if (*p == '@')
      at = p;
  if (at && (colon = memchr(auth, ':', (size_t)(at - auth))) != NULL) {
    char *pw = mp_xstrndup(colon + 1, (size_t)(at - colon - 1));
    scrub_one(msg, pw, strlen(pw));
    free(pw);
  }
  for (const char *q = strstr(url, "password="); q;
       q = strstr(q + 1, "password=")) {
    size_t n = strcspn(q + 9, "&#");
    char *pw = mp_xstrndup(q + 9, n);
    scrub_one(msg, pw, n);
    free(pw);
  }
}

/* |text| on one line: runs of white space become one space, trimmed. */
static void one_line(char *text) {
  char *w = text;
  int space = 0;
  for (const char *r = text; *r; r++) {
    if (*r == ' ' || *r == '\n' || *r == '\t' || *r == '\r') {
      space = w != text;
      continue;
    }
    if (space)
      *w++ = ' ';
    space = 0;
    *w++ = *r;
  }
  *w = '\0';
}

PGconn *mp__pg_connect(const char *url, const char *location, const char *app,
                       mp_err *err) {
  /* Keywords before "dbname" are defaults the URL may override; the
   * fallback name applies only when the URL sets no application_name. A
   * server that vanishes without closing the connection (a dead network)
   * is noticed within about half a minute rather than TCP's quarter of an
   * hour: keepalives while idle, tcp_user_timeout (ms) while sending. */
  const char *keys[] = {"connect_timeout",           "keepalives_idle",
                        "keepalives_interval",       "keepalives_count",
                        "tcp_user_timeout",          "dbname",
                        "fallback_application_name", NULL};
  const char *vals[] = {"10", "10", "5", "3", "30000", url, app, NULL};
  PGconn *conn = PQconnectdbParams(keys, vals, 1);
  if (conn != NULL && PQstatus(conn) == CONNECTION_OK)
    return conn;
  char *why = mp_xstrdup(conn ? PQerrorMessage(conn) : "out of memory");
  one_line(why);
  scrub(why, url);
  mp_err_set(err, MP_EIO,
             "cannot connect to the state store '%s': %s; check the URL, "
             "the server and the password (PGPASSWORD or ~/.pgpass)",
             location, why);
  free(why);
  PQfinish(conn);
  return NULL;
}

int mp__pg_reconnect(mp_pg *s, mp_err *err) {
  PQreset(s->conn);
  memset(s->prepared, 0, sizeof(s->prepared));
  s->last_state[0] = '\0';
  if (PQstatus(s->conn) == CONNECTION_OK)
    return 0;
  return mp__pg_err(s, NULL, "cannot reconnect", err);
}

/* ==== errors ==== */

const char *mp__pg_last_state(const mp_pg *s) { return s->last_state; }

int mp__pg_lost(const mp_pg *s) {
  return PQstatus(s->conn) != CONNECTION_OK ||
         strncmp(s->last_state, "08", 2) == 0 ||
         strncmp(s->last_state, "57P", 3) == 0;
}

int mp__pg_err(mp_pg *s, const PGresult *r, const char *what, mp_err *err) {
  const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
  const char *primary =
      r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  snprintf(s->last_state, sizeof(s->last_state), "%s", state ? state : "");
  char *msg = mp_xstrdup(primary ? primary : PQerrorMessage(s->conn));
  one_line(msg);
  scrub(msg, s->url);
  int rc;
  if (mp__pg_lost(s))
    rc = mp_err_set(err, MP_EIO,
                    "%s: lost the connection to the state store '%s' (%s); "
                    "the stack keeps what its last completed write stored; "
                    "run the command again once the server can be reached",
                    what, s->base.location, msg);
  else if (state &&
           (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0))
    rc = mp_err_set(err, MP_EBUSY,
                    "%s: the state store '%s' was busy (a conflicting "
                    "transaction); try again",
                    what, s->base.location);
  else
    rc = mp_err_set(err, MP_EIO, "%s: state store '%s': %s", what,
                    s->base.location, msg);
  free(msg);
  return rc;
}

/* ==== statements ==== */

static int prepare(mp_pg *s, mp__pg_stmt_id id, mp_err *err) {
  char name[16];
  snprintf(name, sizeof(name), "mp%d", (int)id);
  PGresult *r = PQprepare(s->conn, name, stmt_sql[id], 0, NULL);
  int rc = 0;
  if (PQresultStatus(r) != PGRES_COMMAND_OK)
    rc = mp__pg_err(s, r, "cannot prepare a statement", err);
  else
    s->prepared[id] = 1;
  PQclear(r);
  return rc;
}

PGresult *mp__pg_run(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                     const char *what, mp_err *err) {
  if (!s->prepared[id] && prepare(s, id, err) < 0)
    return NULL;
  char name[16];
  snprintf(name, sizeof(name), "mp%d", (int)id);
  PGresult *r = PQexecPrepared(s->conn, name, p ? p->n : 0, p ? p->v : NULL,
                               NULL, NULL, 0);
  ExecStatusType st = PQresultStatus(r);
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
    return r;
  mp__pg_err(s, r, what, err);
  PQclear(r);
  return NULL;
}

int mp__pg_exec(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                const char *what, int64_t *changed, mp_err *err) {
  PGresult *r = mp__pg_run(s, id, p, what, err);
  if (r == NULL)
    return err->code;
  if (changed)
    *changed = strtoll(PQcmdTuples(r), NULL, 10);
  PQclear(r);
  return 0;
}

int mp__pg_query_int(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                     const char *what, int64_t *out, int *is_null,
                     mp_err *err) {
  PGresult *r = mp__pg_run(s, id, p, what, err);
  if (r == NULL)
    return err->code;
  int null = PQntuples(r) == 0 || PQgetisnull(r, 0, 0);
  *out = null ? 0 : mp__pg_int64(r, 0, 0);
  if (is_null)
    *is_null = null;
  PQclear(r);
  return 0;
}

int mp__pg_simple(mp_pg *s, const char *sql, const char *what, mp_err *err) {
  PGresult *r = PQexec(s->conn, sql);
  ExecStatusType st = PQresultStatus(r);
  int rc = 0;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
    rc = mp__pg_err(s, r, what, err);
  PQclear(r);
  return rc;
}

/* ==== batches ==== */

/* The result of the next query of the pipeline and the NULL that ends it;
 * NULL if the connection gave nothing more. */
static PGresult *next_result(mp_pg *s) {
  PGresult *r = PQgetResult(s->conn);
  if (r != NULL) {
    PGresult *end = PQgetResult(s->conn);
    PQclear(end); /* NULL unless the server broke the protocol */
  }
  return r;
}

/* Reads BEGIN's result, one per statement, and the sync point. */
static int collect(mp_pg *s, mp_pg_stmt *const *st, size_t n, PGresult **res,
                   mp_err *err) {
  int rc = 0;
  for (size_t i = 0; i <= n; i++) {
    const char *what = i == 0 ? "cannot start a transaction" : st[i - 1]->what;
    PGresult *r = next_result(s);
    if (r == NULL) {
      if (rc == 0)
        rc = mp__pg_err(s, NULL, what, err);
      break;
    }
    ExecStatusType t = PQresultStatus(r);
    if (rc == 0 && t != PGRES_COMMAND_OK && t != PGRES_TUPLES_OK)
      rc = mp__pg_err(s, r, what, err);
    if (rc == 0 && i > 0)
      res[i - 1] = r;
    else
      PQclear(r);
  }
  for (PGresult *r; (r = PQgetResult(s->conn)) != NULL;) {
    int sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
    PQclear(r);
    if (sync)
      break;
  }
  return rc;
}

int mp__pg_batch(mp_pg *s, mp_pg_stmt *const *st, size_t n, PGresult **res,
                 mp_err *err) {
  memset(res, 0, n * sizeof(*res));
  for (size_t i = 0; i < n; i++)
    if (!s->prepared[st[i]->id] && prepare(s, st[i]->id, err) < 0)
      return err->code;
  if (!PQenterPipelineMode(s->conn))
    return mp__pg_err(s, NULL, "cannot start a transaction", err);
  int ok = PQsendQueryParams(s->conn, "BEGIN", 0, NULL, NULL, NULL, NULL, 0);
  for (size_t i = 0; ok && i < n; i++) {
    char name[16];
    snprintf(name, sizeof(name), "mp%d", (int)st[i]->id);
    ok = PQsendQueryPrepared(s->conn, name, st[i]->p.n, st[i]->p.v, NULL, NULL,
                             0);
  }
  int rc = ok && PQpipelineSync(s->conn)
               ? collect(s, st, n, res, err)
               : mp__pg_err(s, NULL, "cannot start a transaction", err);
  PQexitPipelineMode(s->conn);
  if (rc < 0)
    for (size_t i = 0; i < n; i++) {
      PQclear(res[i]);
      res[i] = NULL;
    }
  return rc;
}

/* ==== transactions ==== */

int mp__pg_tx_begin(mp_pg *s, mp_err *err) {
  return mp__pg_simple(s, "BEGIN", "cannot start a transaction", err);
}

int mp__pg_tx_begin_read(mp_pg *s, mp_err *err) {
  return mp__pg_simple(s, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                       "cannot start a read transaction", err);
}

int mp__pg_tx_commit(mp_pg *s, mp_err *err) {
  int rc = mp__pg_simple(s, "COMMIT", "cannot commit", err);
  if (rc < 0)
    mp__pg_tx_rollback(s);
  return rc;
}

int mp__pg_in_tx(const mp_pg *s) {
  PGTransactionStatusType t = PQtransactionStatus(s->conn);
  return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

void mp__pg_tx_rollback(mp_pg *s) {
  if (!mp__pg_in_tx(s))
    return; /* nothing open, or the connection is gone */
  PQclear(PQexec(s->conn, "ROLLBACK"));
}

int mp__pg_stack_id(mp_pg *s, mp_stack_ref st, mp__pg_row_lock lock,
                    int64_t *id, mp_err *err) {
  static const mp__pg_stmt_id ids[] = {PQ_STACK_ID, PQ_STACK_ID_SHARE,
                                       PQ_STACK_ID_EXCL};
  mp_pg_params p = {0};
  mp__pg_text(&p, st.project);
  mp__pg_text(&p, st.name);
  PGresult *r = mp__pg_run(s, ids[lock], &p, "cannot look up a stack", err);
  if (r == NULL)
    return err->code;
  int found = PQntuples(r) > 0;
  if (found)
    *id = mp__pg_int64(r, 0, 0);
  PQclear(r);
  return found ? 0 : mp__store_no_stack(st, err);
}

int mp__pg_stack_param(mp_pg *s, mp_stack_ref st, mp_pg_params *p,
                       mp_err *err) {
  int64_t id;
  memset(p, 0, sizeof(*p));
  if (mp__pg_stack_id(s, st, MP__PG_READ, &id, err) < 0)
    return err->code;
  mp__pg_int(p, id);
  return 0;
}
