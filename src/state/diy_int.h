/* Internal to the DIY state store (src/state/diy_*.c): Pulumi's `file://`
 * backend layout, read and written in place so that the Pulumi CLI and
 * minipulumi can take turns on one folder (docs/state-backends.md, "DIY
 * folders"). The layout is Pulumi's pkg/backend/diy:
 *
 *   .pulumi/meta.yaml                              `version: 1` (absent: legacy)
 *   .pulumi/stacks/<project>/<stack>.json[.gz]     the versioned checkpoint
 *   .pulumi/stacks/<project>/<stack>.json[.gz].bak the one before it
 *   .pulumi/history/<project>/<stack>/<stack>-<ns>.{history,checkpoint}.json
 *   .pulumi/backups/<project>/<stack>/<stack>.<ns>.json
 *   .pulumi/locks/organization/<project>/<stack>/<uuid>.json
 *
 * (legacy layout: no <project> level, and locks under .pulumi/locks/<stack>).
 * A stack in use is held in memory as a model (diy_stack): its entries'
 * checkpoint JSON, each with the row the engine names it by, in order; a
 * write changes the model and rewrites the checkpoint file whole. */
#ifndef MP_DIY_INT_H
#define MP_DIY_INT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "state/diy_obj.h"
#include "state/store_int.h"

/* One resource or pending operation of a stack. */
typedef struct diy_entry {
  int64_t row; /* what the engine names it by; never reused in a model */
  int64_t ord; /* position among the resources */
  char *json;  /* its ResourceV3 JSON, compact */
  size_t len;
  unsigned features; /* DIY_FEAT_* this entry needs */
  int pending;       /* a pending operation of |type| */
  mp_pending_type type;
} diy_entry;

/* Features of checkpoint version 4 (snapshot_json.c writes the same). */
enum {
  DIY_FEAT_REFRESH_BEFORE_UPDATE = 1 << 0,
  DIY_FEAT_REPLACE_WITH = 1 << 1,
  DIY_FEAT_TAINT = 1 << 2,
  DIY_FEAT_EXTENSION = 1 << 3
};

typedef struct diy_stack diy_stack;
struct diy_stack {
  int64_t id;
  char *project, *name;
  diy_entry **res; /* resources; sorted by ord unless |unsorted| */
  size_t nres, rcap;
  diy_entry **pend; /* pending operations in order */
  size_t npend, pcap;
  diy_entry **byrow; /* row -> entry (NULL once removed) */
  size_t byrow_cap;
  int64_t next_row;
  int unsorted;
  char *secrets_type, *secrets_state;
  cJSON *config;   /* checkpoint.config, kept as read */
  cJSON *metadata; /* latest.metadata, kept as read */
  cJSON *extensions; /* latest.extensions (ref -> extension), or NULL */
  int sessions;    /* open write sessions on it */
  /* the checkpoint file as last read or written: another process's write
   * changes it, and the model is then read again */
  char ident[96];
  int broken;      /* a write failed after changing the model */
  /* set (under the writer's mutex) while the writer prints a snapshot
   * of the model outside it: the texts and entries the model drops are
   * kept in |grave| until the print is done (mp__diy_model_bury) */
  int printing;
  struct diy_grave {
    void *p;
    int is_entry;
  } *grave;
  size_t ngrave, gcap;
  /* mp_store_replace's transaction: the entries it replaces */
  diy_entry **old_res, **old_pend, **old_byrow;
  size_t old_nres, old_npend, old_rcap, old_pcap, old_byrow_cap;
  int64_t old_next_row;
  cJSON *old_extensions;
  diy_stack *next;
};

typedef struct mp_diy_update mp_diy_update;
typedef struct diy_writer diy_writer;

