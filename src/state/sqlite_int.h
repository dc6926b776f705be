/* Internal to the SQLite state store (src/state/): the store and update
 * structs, the prepared-statement cache and the helpers every file of the
 * store shares. Only this module includes sqlite3.h (docs/style.md,
 * "Headers and layers"). */
#ifndef MP_SQLITE_INT_H
#define MP_SQLITE_INT_H

#include <sqlite3.h>
#include <stdint.h>

#include "state/store_int.h"

/* "MPUL": marks a SQLite file as a minipulumi state store. */
#define MP__STORE_APP_ID 0x4D50554C

/* Every statement the store runs more than once, prepared on first use and
 * kept for the life of the connection (sqlite_db.c holds the SQL). */
typedef enum mp__stmt_id {
  ST_BEGIN,
  ST_BEGIN_READ,
  ST_COMMIT,
  ST_ROLLBACK,
  ST_STACK_ID,
  ST_STACK_INSERT,
  ST_STACK_LIST,
  ST_STACK_COUNT,
  ST_STACK_DELETE,
  ST_STACK_RENAME,
  ST_SELECTED_GET,
  ST_SELECTED_SET,
  ST_SELECTED_RENAME,
  ST_SELECTED_DELETE,
  ST_SECRETS_GET,
  ST_SECRETS_SET,
  ST_RES_LOAD,
  ST_RES_INSERT,
  ST_RES_UPDATE,
  ST_RES_UPDATE_NEW,
  ST_RES_MOVE,
  ST_RES_DELETE,
  ST_RES_DELETE_ALL,
  ST_RES_MIN_ORD,
  ST_RES_REWRITE,
  ST_PENDING_LOAD,
  ST_PENDING_INSERT,
  ST_PENDING_DELETE,
  ST_PENDING_DELETE_ALL,
  ST_PENDING_MAX,
  ST_PENDING_DROP_OLD,
  ST_PENDING_REWRITE,
  ST_EXT_LOAD,
  ST_EXT_INSERT,
  ST_EXT_DELETE_ALL,
  ST_LOCK_GET,
  ST_LOCK_INSERT,
  ST_LOCK_DELETE,
  ST_LOCK_RELEASE,
  ST_HIST_NEXT,
  ST_HIST_INSERT,
  ST_HIST_END,
  ST_HIST_LIST,
  ST_EVENT_INSERT,
  ST_EVENT_LIST,
  ST__COUNT
} mp__stmt_id;

typedef struct mp_sqlite mp_sqlite;
typedef struct mp_sqlite_update mp_sqlite_update;

/* Owner: one thread (store.h). */
struct mp_sqlite {
  mp_store base; /* base.location: the URL as given, for messages */
  sqlite3 *db;
  char *path; /* the database file */
  sqlite3_stmt *stmts[ST__COUNT];
  int64_t pid;
  char host[256];
  mp_sqlite_update *updates; /* open write sessions, to unlock on close */
  int readonly;              /* opened read-only: the file or its folder is not
                                writable; every write is refused up front */
};

struct mp_sqlite_update {
  mp_store_update base;
  mp_sqlite *s;
  int64_t stack_id;
  char *label;            /* "project/stack", for messages */
  int64_t seq;            /* history row */
  int64_t next_ord;       /* ord of the next INSERT_NEW (below old rows) */
  int64_t pending_high;   /* pending rows <= this existed at begin */
  const mp_crypter *c;    /* borrowed */
  int verify;             /* the store verifies its writes */
  mp_sqlite_update *next; /* in s->updates */
};

/* The store and the session behind the interface's pointers. */
static inline mp_sqlite *mp__sqlite(mp_store *s) {
  return mp_container_of(s, mp_sqlite, base);
}
static inline mp_sqlite_update *mp__sqlite_update(mp_store_update *u) {
  return mp_container_of(u, mp_sqlite_update, base);
}

/* ---- sqlite_db.c ---- */

/* The cached statement |id|, reset and without bindings; sets |err| and
 * returns NULL if it cannot be prepared. Call mp__stmt_done after use. */
sqlite3_stmt *mp__stmt(mp_sqlite *s, mp__stmt_id id, mp_err *err);
/* Resets |st| so that it holds no read transaction open. */
void mp__stmt_done(sqlite3_stmt *st);
/* Steps a statement that returns no rows (or whose rows are ignored) and
 * resets it. Returns 0 or an MP_E code naming |what|. */
int mp__stmt_exec(mp_sqlite *s, sqlite3_stmt *st, const char *what,
                  mp_err *err);
/* Sets |err| from the connection's last error: MP_EBUSY for a store that
 * stays locked, MP_ESTATE for corruption, MP_EIO otherwise. */
int mp__sql_err(mp_sqlite *s, const char *what, mp_err *err);

/* BEGIN IMMEDIATE / BEGIN (deferred, for consistent reads) / COMMIT /
 * ROLLBACK. rollback never fails visibly and is a no-op outside a
 * transaction. */
int mp__tx_begin(mp_sqlite *s, mp_err *err);
int mp__tx_begin_read(mp_sqlite *s, mp_err *err);
int mp__tx_commit(mp_sqlite *s, mp_err *err);
void mp__tx_rollback(mp_sqlite *s);

/* Binds text (NULL binds SQL NULL). */
void mp__bind_text(sqlite3_stmt *st, int i, const char *s);
/* A column as an owned string (NULL for SQL NULL). */
char *mp__column_dup(sqlite3_stmt *st, int i);

