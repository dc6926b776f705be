/* The DIY store under the flows every backend shares (store_flow.c): a
 * stack's model stands in for its database rows, a transaction's commit
 * rewrites the stack's checkpoint file, and loading parses the entries
 * back into resources. */
#include "state/diy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ==== models in use ==== */

static diy_stack *find(mp_diy *s, mp_stack_ref st) {
  for (diy_stack *m = s->stacks; m; m = m->next)
    if (strcmp(m->name, st.name) == 0 &&
        (s->legacy || strcmp(m->project, st.project) == 0))
      return m;
  return NULL;
}

static diy_stack *by_id(mp_diy *s, int64_t id) {
  for (diy_stack *m = s->stacks; m; m = m->next)
    if (m->id == id)
      return m;
  MP_BUG("no DIY stack model %lld", (long long)id);
}

static char *current_path(mp_diy *s, mp_stack_ref st) {
  char *plain = mp__diy_stack_path(s, st);
  char *path = mp__diy_find_checkpoint(s, plain);
  free(plain);
  return path;
}

int mp__diy_get(mp_diy *s, mp_stack_ref st, diy_stack **out, mp_err *err) {
  *out = find(s, st);
  /* a write session's model is the file: nobody else writes it while the
   * lock is held (and asking costs a request on a bucket) */
  if (*out && ((*out)->sessions > 0 || s->tx == *out))
    return 0;
  char *path = current_path(s, st);
  if (*out) {
    char now[96];
    mp__diy_ident(s, path, now);
    if (strcmp(now, (*out)->ident) == 0) {
      free(path);
      return 0;
    }
    mp__diy_release(s, *out); /* another process wrote it: read it again */
    *out = NULL;
  }
  if (path == NULL)
    return mp__store_no_stack(st, err);
  char *text;
  size_t len;
  int rc = mp__diy_read(s, path, &text, &len, err);
  if (rc == MP_ENOENT) /* removed since we looked */
    rc = mp__store_no_stack(st, err);
  if (rc == 0)
    rc = mp__diy_model_parse(s, st, text, len, path, out, err);
  if (rc == 0)
    mp__diy_ident(s, path, (*out)->ident);
  free(text);
  free(path);
  if (rc < 0)
    return rc;
  (*out)->next = s->stacks;
  s->stacks = *out;
  return 0;
}

void mp__diy_release(mp_diy *s, diy_stack *m) {
  if (m == NULL || m->sessions > 0 || s->tx == m)
    return;
  for (diy_stack **p = &s->stacks; *p; p = &(*p)->next) {
    if (*p == m) {
      *p = m->next;
      break;
    }
  }
  mp__diy_model_free(m);
}

void mp__diy_flush_print(mp_diy *s, diy_stack *m, mp_buf *out) {
  mp_stack_ref st = {m->project, m->name};
  mp__diy_model_sort(m);
  char *qualified = mp__diy_qualified(s, st);
  mp__diy_model_print(m, qualified, out);
  free(qualified);
}

static char *checkpoint_path(mp_diy *s, const diy_stack *m) {
  mp_stack_ref st = {m->project, m->name};
  char *plain = mp__diy_stack_path(s, st);
  if (!s->gzip)
    return plain;
  char *path = mp_xasprintf("%s.gz", plain);
  free(plain);
  return path;
}

int mp__diy_flush_write(mp_diy *s, const diy_stack *m, const mp_buf *text,
                        int synced, int bak, char ident[96], mp_err *err) {
  mp_stack_ref st = {m->project, m->name};
  char *plain = mp__diy_stack_path(s, st);
  int gz = s->gzip;
  char *path = checkpoint_path(s, m);
  char *other = gz ? mp_xstrdup(plain) : mp_xasprintf("%s.gz", plain);
  int rc = mp__diy_mkdirs_for(s, path, err);
  if (rc == 0)
    rc = (synced ? mp__diy_write : mp__diy_write_unsynced)(
        s, path, text->data, text->len, gz, bak, err);
  /* only a session's first write can find the other form: the lock keeps
   * every other writer out until the session ends */
  if (rc == 0 && bak && mp__diy_exists(s, other)) {
    /* the environment variable alone decides the form; the other one is
     * kept as its .bak (Pulumi's saveCheckpoint) */
    char *bak = mp_xasprintf("%s.bak", other);
    rc = mp__diy_rename(s, other, bak, err);
    if (rc < 0)
      mp_err_prefix(err, "cannot move '%s' aside", other);
    free(bak);
  }
  if (ident)
    mp__diy_ident(s, rc == 0 ? path : NULL, ident);
  free(other);
  free(path);
  free(plain);
  return rc;
}