typedef struct mp_diy {
  mp_store base;
  char *root;       /* the folder the URL names, absolute, or s3://B[/P] */
  mp_diy_objs *objs; /* where the objects live */
  int legacy;       /* no meta.yaml version 1: stacks are not per project */
  int legacy_wanted; /* a new folder gets the legacy layout */
  int gzip;          /* checkpoints are written as .json.gz */
  int no_backups;    /* no per-update backups */
  char lock_id[40]; /* this store's lock file name, a UUID as Pulumi's */
  char host[256];
  char user[128];
  int64_t pid;
  int64_t next_id;
  diy_stack *stacks;        /* models loaded */
  diy_stack *tx;            /* the model the open transaction writes */
  int in_tx;
  mp_diy_update *updates;   /* open write sessions, to unlock on close */
  /* set during mp__diy_apply_begin: the commit hands the model to this
   * writer instead of writing the file itself */
  diy_writer *deferred;
  int64_t ticket; /* what that commit got from the writer */
} mp_diy;

struct mp_diy_update {
  mp_store_update base;
  mp_diy *s;
  diy_stack *m;
  const mp_crypter *c;
  char *label;
  char *kind, *message;
  int64_t start; /* unix seconds */
  int64_t next_ord;
  int64_t pending_high; /* highest pending row at begin */
  diy_writer *writer;   /* started by the first mp__diy_apply_begin */
  int wrote; /* a change of this session went to the file (not deferred) */
  int events_fd1; /* the events file's descriptor + 1; 0: not open yet */
  mp_diy_update *next;
};

static inline mp_diy *mp__diy(mp_store *s) { return (mp_diy *)s; }

/* ==== paths (diy_store.c); all owned ==== */

/* The checkpoint file's path without compression: .../<stack>.json */
char *mp__diy_stack_path(const mp_diy *s, mp_stack_ref st);
/* The folder of the stack's lock files. */
char *mp__diy_lock_dir(const mp_diy *s, mp_stack_ref st);
/* The folder of the stack's history (|what| "history") or backups. */
char *mp__diy_stack_dir(const mp_diy *s, const char *what, mp_stack_ref st);
/* The checkpoint's "stack" name: organization/<project>/<stack>. */
char *mp__diy_qualified(const mp_diy *s, mp_stack_ref st);
/* 1 if PULUMI_DIY_BACKEND_GZIP asks for compressed checkpoints. */

/* ==== files (diy_file.c) ==== */

/* The objects go through s->objs (diy_obj.h): a folder or a bucket. */

/* The bytes of |path|, gunzipped when they are gzip (*len their length;
 * owned). MP_ENOENT if it does not exist. */
int mp__diy_read(mp_diy *s, const char *path, char **out, size_t *len,
                 mp_err *err);
/* Writes |len| bytes to |path| (gzipped if |gz|) whole. With |bak| the
 * object it replaces is first copied to |path|.bak. */
int mp__diy_write(mp_diy *s, const char *path, const char *data, size_t len,
                  int gz, int bak, mp_err *err);
/* mp__diy_write, but the object may stay in the system's cache until
 * mp__diy_sync (objects' put_unsynced). */
int mp__diy_write_unsynced(mp_diy *s, const char *path, const char *data,
                           size_t len, int gz, int bak, mp_err *err);
/* What mp__diy_write_unsynced wrote to |path| is on disk. */
int mp__diy_sync(mp_diy *s, const char *path, mp_err *err);
/* Removes |path|; a missing one is fine. */
int mp__diy_unlink(mp_diy *s, const char *path, mp_err *err);
/* |from| becomes |to| (a rename, or a copy and a delete). */
int mp__diy_rename(mp_diy *s, const char *from, const char *to, mp_err *err);
/* Removes folder |dir| if it is empty (a bucket has no folders). */
void mp__diy_rmdir(mp_diy *s, const char *dir);
/* mkdir -p of |dir| (nothing in a bucket). */
int mp__diy_mkdirs(mp_diy *s, const char *dir, mp_err *err);
/* mkdir -p of the folder holding |path|. */
int mp__diy_mkdirs_for(mp_diy *s, const char *path, mp_err *err);
/* rm -rf |path|; a missing path is fine. */
int mp__diy_remove_tree(mp_diy *s, const char *path, mp_err *err);
/* Appends the names in folder |dir| (sorted; none if missing). */
int mp__diy_list(mp_diy *s, const char *dir, mp_strv *out, mp_err *err);
/* 1 if |path| exists. */
int mp__diy_exists(mp_diy *s, const char *path);
/* What identifies the content of checkpoint |path| ("none" if NULL or
 * missing: then -1). */
