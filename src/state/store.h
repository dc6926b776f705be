/* The state store interface: stacks, their snapshots (written step by step),
 * locks and update history. Two backends in this folder fill the table of
 * operations below: SQLite (a file) and PostgreSQL (a server shared by
 * many machines). mp_store_open picks one by the URL's scheme; the engine
 * and the CLI call only the mp_store_* functions and never learn which.
 *
 * Threads: a store and everything obtained from it is owned by one thread
 * (the deployment's loop thread); it is not safe to share, except
 * mp_store_wait. */
#ifndef MP_STORE_H
#define MP_STORE_H

#include <signal.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/resource.h"
#include "engine/snapshot.h"

typedef struct mp_store mp_store;

/* A stack is named by its project and short name ("dev"). */
typedef struct mp_stack_ref {
  const char *project;
  const char *name;
} mp_stack_ref;

typedef struct mp_stack_info {
  char *project;
  char *name;
  int64_t resource_count;
  char *last_update; /* RFC 3339 or NULL */
} mp_stack_info;

typedef struct mp_lock_info {
  int64_t pid;
  char host[256];
  char time[40];      /* RFC 3339 */
  char operation[32]; /* "update", "refresh", ... */
  char gone[96];      /* why a broken lock was stale; "" otherwise */
} mp_lock_info;

typedef struct mp_update_counts {
  int64_t same, create, update, del, replace, read, import, refresh, discard;
} mp_update_counts;

typedef struct mp_history_entry {
  int64_t id;      /* 1, 2, ... per stack */
  char kind[16];   /* update, preview?, refresh, destroy, import */
  char result[16]; /* in-progress, succeeded, failed, canceled */
  char *message;
  char start[40], end[40];
  mp_update_counts counts;
  /* Pulumi's UpdateInfo.environment (the update's metadata: exec.kind,
   * pulumi.version, ...) and .config (the stack's config, secrets
   * encrypted), each a JSON object's text; NULL when not recorded. */
  char *environment;
  char *config;
} mp_history_entry;

/* How a store is opened. Zeroed means the defaults. */
typedef struct mp_store_opts {
  /* PostgreSQL: how long a stack lock lives without renewal, in ms; the
   * holder renews it every lease_ms / 8. <= 0: 5 minutes (Pulumi Cloud's
   * update lease). SQLite ignores it (its holders are on this host). */
  int64_t lease_ms;
  /* 1: after every write, reload the stack's entries and verify the
   * snapshot they make (mp_snapshot_verify), failing the write with
   * MP_ESTATE on a violation; a snapshot replaced whole is verified before
   * it is written. For tests: it costs a full read per step. */
  int verify_writes;
  /* file:// (Pulumi's DIY layout), as Pulumi's variables ask: write
   * checkpoints gzipped (PULUMI_DIY_BACKEND_GZIP), make a new folder in
   * the legacy layout (PULUMI_DIY_BACKEND_LEGACY_LAYOUT), keep no
   * per-update backups (PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS);
   * |home| is the folder `file://~` names (NULL: the password
   * database's). */
  int diy_gzip, diy_legacy_layout, diy_no_backups;
  const char *home;
} mp_store_opts;

/* Opens (creating if needed) the store at |url|:
 *   `sqlite:///abs/path.db` or a plain path: a SQLite file;
 *   `postgres://user[:password]@host[:port]/db[?sslmode=...]` (or
 *   `postgresql://`): a PostgreSQL database through libpq, which also
 *   reads the password from PGPASSWORD or ~/.pgpass.
 * A store from an older schema is migrated; one from a newer schema, or a
 * file or database that is not a minipulumi store, is refused with
 * MP_ESTATE and left unchanged. An existing SQLite store whose file or
 * folder this process cannot write is opened read-only
 * (mp_store_writable). Messages never contain the password. |o| may be
 * NULL. Sets *out on success. */
/* Every kind of state store URL, for help texts and errors. */
#define MP_BACKEND_SCHEMES                                                  \
  "sqlite:///absolute/path.db or a plain file path (SQLite), "              \
  "file://PATH or file://~ (a folder in Pulumi's DIY layout), "            \
  "s3://BUCKET[/PREFIX][?region=...] (an S3 bucket in Pulumi's DIY "        \
  "layout), "                                                               \
  "azblob://CONTAINER[/PREFIX] (an Azure Blob container in Pulumi's DIY "   \
  "layout), "                                                               \
  "postgres://user@host[:port]/database or postgresql://... (PostgreSQL)"

