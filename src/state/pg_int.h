/* Internal to the PostgreSQL state store (src/state/pg_*.c): the store and
 * session structs, the statement table, and the helpers every file of the
 * backend shares. Only this backend includes libpq-fe.h (docs/style.md,
 * "Headers and layers").
 *
 * The store talks to one database through one connection, owned by the
 * store's thread like the SQLite connection. Tables live in the database
 * schema `minipulumi` (snapshots/postgres/). Every statement is prepared
 * once per connection and run with text parameters; values are never
 * formatted into SQL text. */
#ifndef MP_PG_INT_H
#define MP_PG_INT_H

#include <libpq-fe.h>
#include <stdint.h>

#include "state/store_int.h"

/* Every statement the store runs, prepared on first use on the connection
 * (pg_db.c holds the SQL). */
typedef enum mp__pg_stmt_id {
  PQ_STACK_ID,
  PQ_STACK_ID_SHARE, /* FOR NO KEY UPDATE: serialises lock takers */
  PQ_STACK_ID_EXCL,  /* FOR UPDATE: the stack row is about to go */
  PQ_STACK_INSERT,
  PQ_STACK_LIST,
  PQ_STACK_COUNT,
  PQ_STACK_DELETE,
  PQ_STACK_RENAME,
  PQ_SELECTED_GET,
  PQ_SELECTED_SET,
  PQ_SELECTED_RENAME,
  PQ_SELECTED_DELETE,
  PQ_SECRETS_GET,
  PQ_SECRETS_SET,
  PQ_RES_LOAD,
  PQ_RES_INSERT,
  PQ_RES_UPDATE,
  PQ_RES_UPDATE_NEW,
  PQ_RES_MOVE,
  PQ_RES_DELETE,
  PQ_RES_DELETE_ALL,
  PQ_RES_MIN_ORD,
  PQ_RES_REWRITE,
  PQ_PENDING_LOAD,
  PQ_PENDING_INSERT,
  PQ_PENDING_DELETE,
  PQ_PENDING_DELETE_ALL,
  PQ_PENDING_MAX,
  PQ_PENDING_DROP_OLD,
  PQ_PENDING_REWRITE,
  PQ_EXT_LOAD,
  PQ_EXT_INSERT,
  PQ_EXT_DELETE_ALL,
  PQ_LOCK_GET,
  PQ_LOCK_INSERT,
  PQ_LOCK_RENEW,
  PQ_LOCK_DELETE,
  PQ_LOCK_RELEASE,
  PQ_HIST_NEXT,
  PQ_HIST_INSERT,
  PQ_HIST_END,
  PQ_HIST_LIST,
  PQ_TAGS_GET,
  PQ_TAGS_DELETE,
  PQ_TAGS_INSERT,
  PQ_EVENT_INSERT,
  PQ_EVENT_LIST,
  PQ__COUNT
} mp__pg_stmt_id;

typedef struct mp_pg mp_pg;
typedef struct mp_pg_update mp_pg_update;
typedef struct mp_pg_lease mp_pg_lease;

/* Owner: one thread (store.h). */
struct mp_pg {
  mp_store base; /* base.location: the URL without its password */
  PGconn *conn;
  char *url; /* as given, password included: only for connecting */
  unsigned char prepared[PQ__COUNT]; /* prepared on this connection */
  char last_state[6];                /* SQLSTATE of the last failure */
  int64_t lease_ms;
  int64_t pid;
  char host[256];
  mp_pg_update *updates; /* open write sessions, to unlock on close */
};

struct mp_pg_update {
  mp_store_update base;
  mp_pg *s;
  int64_t stack_id;
  char *label;          /* "project/stack", for messages */
  char token[40];       /* identifies this session's lock row */
  int64_t seq;          /* history row */
  int64_t next_ord;     /* ord of the next INSERT_NEW (below old rows) */
  int64_t pending_high; /* pending rows <= this existed at begin */
  const mp_crypter *c;  /* borrowed */
  int verify;           /* the store verifies its writes */
  mp_pg_lease *lease;   /* renews the lock while the session is open */
  mp_pg_update *next;   /* in s->updates */
};