int mp__diy_ident(mp_diy *s, const char *path, char out[96]);
/* Which checkpoint file of stack base path |plain| (.../<stack>.json)
 * exists: the plain or the .gz one, the newer if both (Pulumi's
 * stackPath). Owned, or NULL if neither. */
char *mp__diy_find_checkpoint(mp_diy *s, const char *plain);
/* Nanoseconds since the epoch. */
int64_t mp__diy_now_ns(void);
/* |v| as a whole number in int64's range: 1 and *out set; 0 if |v| is
 * not a number (*out 0); -1 if it is one no int64 holds (1e300, 1.5,
 * which Go's encoding/json refuses for an int64 field). */
int mp__diy_json_int64(const cJSON *v, int64_t *out);

/* ==== the model (diy_model.c) ==== */

/* Parses checkpoint text into a new model for |st|. */
int mp__diy_model_parse(mp_diy *s, mp_stack_ref st, const char *text,
                        size_t len, const char *path, diy_stack **out,
                        mp_err *err);
/* A new empty model for |st|. */
diy_stack *mp__diy_model_new(mp_diy *s, mp_stack_ref st);
void mp__diy_model_free(diy_stack *m);
/* The versioned checkpoint of |m| (stack name |qualified|), compact. */
void mp__diy_model_print(const diy_stack *m, const char *qualified,
                         mp_buf *out);

/* What printing a model needs, taken from it at one moment, so that the
 * 5 MB of a large stack are printed without holding the model: the
 * small parts already printed and the entries' texts by reference (the
 * model keeps them alive meanwhile: |printing| and mp__diy_model_bury). */
typedef struct diy_snap_entry {
  const char *json;
  size_t len;
  mp_pending_type type; /* of a pending operation */
} diy_snap_entry;
typedef struct diy_snap {
  mp_buf head; /* up to the resources */
  mp_buf tail; /* after the pending operations */
  diy_snap_entry *res, *pend;
  size_t nres, npend, rcap, pcap;
} diy_snap;
void mp__diy_snap_init(diy_snap *sn);
void mp__diy_snap_destroy(diy_snap *sn);
/* |sn| becomes a snapshot of |m| (sorted by the caller). */
void mp__diy_snap_take(diy_snap *sn, const diy_stack *m,
                       const char *qualified);
/* Appends the checkpoint text of |sn| to |out|. */
void mp__diy_snap_print(const diy_snap *sn, mp_buf *out);
/* Frees |p| (an entry's text, or a diy_entry with its text when
 * |is_entry|), or keeps it until the print under way ends. */
void mp__diy_model_bury(diy_stack *m, void *p, int is_entry);
/* The print under way ended: frees what it kept. */
void mp__diy_model_unbury(diy_stack *m);
/* Adds a resource (|pending| 0, at |ord|) or a pending operation of
 * |type|, taking |json| (needing |features|); returns its row. */
int64_t mp__diy_model_add(diy_stack *m, char *json, size_t len, int64_t ord,
                          int pending, mp_pending_type type,
                          unsigned features);
/* The entry with |row|, or NULL. */
diy_entry *mp__diy_model_get(const diy_stack *m, int64_t row);
/* Removes the entry with |row| (which exists). */
void mp__diy_model_remove(diy_stack *m, int64_t row);
/* Sorts the resources by ord if needed. */
void mp__diy_model_sort(diy_stack *m);
/* The features the entry |json| needs. */
unsigned mp__diy_features_of(const cJSON *res);
unsigned mp__diy_features_of_resource(const mp_resource *r);
void mp__diy_entry_free(diy_entry *e);