int mp_store_open_with(const char *url, const mp_store_opts *o, mp_store **out,
                       mp_err *err);
/* mp_store_open_with with the default options. */
int mp_store_open(const char *url, mp_store **out, mp_err *err);
/* Closes |s|, releasing every lock this process took through it. NULL ok. */
void mp_store_close(mp_store *s);
/* Where the store lives, for messages: the URL without its password.
 * Borrowed, valid until mp_store_close. */
const char *mp_store_location(const mp_store *s);
/* `url` with any password removed (userinfo and `password=` parameters):
 * what may be shown or logged. Owned. */
char *mp_store_url_redact(const char *url);

/* Where stores read the environment (the AWS_* variables and HOME of an
 * s3:// store): the CLI passes getenv once at start, before any store is
 * opened; unset, no variable is read. */
void mp_store_set_env(const char *(*lookup)(const char *name));
/* The process's cancel flag (the CLI's SIGINT/SIGTERM flag), set once at
 * start: a request of an s3:// or azblob:// store in flight when it turns
 * non-zero is ended at once and fails with MP_ECANCELED (the object is
 * then as it was, or as the last whole write left it). Requests begun
 * after it (the ones that record how the operation ended and unlock) are
 * made as usual. NULL: nothing cancels a request. */
void mp_store_set_cancel(const volatile sig_atomic_t *flag);
/* 0 if |s| can be written, else MP_EIO saying it is read-only (a SQLite
 * store whose file or folder is not writable opens read-only: reading
 * works, every write is refused with this error). */
int mp_store_writable(const mp_store *s, mp_err *err);

/* ---- stacks ---- */
int mp_store_stack_create(mp_store *s, mp_stack_ref st, mp_err *err);
/* 1 if it exists, 0 if not, < 0 on error. */
int mp_store_stack_exists(mp_store *s, mp_stack_ref st, mp_err *err);
/* Lists the stacks of |project| (all projects if NULL). Appends owned
 * entries to *out and *n; free each with mp_stack_info_destroy and the array
 * with free(). */
int mp_store_stack_list(mp_store *s, const char *project, mp_stack_info **out,
                        size_t *n, mp_err *err);
void mp_stack_info_destroy(mp_stack_info *i);
/* Removes a stack and everything stored for it. Refuses (MP_ESTATE) when
 * it still has resources unless |force|. */
int mp_store_stack_remove(mp_store *s, mp_stack_ref st, int force, mp_err *err);
/* How mp_store_stack_remove removes: |force| may also carry
 * MP_STORE_RM_BACKUPS. On file:// (Pulumi's diy removeStack), without it
 * the checkpoint is kept as <stack>.json.bak and the per-update backups
 * stay; with it both go. The other stores keep no backups. */
enum { MP_STORE_RM_FORCE = 1, MP_STORE_RM_BACKUPS = 2 };
int mp_store_stack_rename(mp_store *s, mp_stack_ref st, const char *new_name,
                          mp_err *err);
/* The selected stack of |project| (owned), or NULL in *out if none. */
int mp_store_selected_get(mp_store *s, const char *project, char **out,
                          mp_err *err);
/* Selects stack |name| of |project|; NULL |name| forgets the selection
 * (`stack unselect`). */
int mp_store_selected_set(mp_store *s, const char *project, const char *name,
                          mp_err *err);

/* The stack's secrets provider: type ("passphrase") and state JSON text.
 * Either may come back NULL. */
int mp_store_secrets_get(mp_store *s, mp_stack_ref st, char **type,
                         char **state, mp_err *err);
int mp_store_secrets_set(mp_store *s, mp_stack_ref st, const char *type,
                         const char *state, mp_err *err);

/* ---- stack tags ----
 * A stack's tags (Pulumi's `stack tag`): names and values set by the
 * user, kept with the stack, renamed with it and removed with it. */
typedef struct mp_stack_tag {
  char *name;
  char *value;
} mp_stack_tag;