int mp__diy_flush_sync(mp_diy *s, const diy_stack *m, char ident[96],
                       mp_err *err) {
  char *path = checkpoint_path(s, m);
  int rc = mp__diy_sync(s, path, err);
  mp__diy_ident(s, rc == 0 ? path : NULL, ident);
  free(path);
  return rc;
}

int mp__diy_flush(mp_diy *s, diy_stack *m, mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  mp__diy_flush_print(s, m, &b);
  int rc = mp__diy_flush_write(s, m, &b, 1, 1, m->ident, err);
  mp_buf_destroy(&b);
  return rc;
}

/* ==== the shared flows' database ==== */

static int stack_id(mp_store *base, mp_stack_ref st, int64_t *id,
                    mp_err *err) {
  diy_stack *m;
  if (mp__diy_get(mp__diy(base), st, &m, err) < 0)
    return err->code;
  *id = m->id;
  return 0;
}

static int in_tx(mp_store *base) { return mp__diy(base)->in_tx; }

static int begin_read(mp_store *base, mp_err *err) {
  (void)base;
  (void)err;
  return 0;
}

static int begin(mp_store *base, mp_err *err) {
  (void)err;
  mp__diy(base)->in_tx = 1;
  return 0;
}

/* Puts back the entries mp_store_replace set aside. */
static void restore_old(diy_stack *m) {
  for (size_t i = 0; i < m->nres; i++)
    mp__diy_entry_free(m->res[i]);
  for (size_t i = 0; i < m->npend; i++)
    mp__diy_entry_free(m->pend[i]);
  free(m->res);
  free(m->pend);
  free(m->byrow);
  m->res = m->old_res;
  m->nres = m->old_nres;
  m->rcap = m->old_rcap;
  m->pend = m->old_pend;
  m->npend = m->old_npend;
  m->pcap = m->old_pcap;
  m->byrow = m->old_byrow;
  m->byrow_cap = m->old_byrow_cap;
  m->next_row = m->old_next_row;
  cJSON_Delete(m->extensions);
  m->extensions = m->old_extensions;
  m->old_extensions = NULL;
  m->old_res = m->old_pend = m->old_byrow = NULL;
  m->old_nres = m->old_npend = 0;
}

static void end_tx(mp_diy *s) {
  s->in_tx = 0;
  s->tx = NULL;
}

static int commit(mp_store *base, mp_err *err) {
  mp_diy *s = mp__diy(base);
  diy_stack *m = s->tx;
  int rc = 0;
  if (m && s->deferred)
    s->ticket = mp__diy_writer_changed(s->deferred); /* it writes the file */
  else if (m)
    rc = mp__diy_flush(s, m, err);
  if (m && m->old_byrow) {
    if (rc < 0) {
      restore_old(m);
    } else {
      for (size_t i = 0; i < m->old_nres; i++)
        mp__diy_entry_free(m->old_res[i]);
      for (size_t i = 0; i < m->old_npend; i++)
        mp__diy_entry_free(m->old_pend[i]);
      free(m->old_res);
      free(m->old_pend);
      free(m->old_byrow);
      cJSON_Delete(m->old_extensions);
      m->old_extensions = NULL;
      m->old_res = m->old_pend = m->old_byrow = NULL;
      m->old_nres = m->old_npend = 0;
    }
  } else if (m && rc < 0) {
    m->broken = 1; /* the model is ahead of the file */
  }
  end_tx(s);
  return rc;
}

static void rollback(mp_store *base) {
  mp_diy *s = mp__diy(base);
  if (s->tx && s->tx->old_byrow)
    restore_old(s->tx);
  end_tx(s);
}

/* Every row the changes name exists (and is not removed by an earlier
 * change of the same write): checked before anything changes, so a write
 * is all or nothing. */