static inline mp_pg *mp__pg(mp_store *s) {
  return mp_container_of(s, mp_pg, base);
}
static inline mp_pg_update *mp__pg_update(mp_store_update *u) {
  return mp_container_of(u, mp_pg_update, base);
}

/* ---- pg_db.c: connection, statements, transactions ---- */

/* Statement parameters, all sent as text; a NULL value is SQL NULL. */
#define MP__PG_MAX_PARAMS 16
typedef struct mp_pg_params {
  int n;
  const char *v[MP__PG_MAX_PARAMS];
  char num[MP__PG_MAX_PARAMS][24]; /* storage for numbers */
} mp_pg_params;

/* Appends a parameter. Borrowed strings must outlive the statement. */
void mp__pg_int(mp_pg_params *p, int64_t v);
void mp__pg_text(mp_pg_params *p, const char *s);

/* Opens a connection to |url| (libpq URL, password from it, PGPASSWORD or
 * ~/.pgpass), naming itself |app| in pg_stat_activity unless the URL sets
 * application_name. Returns the connection or NULL with |err| set (the
 * message shows |location|, never the password). Any thread. */
PGconn *mp__pg_connect(const char *url, const char *location, const char *app,
                       mp_err *err);

/* The SQL text of statement |id| (for a connection other than the
 * store's, which cannot use the store's prepared statements). */
const char *mp__pg_stmt_sql(mp__pg_stmt_id id);
/* Runs statement |id| with |p| (NULL: none). Returns the result of a
 * successful statement (free it with PQclear), or NULL with |err| set
 * from the failure, naming |what|. */
PGresult *mp__pg_run(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                     const char *what, mp_err *err);
/* Runs a statement and discards its rows; *changed (if not NULL) gets the
 * number of rows it inserted, updated or deleted. */
int mp__pg_exec(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                const char *what, int64_t *changed, mp_err *err);
/* Runs a statement returning one integer (NULL: *is_null = 1 and 0). */
int mp__pg_query_int(mp_pg *s, mp__pg_stmt_id id, const mp_pg_params *p,
                     const char *what, int64_t *out, int *is_null, mp_err *err);
/* One statement of a batch: which, its parameters, what it does (for
 * messages). Built in place: |p| points into itself. */
typedef struct mp_pg_stmt {
  mp__pg_stmt_id id;
  mp_pg_params p;
  const char *what;
} mp_pg_stmt;

/* Starts a transaction and runs the |n| statements |st| in it, sent
 * together (libpq's pipeline mode): two round trips whatever |n|, where
 * one statement at a time takes n + 2. res[i] receives each statement's
 * result (free with PQclear). The transaction stays open: the caller
 * commits or rolls back. On a failure no result is returned, |err| names
 * the statement that failed (or the lost connection), and the transaction
 * is aborted. */
int mp__pg_batch(mp_pg *s, mp_pg_stmt *const *st, size_t n, PGresult **res,
                 mp_err *err);
/* Runs SQL text without parameters (transaction control, migrations). */
int mp__pg_simple(mp_pg *s, const char *sql, const char *what, mp_err *err);

/* Sets |err| from a failed statement |r| (may be NULL) or the connection:
 * a lost connection (MP_EIO, saying that what the last completed write
 * left is kept), a serialisation failure (MP_EBUSY), otherwise MP_EIO. */
int mp__pg_err(mp_pg *s, const PGresult *r, const char *what, mp_err *err);
/* The SQLSTATE of the last failed statement ("" if none). */
const char *mp__pg_last_state(const mp_pg *s);
/* 1 if the connection is lost: libpq says so, or the last failure was of
 * class 08 (connection exception) or 57P (the server shut down or ended
 * the session), which may come before libpq notices. */
int mp__pg_lost(const mp_pg *s);