/* The stack's tags, sorted by name, appended to *out and *n (free with
 * mp_stack_tags_free). MP_ENOENT if the stack does not exist. */
int mp_store_tags_get(mp_store *s, mp_stack_ref st, mp_stack_tag **out,
                      size_t *n, mp_err *err);
/* Replaces all the stack's tags by the |n| |tags| (names distinct), in one
 * write. */
int mp_store_tags_set(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                      size_t n, mp_err *err);
void mp_stack_tags_free(mp_stack_tag *tags, size_t n);

/* ---- snapshots ---- */

/* A mark of what the store holds as |s| last saw it, taken outside any
 * transaction: two equal marks (>= 0) of the same |s| mean that nobody
 * else wrote to the store in between (its own writes leave the mark as
 * it was). -1 when the store cannot tell; the caller then reads again.
 * A snapshot loaded after one mark is still the stored one at a second,
 * equal mark (the deployment does not read it twice, lifecycle.c). */
int64_t mp_store_change_mark(mp_store *s);
/* Loads the stack's snapshot (resources in order, pending operations, the
 * secrets provider, the extensions its resources refer to). Every returned
 * entry carries its store row. */
int mp_store_load(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                  mp_snapshot **out, mp_err *err);

/* Replaces the whole snapshot in one transaction (stack import, tests),
 * including the secrets provider when |snap| names one. Never
 * half-applies. Rows of |snap| are assigned on success. MP_EBUSY if
 * another live process holds the stack's lock. With
 * MINIPULUMI_VERIFY_WRITES set, |snap| is verified first (MP_ESTATE). */
int mp_store_replace(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                     const mp_crypter *c, mp_err *err);

/* One change of a step's effect. Changes of one call are applied in one
 * transaction, in order. */
typedef enum mp_store_change_kind {
  /* Insert |res| as a state produced by this deployment: it goes after the
   * states produced so far and before every untouched old state. Sets
   * res->row. */
  MP_STORE_INSERT_NEW,
  /* Rewrite the stored entry res->row in place (same position). */
  MP_STORE_UPDATE,
  /* Remove the entry with row |row|. */
  MP_STORE_DELETE,
  /* Record a pending operation |type| on |res| (a copy is stored); sets
   * *pending_row. */
  MP_STORE_PENDING_ADD,
  /* Remove pending operation |row|. */
  MP_STORE_PENDING_REMOVE,
  /* Rewrite the stored entry res->row from |res| AND move it to where
   * INSERT_NEW would put it (after the states produced so far, before every
   * untouched old state): the result of an update/refresh step that
   * supersedes its old state (docs/behaviour.md, "The
   * checkpoint"). Use this rather than MP_STORE_UPDATE
   * whenever later new states may depend on it: an entry left at its old
   * position comes after every new state, so a new state referring to it
   * would fail the integrity check. */
  MP_STORE_UPDATE_NEW,
  /* Move the entry |row| unchanged to where INSERT_NEW would put it: a
   * `same` step whose state needs no rewrite. Cheap (no JSON encoding). */
  MP_STORE_MOVE_NEW,
  /* MOVE_NEW of a `same` step that changes nothing, deferred: it is
   * written first in the transaction of the next change of this update
   * that is not deferred, and never if none follows (the entry's old place
   * among the untouched old states is then still in dependency order, and
   * its content is already what it would be). */
  MP_STORE_MOVE_LAZY,
  /* Record extension |ext| in the stack's `extensions` (kept if its ref
   * is there already): written before the first resource that refers to
   * it, so that a later run finds what to load into its provider. */
  MP_STORE_EXTENSION
} mp_store_change_kind;

typedef struct mp_store_change {
  mp_store_change_kind kind;
  mp_resource *res;     /* INSERT_NEW, UPDATE, UPDATE_NEW, PENDING_ADD */
  int64_t row;          /* DELETE, PENDING_REMOVE, MOVE_NEW */
  mp_pending_type type; /* PENDING_ADD */
  int64_t *pending_row; /* PENDING_ADD: receives the new row */
  const mp_extension *ext; /* EXTENSION */
} mp_store_change;

/* A write session for one operation on one stack; holds the stack's lock
 * and its history row. */
typedef struct mp_store_update mp_store_update;