/* ==== models in use (diy_db.c) ==== */

/* The model of stack |st| (loaded from its file if not in memory yet);
 * MP_ENOENT if the stack does not exist. */
int mp__diy_get(mp_diy *s, mp_stack_ref st, diy_stack **out, mp_err *err);
/* Forgets |m| unless a write session holds it (a stack removed or
 * renamed). Models are otherwise kept, so that the rows handed out stay
 * valid for the life of the store. */
void mp__diy_release(mp_diy *s, diy_stack *m);
/* Writes the checkpoint of |m|: mp__diy_flush_print then
 * mp__diy_flush_write. */
int mp__diy_flush(mp_diy *s, diy_stack *m, mp_err *err);
/* The checkpoint text of |m| (sorting it first). */
void mp__diy_flush_print(mp_diy *s, diy_stack *m, mp_buf *out);
/* Writes checkpoint |text| of |m| to its file in the form
 * PULUMI_DIY_BACKEND_GZIP asks for; |ident| (if not NULL) receives what
 * identifies the file written. Unless |synced|, the file may stay in the
 * system's cache until mp__diy_flush_sync. With |bak| (the first write of
 * a session, or a write outside one) the file it replaces becomes its
 * .bak first and the other form is moved to its .bak. Reads only what
 * never changes during a session. */
int mp__diy_flush_write(mp_diy *s, const diy_stack *m, const mp_buf *text,
                        int synced, int bak, char ident[96], mp_err *err);
/* The checkpoint file of |m| is on disk; |ident| receives what identifies
 * it. */
int mp__diy_flush_sync(mp_diy *s, const diy_stack *m, char ident[96],
                       mp_err *err);
extern const mp__store_db mp__diy_db;