static int check_rows(mp_diy_update *u, const mp_store_change *ch, size_t n,
                      mp_err *err) {
  for (size_t i = 0; i < n; i++) {
    int64_t row = 0;
    const char *what = NULL;
    switch (ch[i].kind) {
    case MP_STORE_UPDATE:
    case MP_STORE_UPDATE_NEW:
      row = ch[i].res->row, what = "cannot update a resource";
      break;
    case MP_STORE_MOVE_NEW:
    case MP_STORE_MOVE_LAZY:
      row = ch[i].row, what = "cannot move a resource";
      break;
    case MP_STORE_DELETE:
      row = ch[i].row, what = "cannot delete a resource";
      break;
    case MP_STORE_PENDING_REMOVE:
      row = ch[i].row, what = "cannot remove a pending operation";
      break;
    default:
      continue;
    }
    const diy_entry *e = mp__diy_model_get(u->m, row);
    int pending = ch[i].kind == MP_STORE_PENDING_REMOVE;
    int gone = e == NULL || e->pending != pending;
    for (size_t j = 0; j < i && !gone; j++)
      gone = (ch[j].kind == MP_STORE_DELETE ||
              ch[j].kind == MP_STORE_PENDING_REMOVE) &&
             ch[j].row == row;
    if (gone)
      return mp__store_no_row(what, u->label, row, err);
  }
  return 0;
}

/* Takes the JSON of |json| (left empty). */
static char *take(mp_buf *json, size_t *len) {
  return mp_buf_detach(json, len);
}

/* Records extension |ref| (its JSON in |json|) unless it is there. */
static void add_extension(diy_stack *m, const char *ref, const mp_buf *json) {
  if (m->extensions == NULL) m->extensions = cJSON_CreateObject();
  if (cJSON_GetObjectItemCaseSensitive(m->extensions, ref)) return;
  cJSON *e = cJSON_ParseWithLength(json->data ? json->data : "", json->len);
  if (e) cJSON_AddItemToObject(m->extensions, ref, e);
}

static void apply_one(mp_diy_update *u, const mp_store_change *ch,
                      mp_buf *json, int64_t *ord, int64_t *row) {
  diy_stack *m = u->m;
  size_t len;
  diy_entry *e;
  switch (ch->kind) {
  case MP_STORE_INSERT_NEW:
  case MP_STORE_PENDING_ADD: {
    int pending = ch->kind == MP_STORE_PENDING_ADD;
    char *text = take(json, &len);
    *row = mp__diy_model_add(m, text, len, pending ? 0 : (*ord)++, pending,
                             ch->type,
                             pending ? 0 : mp__diy_features_of_resource(ch->res));
    return;
  }
  case MP_STORE_UPDATE:
  case MP_STORE_UPDATE_NEW:
    e = mp__diy_model_get(m, ch->res->row);
    mp__diy_model_bury(m, e->json, 0); /* the writer may be printing it */
    e->json = take(json, &e->len);
    e->features = mp__diy_features_of_resource(ch->res);
    if (ch->kind == MP_STORE_UPDATE_NEW) {
      e->ord = (*ord)++;
      m->unsorted = 1;
    }
    return;
  case MP_STORE_MOVE_NEW:
  case MP_STORE_MOVE_LAZY:
    e = mp__diy_model_get(m, ch->row);
    e->ord = (*ord)++;
    m->unsorted = 1;
    return;
  case MP_STORE_DELETE:
  case MP_STORE_PENDING_REMOVE:
    mp__diy_model_remove(m, ch->row);
    return;
  case MP_STORE_EXTENSION:
    add_extension(m, ch->ext->ref, json);
    return;
  }
}

static int write_changes(mp_store_update *base, const mp_store_change *ch, size_t n,
                 const mp_buf *json, int64_t *ord, int64_t *rows,
                 mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  mp_diy *s = u->s;
  s->in_tx = 1;
  if (u->m->broken)
    return mp_err_set(err, MP_EIO,
                      "an earlier write of stack '%s' failed; its "
                      "checkpoint keeps what the last completed write stored",
                      u->label);
  mp_stack_ref st = {u->m->project, u->m->name};
  /* a session's writer looks for its lock before each write it makes, off
   * this thread: once per write, not once per change (a request each on
   * a bucket) */
  if ((s->deferred == NULL && mp__diy_lock_held(s, st, u->label, err) < 0) ||
      check_rows(u, ch, n, err) < 0)
    return err->code;
  s->tx = u->m;
  for (size_t i = 0; i < n; i++) /* |json| is the caller's to destroy */
    apply_one(u, &ch[i], (mp_buf *)&json[i], ord, &rows[i]);
  return 0;
}