/* Takes the stack's lock and starts a history entry of |kind|
 * ("update", "refresh", "destroy", "import"). If another live process
 * holds the lock: MP_EBUSY with a message naming the holder (pid, host,
 * time, operation) and `minipulumi cancel` to break it. A stale lock is
 * broken: its holder is a dead process on this host (SQLite), or its
 * database session ended or its lease expired (PostgreSQL); then |stale|
 * (if not NULL) receives the old holder, with the reason in stale->gone,
 * and stale->pid > 0; otherwise it is zeroed. Sets *out on success. |c| is
 * kept (borrowed) to encrypt secrets. */
int mp_store_update_begin(mp_store *s, mp_stack_ref st, const char *kind,
                          const char *message, const mp_crypter *c,
                          mp_lock_info *stale, mp_store_update **out,
                          mp_err *err);
/* The warning for a broken stale lock |stale| (as filled by
 * mp_store_update_begin), naming the old holder. Owned. */
char *mp_lock_info_stale_message(const mp_lock_info *stale);
/* Applies |n| changes in one short transaction. The cost does not grow
 * with the number of resources in the stack. With MINIPULUMI_VERIFY_WRITES
 * set, the whole snapshot is reloaded and verified after the write, and a
 * violation is an MP_ESTATE error (tests use this). */
int mp_store_apply(mp_store_update *u, const mp_store_change *changes, size_t n,
                   mp_err *err);
/* mp_store_apply, except that a backend that writes in the background
 * (file://, whose every write rewrites the whole stack) may return before
 * the changes are durable: *ticket is then > 0, and mp_store_wait with it
 * returns once they are. 0 in *ticket: durable already. Changes made
 * while a write is under way go out together in the next one. Loop
 * thread, as every other call. */
int mp_store_apply_begin(mp_store_update *u, const mp_store_change *changes,
                         size_t n, int64_t *ticket, mp_err *err);
/* Blocks until the changes of |ticket| (from mp_store_apply_begin) are
 * durable: 0, or the error of the background write that failed. The one
 * call that any thread may make, while the loop thread goes on with |u|. */
int mp_store_wait(mp_store_update *u, int64_t ticket, mp_err *err);
/* Drops every pending operation of the stack except `creating` ones (the
 * first write of an update;
 * tests/conformance/scenarios/S52-pending-operations.scn). */
int mp_store_drop_old_pending(mp_store_update *u, mp_err *err);
/* Records the update's metadata environment and its config (JSON objects'
 * text, as mp_history_entry has them; NULL: none) with its history entry,
 * written by mp_store_update_end. Copies both. */
void mp_store_update_info(mp_store_update *u, const char *environment,
                          const char *config);
/* Ends the update: records |result| ("succeeded", "failed", "canceled")
 * and |counts| in the history, releases the lock and frees |u|. */
int mp_store_update_end(mp_store_update *u, const char *result,
                        const mp_update_counts *counts, mp_err *err);

/* ---- locks and history ---- */

/* Fills |info| and returns 1 if the stack is locked, 0 if not. */
int mp_store_lock_get(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                      mp_err *err);
/* Breaks the stack's lock whoever holds it (`minipulumi cancel`). */
int mp_store_lock_break(mp_store *s, mp_stack_ref st, mp_err *err);

/* Newest first; free each with mp_history_entry_destroy, array with free. */
int mp_store_history(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                     size_t *n, mp_err *err);
void mp_history_entry_destroy(mp_history_entry *h);

/* ---- an update's engine events ----
 * Each update keeps the engine events it emitted, in order, as they
 * happen (what the console's update page and its timeline are drawn
 * from): |json| is the event as --event-log writes it (secrets masked),
 * |time_ms| when the engine emitted it (milliseconds since the epoch:
 * the events' own timestamps are whole seconds). */
typedef struct mp_update_event {
  int64_t seq;
  int64_t time_ms;
  char *json;
} mp_update_event;

/* Records the |n| events |ev| of the update |u| together (one
 * transaction, one write), durable as the history is (a killed process
 * loses none that this call returned for). A store that keeps no events
 * (an s3:// or azblob:// bucket) returns 0. */
int mp_store_update_events(mp_store_update *u, const mp_update_event *ev,
                           size_t n, mp_err *err);