/* BEGIN (read committed) / BEGIN a repeatable-read read-only snapshot /
 * COMMIT / ROLLBACK. rollback never fails visibly and is a no-op outside a
 * transaction. */
int mp__pg_tx_begin(mp_pg *s, mp_err *err);
int mp__pg_tx_begin_read(mp_pg *s, mp_err *err);
int mp__pg_tx_commit(mp_pg *s, mp_err *err);
void mp__pg_tx_rollback(mp_pg *s);
/* 1 while a transaction is open on the connection. */
int mp__pg_in_tx(const mp_pg *s);
/* Reconnects a connection that was lost; the session's prepared
 * statements are gone with it. Returns 0 or MP_EIO. */
int mp__pg_reconnect(mp_pg *s, mp_err *err);

/* A column as an owned string (NULL for SQL NULL), an integer, a boolean. */
char *mp__pg_dup(const PGresult *r, int row, int col);
int64_t mp__pg_int64(const PGresult *r, int row, int col);
int mp__pg_bool(const PGresult *r, int row, int col);

typedef enum mp__pg_row_lock {
  MP__PG_READ = 0,
  MP__PG_SHARE, /* FOR NO KEY UPDATE */
  MP__PG_EXCL   /* FOR UPDATE */
} mp__pg_row_lock;

/* The id of stack |st|, taking row lock |lock| on it (inside a transaction
 * for SHARE and EXCL): 0, or MP_ENOENT ("no stack named ..."). */
int mp__pg_stack_id(mp_pg *s, mp_stack_ref st, mp__pg_row_lock lock,
                    int64_t *id, mp_err *err);
/* Starts the parameters |p| (zeroed here) of a query about stack |st|
 * with its id (mp__pg_stack_id without a row lock): 0 or MP_ENOENT. */
int mp__pg_stack_param(mp_pg *s, mp_stack_ref st, mp_pg_params *p,
                       mp_err *err);

/* ---- pg_events.c: an update's engine events (store.h) ---- */
int mp__pg_update_events(mp_store_update *u, const mp_update_event *ev,
                            size_t n, mp_err *err);
int mp__pg_events(mp_store *s, mp_stack_ref st, int64_t version,
                  mp_update_event **out, size_t *n, mp_err *err);

/* ---- pg_schema.c ---- */

/* Creates or migrates the schema in one transaction under an advisory
 * lock, so that two first users do not race; refuses (MP_ESTATE) a schema
 * written by a newer minipulumi or a `minipulumi` schema we did not make. */
int mp__pg_schema_ensure(mp_pg *s, mp_err *err);

/* ---- pg_lock.c ---- */

/* Inside a transaction that holds the stack row (SHARE): takes the lock of
 * |stack_id| for this process with a new token (written to |token|, 40
 * bytes), breaking a stale one (then *stale, if not NULL, receives the old
 * holder and why). MP_EBUSY naming the holder when a live one has it. */
int mp__pg_lock_acquire(mp_pg *s, int64_t stack_id, const char *label,
                        const char *operation, char *token, mp_lock_info *stale,
                        mp_err *err);
/* Inside a transaction: MP_EBUSY if a live holder has the lock. */
int mp__pg_lock_check_free(mp_pg *s, int64_t stack_id, const char *label,
                           mp_err *err);
/* The statement that pushes the lease of |u|'s lock forward; it touches
 * no row when the lock is no longer |u|'s (broken by cancel or taken
 * over): then the write must stop (mp__store_lock_lost). */
void mp__pg_lock_renew_stmt(mp_pg_update *u, mp_pg_stmt *out);
/* Deletes |u|'s lock row (a single statement). */
int mp__pg_lock_release(mp_pg_update *u, mp_err *err);

/* ---- pg_lease.c ---- */

/* Starts renewing the lock |token| of |stack_id| every lease_ms / 8 from a
 * thread with its own connection to |url|, so that the lease holds while
 * the owner thread writes nothing (a long provider call). The thread
 * stops by itself once the lock is no longer ours. Sets *out. */