static int replace_start(mp_store *base, mp_stack_ref st, const char *label,
                         int64_t *id, mp_err *err) {
  (void)label; /* the lock check names the stack itself */
  mp_diy *s = mp__diy(base);
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  s->tx = m;
  *id = m->id;
  return m->sessions ? 0 : mp__diy_lock_check_free(s, st, err);
}

static int clear(mp_store *base, int64_t id, mp_err *err) {
  (void)err;
  diy_stack *m = by_id(mp__diy(base), id);
  m->old_res = m->res;
  m->old_nres = m->nres;
  m->old_rcap = m->rcap;
  m->old_pend = m->pend;
  m->old_npend = m->npend;
  m->old_pcap = m->pcap;
  m->old_byrow = m->byrow;
  m->old_byrow_cap = m->byrow_cap;
  m->old_next_row = m->next_row;
  m->old_extensions = m->extensions;
  m->extensions = NULL;
  m->res = m->pend = m->byrow = NULL;
  m->nres = m->npend = m->rcap = m->pcap = m->byrow_cap = 0;
  /* rows go on from where they were: a row is never reused */
  return 0;
}

static int insert_resource(mp_store *base, int64_t id, int64_t ord,
                           const mp_resource *r, const mp_buf *json,
                           int64_t *row, mp_err *err) {
  (void)err;
  diy_stack *m = by_id(mp__diy(base), id);
  *row = mp__diy_model_add(m, mp_xstrndup(json->data ? json->data : "", json->len),
                           json->len, ord, 0, MP_PENDING_CREATING,
                           mp__diy_features_of_resource(r));
  return 0;
}

static int insert_extension(mp_store *base, int64_t id, const char *ref,
                            const mp_buf *json, mp_err *err) {
  (void)err;
  add_extension(by_id(mp__diy(base), id), ref, json);
  return 0;
}

static int insert_pending(mp_store *base, int64_t id, mp_pending_type t,
                          const mp_buf *json, int64_t *row, mp_err *err) {
  (void)err;
  diy_stack *m = by_id(mp__diy(base), id);
  *row = mp__diy_model_add(m, mp_xstrndup(json->data ? json->data : "", json->len),
                           json->len, 0, 1, t, 0);
  return 0;
}

/* The writer of an open session on |m| that this thread does not hold
 * already (inside mp__diy_apply_begin it does), or NULL. */
static diy_writer *writer_to_lock(mp_diy *s, const diy_stack *m) {
  if (s->deferred)
    return NULL;
  for (mp_diy_update *u = s->updates; u; u = u->next)
    if (u->m == m && u->writer)
      return u->writer;
  return NULL;
}

static int read_rows_of(diy_stack *m, const mp_crypter *c, unsigned flags,
                        mp_snapshot *snap, mp_err *err);

static int read_rows(mp_store *base, int64_t id, const mp_crypter *c,
                     unsigned flags, mp_snapshot *snap, mp_err *err) {
  mp_diy *s = mp__diy(base);
  diy_stack *m = by_id(s, id);
  /* the writer may be printing the model: it must not be sorted under it */
  diy_writer *w = writer_to_lock(s, m);
  if (w)
    mp__diy_writer_lock(w);
  int rc = read_rows_of(m, c, flags, snap, err);
  if (w)
    mp__diy_writer_unlock(w);
  return rc;
}

static int read_rows_of(diy_stack *m, const mp_crypter *c, unsigned flags,
                        mp_snapshot *snap, mp_err *err) {
  mp__diy_model_sort(m);
  for (size_t i = 0; i < m->nres; i++) {
    const diy_entry *e = m->res[i];
    if (mp__store_read_resource(e->row, e->json, e->len, c, flags, snap, err) <
        0)
      return err->code;
  }
  for (size_t i = 0; i < m->npend; i++) {
    const diy_entry *e = m->pend[i];
    if (mp__store_read_pending(e->row, e->type, e->json, e->len, c, flags, snap,
                               err) < 0)
      return err->code;
  }
  const cJSON *it;
  cJSON_ArrayForEach(it, m->extensions) {
    char *text = cJSON_PrintUnformatted(it);
    int rc = mp__store_parse_extension(it->string, text, strlen(text), snap,
                                       err);
    cJSON_free(text);
    if (rc < 0) return rc;
  }
  return 0;
}