/* The id of stack |st|: 0, or MP_ENOENT ("no stack named ..."). */
int mp__stack_id(mp_sqlite *s, mp_stack_ref st, int64_t *id, mp_err *err);

/* ---- sqlite_lock.c ---- */

/* Inside a write transaction: takes the lock of |stack_id| for this
 * process, breaking a stale one (then *stale, if not NULL, receives the
 * old holder). MP_EBUSY naming the holder when a live process has it. */
int mp__lock_acquire(mp_sqlite *s, int64_t stack_id, const char *label,
                     const char *operation, mp_lock_info *stale, mp_err *err);
/* Inside a transaction: MP_EBUSY if a live process other than this store's
 * open sessions holds the lock of |stack_id|. */
int mp__lock_check_free(mp_sqlite *s, int64_t stack_id, const char *label,
                        mp_err *err);
/* Deletes this process's lock on |stack_id| (a single statement). */
int mp__lock_release(mp_sqlite *s, int64_t stack_id, mp_err *err);

/* ---- sqlite_history.c ---- */

/* Inside a transaction: appends an in-progress history row; sets *seq. */
int mp__history_begin(mp_sqlite *s, int64_t stack_id, const char *kind,
                      const char *message, int64_t *seq, mp_err *err);
/* Inside a transaction: records the end of history row |seq|. */
/* |info|: the session, whose environment and config are recorded too. */
int mp__history_end(mp_sqlite *s, int64_t stack_id, int64_t seq,
                    const char *result, const mp_update_counts *counts,
                    const mp_store_update *info, mp_err *err);

/* ---- sqlite_snapshot.c ---- */

/* Inside a transaction: inserts a resource row (|json| is its encoded
 * checkpoint JSON) at |ord|; sets *row. */
int mp__row_insert_resource(mp_sqlite *s, int64_t stack_id, int64_t ord,
                            const mp_resource *r, const mp_buf *json,
                            int64_t *row, mp_err *err);
/* Inside a transaction: inserts a pending operation row; sets *row. */
int mp__row_insert_pending(mp_sqlite *s, int64_t stack_id, mp_pending_type t,
                           const mp_buf *json, int64_t *row, mp_err *err);
/* Inside a transaction: records extension |ref| of the stack unless it is
 * there already. */
int mp__row_insert_extension(mp_sqlite *s, int64_t stack_id, const char *ref,
                             const mp_buf *json, mp_err *err);

/* ---- the operations of store.h (sqlite_*.c) ---- */

int mp__sqlite_stack_create(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__sqlite_stack_exists(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__sqlite_stack_list(mp_store *s, const char *project, mp_stack_info **out,
                          size_t *n, mp_err *err);
int mp__sqlite_stack_remove(mp_store *s, mp_stack_ref st, int force,
                            mp_err *err);
int mp__sqlite_stack_rename(mp_store *s, mp_stack_ref st, const char *new_name,
                            mp_err *err);
int mp__sqlite_selected_get(mp_store *s, const char *project, char **out,
                            mp_err *err);
int mp__sqlite_selected_set(mp_store *s, const char *project, const char *name,
                            mp_err *err);
int mp__sqlite_secrets_get(mp_store *s, mp_stack_ref st, char **type,
                           char **state, mp_err *err);
int mp__sqlite_secrets_set(mp_store *s, mp_stack_ref st, const char *type,
                           const char *state, mp_err *err);
int mp__sqlite_load(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                    mp_snapshot **out, mp_err *err);
int mp__sqlite_replace(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                       const mp_crypter *c, mp_err *err);
int mp__sqlite_update_begin(mp_store *s, mp_stack_ref st, const char *kind,
                            const char *message, const mp_crypter *c,
                            mp_lock_info *stale, mp_store_update **out,
                            mp_err *err);
int mp__sqlite_apply(mp_store_update *u, const mp_store_change *changes,
                     size_t n, mp_err *err);
int mp__sqlite_drop_old_pending(mp_store_update *u, mp_err *err);
int mp__sqlite_update_end(mp_store_update *u, const char *result,
                          const mp_update_counts *counts, mp_err *err);
int mp__sqlite_lock_get(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                        mp_err *err);
int mp__sqlite_lock_break(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__sqlite_writable(const mp_store *s, mp_err *err);
/* sqlite_events.c: an update's engine events (store.h) */
int mp__sqlite_update_events(mp_store_update *u, const mp_update_event *ev,
                            size_t n, mp_err *err);
int mp__sqlite_events(mp_store *s, mp_stack_ref st, int64_t version,
                      mp_update_event **out, size_t *n, mp_err *err);
int mp__sqlite_history(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                       size_t *n, mp_err *err);
/* sqlite_tags.c */
int mp__sqlite_tags_get(mp_store *s, mp_stack_ref st, mp_stack_tag **out,
                        size_t *n, mp_err *err);
int mp__sqlite_tags_set(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                        size_t n, mp_err *err);

/* The SQLite store's database for the shared flows (sqlite_snapshot.c). */
extern const mp__store_db mp__sqlite_db;
/* mp__store_db.write (sqlite_update.c). */
int mp__sqlite_write(mp_store_update *u, const mp_store_change *ch, size_t n,
                     const mp_buf *json, int64_t *ord, int64_t *rows,
                     mp_err *err);

/* ---- sqlite_rename.c ---- */

/* Inside a transaction: rewrites every URN stored for |stack_id| (resources
 * and pending operations) to name stack |new_name| (docs/state-backends.md). */
int mp__rename_urns(mp_sqlite *s, int64_t stack_id, const char *project,
                    const char *new_name, mp_err *err);

#endif