/* ==== operations (store.h contracts) ==== */
int mp__diy_stack_create(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__diy_stack_exists(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__diy_stack_list(mp_store *s, const char *project, mp_stack_info **out,
                       size_t *n, mp_err *err);
int mp__diy_stack_remove(mp_store *s, mp_stack_ref st, int force, mp_err *err);
int mp__diy_stack_rename(mp_store *s, mp_stack_ref st, const char *new_name,
                         mp_err *err);
int mp__diy_selected_get(mp_store *s, const char *project, char **out,
                         mp_err *err);
int mp__diy_selected_set(mp_store *s, const char *project, const char *name,
                         mp_err *err);
int mp__diy_secrets_get(mp_store *s, mp_stack_ref st, char **type,
                        char **state, mp_err *err);
int mp__diy_secrets_set(mp_store *s, mp_stack_ref st, const char *type,
                        const char *state, mp_err *err);
int mp__diy_load(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                 mp_snapshot **out, mp_err *err);
int mp__diy_replace(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                    const mp_crypter *c, mp_err *err);
int mp__diy_update_begin(mp_store *s, mp_stack_ref st, const char *kind,
                         const char *message, const mp_crypter *c,
                         mp_lock_info *stale, mp_store_update **out,
                         mp_err *err);
int mp__diy_apply(mp_store_update *u, const mp_store_change *changes, size_t n,
                  mp_err *err);
int mp__diy_apply_begin(mp_store_update *u, const mp_store_change *changes,
                        size_t n, int64_t *ticket, mp_err *err);
int mp__diy_wait(mp_store_update *u, int64_t ticket, mp_err *err);
int mp__diy_drop_old_pending(mp_store_update *u, mp_err *err);
int mp__diy_update_end(mp_store_update *u, const char *result,
                       const mp_update_counts *counts, mp_err *err);
int mp__diy_lock_get(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                     mp_err *err);
int mp__diy_lock_break(mp_store *s, mp_stack_ref st, mp_err *err);
int mp__diy_history(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                    size_t *n, mp_err *err);

/* ==== locks (diy_lock.c) ==== */

/* Takes the stack's lock as Pulumi's lock.go does (write ours, then look
 * for others); breaks locks of dead processes on this host (*stale). */
int mp__diy_lock_take(mp_diy *s, mp_stack_ref st, const char *kind,
                      mp_lock_info *stale, mp_err *err);
/* MP_EBUSY with Pulumi's message if another holder's lock file exists. */
int mp__diy_lock_check_free(mp_diy *s, mp_stack_ref st, mp_err *err);
/* 0 if this store's lock file of |st| is still there, else MP_EBUSY. */
int mp__diy_lock_held(mp_diy *s, mp_stack_ref st, const char *label,
                      mp_err *err);
void mp__diy_lock_release(mp_diy *s, mp_stack_ref st);

/* ==== the background writer (diy_writer.c) ==== */

/* Starts the writer of session model |m|; NULL (and |err|) if no thread. */
diy_writer *mp__diy_writer_start(mp_diy *s, diy_stack *m, const char *label,
                                 mp_err *err);
/* Held while the model changes, so that the writer never prints it half
 * changed. */
void mp__diy_writer_lock(diy_writer *w);
void mp__diy_writer_unlock(diy_writer *w);
/* The model changed (lock held): wakes the writer; returns the change's
 * ticket. */
int64_t mp__diy_writer_changed(diy_writer *w);
/* Blocks until the change with |ticket| is on disk (any thread); the
 * error of a failed write otherwise. */
int mp__diy_writer_wait(diy_writer *w, int64_t ticket, mp_err *err);
/* Writes what is left, stops and frees |w| (NULL ok); the error of a
 * failed write, if any. */
int mp__diy_writer_stop(diy_writer *w, mp_err *err);

/* ==== history (diy_history.c) ==== */

/* Writes the history entry of a finished update and the copy of the
 * checkpoint beside it. */
/* At the end of write session |u|: the checkpoint is written once more
 * unless the session's last change already went to the file, as Pulumi's
 * snapshot journaler (pkg/backend/snapshot.go defaultServiceLoop) flushes
 * its elided writes on close, even when there were no changes at all. The
 * model is written as it stands: deferred moves of `same` entries are not
 * made, so the order stays what SQLite and PostgreSQL keep. So a no-op
 * update rewrites the file (its manifest time, its .bak, and the form
 * PULUMI_DIY_BACKEND_GZIP asks for). */
int mp__diy_final_write(mp_diy_update *u, mp_err *err);
int mp__diy_history_add(mp_diy *s, mp_diy_update *u, const char *result,
                        const mp_update_counts *counts, mp_err *err);
/* The newest history entry's end time (RFC 3339, owned) or NULL. */
char *mp__diy_history_last(mp_diy *s, mp_stack_ref st);
/* Moves the history of |st| to stack |new_name|. */
int mp__diy_history_rename(mp_diy *s, mp_stack_ref st, const char *new_name,
                           mp_err *err);

/* ==== an update's engine events (diy_events.c) ==== */

int mp__diy_update_events(mp_store_update *u, const mp_update_event *ev,
                            size_t n, mp_err *err);
int mp__diy_events(mp_store *s, mp_stack_ref st, int64_t version,
                   mp_update_event **out, size_t *n, mp_err *err);
/* Closes the session's events file, if open. */
void mp__diy_events_close(mp_diy_update *u);

/* ==== stack tags (diy_tags.c) ==== */
int mp__diy_tags_get(mp_store *s, mp_stack_ref st, mp_stack_tag **out,
                     size_t *n, mp_err *err);
int mp__diy_tags_set(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                     size_t n, mp_err *err);
/* The stack's tags file goes with it: removed, or moved to |new_name|. */
int mp__diy_tags_remove(mp_diy *s, mp_stack_ref st, mp_err *err);
int mp__diy_tags_rename(mp_diy *s, mp_stack_ref st, const char *new_name,
                        mp_err *err);

#endif