/* The events of update |version| of the stack (its history entry's id,
 * finished or still running), oldest first, appended to *out and *n
 * (free with mp_update_events_free). None when none were kept. Reads
 * only: never takes or waits for the stack's lock. */
int mp_store_events(mp_store *s, mp_stack_ref st, int64_t version,
                    mp_update_event **out, size_t *n, mp_err *err);
void mp_update_events_free(mp_update_event *ev, size_t n);

/* ---- backends ----
 * A backend (src/state/) embeds mp_store as the first member of its store
 * and mp_store_update as the first member of its write session, and fills
 * one mp_store_ops. Each operation has the contract of the mp_store_*
 * function of the same name above; the functions above only dispatch. */

struct mp_store {
  const struct mp_store_ops *ops;
  char *location; /* the URL without its password; owned by the backend */
  int verify_writes; /* mp_store_opts.verify_writes */
};

struct mp_store_update {
  mp_store *s; /* the store the session writes to */
  int64_t *lazy; /* rows of MP_STORE_MOVE_LAZY changes not written yet */
  size_t nlazy, lazy_cap;
  /* mp_store_update_info's copies (NULL: none), written by update_end and
   * freed by mp_store_update_end. */
  char *environment, *config;
};

typedef struct mp_store_ops {
  const char *name; /* "sqlite", "postgres" */
  void (*close)(mp_store *s);
  int (*stack_create)(mp_store *s, mp_stack_ref st, mp_err *err);
  int (*stack_exists)(mp_store *s, mp_stack_ref st, mp_err *err);
  int (*stack_list)(mp_store *s, const char *project, mp_stack_info **out,
                    size_t *n, mp_err *err);
  int (*stack_remove)(mp_store *s, mp_stack_ref st, int force, mp_err *err);
  int (*stack_rename)(mp_store *s, mp_stack_ref st, const char *new_name,
                      mp_err *err);
  int (*selected_get)(mp_store *s, const char *project, char **out,
                      mp_err *err);
  int (*selected_set)(mp_store *s, const char *project, const char *name,
                      mp_err *err);
  int (*secrets_get)(mp_store *s, mp_stack_ref st, char **type, char **state,
                     mp_err *err);
  int (*secrets_set)(mp_store *s, mp_stack_ref st, const char *type,
                     const char *state, mp_err *err);
  int (*load)(mp_store *s, mp_stack_ref st, const mp_crypter *c,
              mp_snapshot **out, mp_err *err);
  /* NULL: mp_store_change_mark is -1 (unknown) */
  int64_t (*change_mark)(mp_store *s);
  int (*replace)(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                 const mp_crypter *c, mp_err *err);
  int (*update_begin)(mp_store *s, mp_stack_ref st, const char *kind,
                      const char *message, const mp_crypter *c,
                      mp_lock_info *stale, mp_store_update **out, mp_err *err);
  int (*apply)(mp_store_update *u, const mp_store_change *changes, size_t n,
               mp_err *err);
  /* NULL: mp_store_apply_begin is mp_store_apply (ticket 0) */
  int (*apply_begin)(mp_store_update *u, const mp_store_change *changes,
                     size_t n, int64_t *ticket, mp_err *err);
  int (*wait)(mp_store_update *u, int64_t ticket, mp_err *err);
  int (*drop_old_pending)(mp_store_update *u, mp_err *err);
  int (*update_end)(mp_store_update *u, const char *result,
                    const mp_update_counts *counts, mp_err *err);
  int (*lock_get)(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                  mp_err *err);
  int (*lock_break)(mp_store *s, mp_stack_ref st, mp_err *err);
  int (*history)(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                 size_t *n, mp_err *err);
  int (*writable)(const mp_store *s, mp_err *err);
  int (*tags_get)(mp_store *s, mp_stack_ref st, mp_stack_tag **out, size_t *n,
                  mp_err *err);
  int (*tags_set)(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                  size_t n, mp_err *err);
  /* NULL: the store keeps no events (recording is a no-op, none read) */
  int (*update_events)(mp_store_update *u, const mp_update_event *ev,
                       size_t n, mp_err *err);
  int (*events)(mp_store *s, mp_stack_ref st, int64_t version,
                mp_update_event **out, size_t *n, mp_err *err);
} mp_store_ops;

#endif