const mp__store_db mp__diy_db = {
    .stack_id = stack_id,
    .in_tx = in_tx,
    .begin_read = begin_read,
    .begin = begin,
    .commit = commit,
    .rollback = rollback,
    .write = write_changes,
    .replace_start = replace_start,
    .clear = clear,
    .insert_resource = insert_resource,
    .insert_pending = insert_pending,
    .insert_extension = insert_extension,
    .read_rows = read_rows,
};

/* ==== operations ==== */

int mp__diy_load(mp_store *base, mp_stack_ref st, const mp_crypter *c,
                 mp_snapshot **out, mp_err *err) {
  mp_diy *s = mp__diy(base);
  (void)s;
  return mp__store_load(&mp__diy_db, base, st, c, out, err);
}

int mp__diy_replace(mp_store *base, mp_stack_ref st, mp_snapshot *snap,
                    const mp_crypter *c, mp_err *err) {
  mp_diy *s = mp__diy(base);
  (void)s;
  return mp__store_replace(&mp__diy_db, base, st, snap, c, err);
}

/* The write of mp_store_apply, in the session's writer when it has one. */
static int apply_locked(mp_diy_update *u, const mp_store_change *changes,
                        size_t n, mp_err *err) {
  mp_store_update *base = &u->base;
  int rc = mp__store_apply(&mp__diy_db, base, u->c, &u->next_ord, changes, n,
                           err);
  for (size_t i = 0; rc == 0 && i < n && !u->wrote; i++)
    u->wrote = changes[i].kind != MP_STORE_MOVE_LAZY;
  if (rc == 0 && n > 0 && base->s->verify_writes)
    rc = mp__store_verify_stored(&mp__diy_db, base->s, u->m->id, u->label, err);
  return rc;
}

int mp__diy_apply_begin(mp_store_update *base, const mp_store_change *changes,
                        size_t n, int64_t *ticket, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  mp_diy *s = u->s;
  *ticket = 0;
  if (u->writer == NULL &&
      (u->writer = mp__diy_writer_start(s, u->m, u->label, err)) == NULL)
    return err->code;
  mp__diy_writer_lock(u->writer);
  s->deferred = u->writer;
  s->ticket = 0;
  int rc = apply_locked(u, changes, n, err);
  *ticket = rc == 0 ? s->ticket : 0; /* 0: nothing was written */
  s->deferred = NULL;
  mp__diy_writer_unlock(u->writer);
  return rc;
}

int mp__diy_wait(mp_store_update *base, int64_t ticket, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  if (ticket <= 0 || u->writer == NULL)
    return 0;
  return mp__diy_writer_wait(u->writer, ticket, err);
}

int mp__diy_apply(mp_store_update *base, const mp_store_change *changes,
                  size_t n, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  if (u->writer == NULL)
    return apply_locked(u, changes, n, err);
  int64_t ticket;
  int rc = mp__diy_apply_begin(base, changes, n, &ticket, err);
  return rc < 0 ? rc : mp__diy_wait(base, ticket, err);
}

int mp__diy_drop_old_pending(mp_store_update *base, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  diy_stack *m = u->m;
  if (u->writer)
    mp__diy_writer_lock(u->writer);
  int dropped = 0;
  for (size_t i = m->npend; i-- > 0;) {
    diy_entry *e = m->pend[i];
    if (e->row <= u->pending_high && e->type != MP_PENDING_CREATING) {
      mp__diy_model_remove(m, e->row);
      dropped = 1;
    }
  }
  u->wrote |= dropped;
  if (u->writer == NULL)
    return dropped ? mp__diy_flush(u->s, m, err) : 0;
  int64_t ticket = dropped ? mp__diy_writer_changed(u->writer) : 0;
  mp__diy_writer_unlock(u->writer);
  return mp__diy_wait(base, ticket, err);
}

int mp__diy_final_write(mp_diy_update *u, mp_err *err) {
  if ((u->wrote && u->base.nlazy == 0) || u->m->broken) return 0;
  if (u->writer == NULL) return mp__diy_flush(u->s, u->m, err);
  mp__diy_writer_lock(u->writer);
  int64_t ticket = mp__diy_writer_changed(u->writer);
  mp__diy_writer_unlock(u->writer);
  return mp__diy_writer_wait(u->writer, ticket, err);
}