int mp__pg_lease_start(const char *url, const char *location, int64_t stack_id,
                       const char *token, int64_t lease_ms, mp_pg_lease **out,
                       mp_err *err);
/* Stops the renewal and waits for its thread. NULL ok. */
void mp__pg_lease_stop(mp_pg_lease *l);

/* ---- pg_history.c ---- */

int mp__pg_history_begin(mp_pg *s, int64_t stack_id, const char *kind,
                         const char *message, int64_t *seq, mp_err *err);
/* |info|: the session, whose environment and config are recorded too. */
int mp__pg_history_end(mp_pg *s, int64_t stack_id, int64_t seq,
                       const char *result, const mp_update_counts *counts,
                       const mp_store_update *info, mp_err *err);

/* ---- pg_snapshot.c ---- */

/* The INSERT ... RETURNING id of a resource row at |ord| (|json| its
 * encoded entry) / of a pending operation row, built into |out|. */
void mp__pg_resource_stmt(int64_t stack_id, int64_t ord, const mp_resource *r,
                          const mp_buf *json, mp_pg_stmt *out);
void mp__pg_pending_stmt(int64_t stack_id, mp_pending_type t,
                         const mp_buf *json, mp_pg_stmt *out);
/* The INSERT of extension |ref| of a stack (kept if there already). */
void mp__pg_extension_stmt(int64_t stack_id, const char *ref,
                           const mp_buf *json, mp_pg_stmt *out);

/* The PostgreSQL store's database for the shared flows (pg_snapshot.c). */
extern const mp__store_db mp__pg_db;
/* mp__store_db.write (pg_update.c): two round trips (mp__pg_batch). */
int mp__pg_write(mp_store_update *u, const mp_store_change *ch, size_t n,
                 const mp_buf *json, int64_t *ord, int64_t *rows, mp_err *err);

/* ---- the operations of store.h (pg_*.c) ---- */

int mp__pg_stack_create(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__pg_stack_exists(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__pg_stack_list(mp_store *s, const char *project, mp_stack_info **out,
                      size_t *n, mp_err *err);
int mp__pg_stack_remove(mp_store *s, mp_stack_ref st, int force, mp_err *err);
int mp__pg_stack_rename(mp_store *s, mp_stack_ref st, const char *new_name,
                        mp_err *err);
int mp__pg_selected_get(mp_store *s, const char *project, char **out,
                        mp_err *err);
int mp__pg_selected_set(mp_store *s, const char *project, const char *name,
                        mp_err *err);
int mp__pg_secrets_get(mp_store *s, mp_stack_ref st, char **type, char **state,
                       mp_err *err);
int mp__pg_secrets_set(mp_store *s, mp_stack_ref st, const char *type,
                       const char *state, mp_err *err);
int mp__pg_load(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                mp_snapshot **out, mp_err *err);
int mp__pg_replace(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                   const mp_crypter *c, mp_err *err);
int mp__pg_update_begin(mp_store *s, mp_stack_ref st, const char *kind,
                        const char *message, const mp_crypter *c,
                        mp_lock_info *stale, mp_store_update **out,
                        mp_err *err);
int mp__pg_apply(mp_store_update *u, const mp_store_change *changes, size_t n,
                 mp_err *err);
int mp__pg_drop_old_pending(mp_store_update *u, mp_err *err);
int mp__pg_update_end(mp_store_update *u, const char *result,
                      const mp_update_counts *counts, mp_err *err);
int mp__pg_lock_get(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                    mp_err *err);
int mp__pg_lock_break(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__pg_history(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                   size_t *n, mp_err *err);
/* pg_tags.c */
int mp__pg_tags_get(mp_store *s, mp_stack_ref st, mp_stack_tag **out,
                    size_t *n, mp_err *err);
int mp__pg_tags_set(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                    size_t n, mp_err *err);

#endif
