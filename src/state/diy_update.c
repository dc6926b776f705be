/* Write sessions of the DIY store: an operation takes the stack's lock
 * file, keeps a copy of the checkpoint in .pulumi/backups (Pulumi's
 * backupStack), writes each step's effect through mp__diy_apply (the
 * whole checkpoint rewritten atomically), and at the end records the
 * update in .pulumi/history and removes its lock file. */
#include "state/diy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* .pulumi/backups/<project>/<stack>/<stack>.<ns>.json[.gz]: the checkpoint
 * as it was before the update, unless
 * PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS is set. */
static int backup_stack(mp_diy *s, mp_stack_ref st, mp_err *err) {
  if (s->no_backups)
    return 0;
  char *plain = mp__diy_stack_path(s, st);
  char *path = mp__diy_find_checkpoint(s, plain);
  free(plain);
  if (path == NULL)
    return 0;
  char *text;
  size_t len;
  int rc = mp__diy_read(s, path, &text, &len, err);
  if (rc == 0) {
    int gz = strcmp(path + strlen(path) - 3, ".gz") == 0;
    char *dir = mp__diy_stack_dir(s, "backups", st);
    char *dst = mp_xasprintf("%s/%s.%lld.json%s", dir, st.name,
                             (long long)mp__diy_now_ns(), gz ? ".gz" : "");
    rc = mp__diy_mkdirs(s, dir, err);
    if (rc == 0)
      rc = mp__diy_write(s, dst, text, len, gz, 0, err);
    free(dst);
    free(dir);
    free(text);
  }
  free(path);
  return rc;
}

static void start_positions(mp_diy_update *u) {
  const diy_stack *m = u->m;
  int64_t min = 0;
  for (size_t i = 0; i < m->nres; i++)
    if (i == 0 || m->res[i]->ord < min)
      min = m->res[i]->ord;
  u->next_ord = m->nres ? min - MP__STORE_ORD_SPAN : 0;
  for (size_t i = 0; i < m->npend; i++)
    if (m->pend[i]->row > u->pending_high)
      u->pending_high = m->pend[i]->row;
}

int mp__diy_update_begin(mp_store *base, mp_stack_ref st, const char *kind,
                         const char *message, const mp_crypter *c,
                         mp_lock_info *stale, mp_store_update **out,
                         mp_err *err) {
  mp_diy *s = mp__diy(base);
  *out = NULL;
  diy_stack *m;
  if (mp__diy_get(s, st, &m, err) < 0)
    return err->code;
  int rc = mp__diy_lock_take(s, st, kind, stale, err);
  if (rc == 0 && (rc = backup_stack(s, st, err)) < 0)
    mp__diy_lock_release(s, st);
  if (rc < 0)
    return rc;
  mp_diy_update *u = mp_xcalloc(1, sizeof(*u));
  u->base.s = base;
  u->s = s;
  u->m = m;
  u->c = c;
  u->label = mp__store_label(st);
  u->kind = mp_xstrdup(kind);
  u->message = mp_xstrdup(message ? message : "");
  u->start = (int64_t)time(NULL);
  m->sessions++;
  start_positions(u);
  u->next = s->updates;
  s->updates = u;
  *out = &u->base;
  return 0;
}

static void unlink_update(mp_diy_update *u) {
  for (mp_diy_update **p = &u->s->updates; *p; p = &(*p)->next) {
    if (*p == u) {
      *p = u->next;
      return;
    }
  }
}

int mp__diy_update_end(mp_store_update *base, const char *result,
                       const mp_update_counts *counts, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  mp_diy *s = u->s;
  mp_stack_ref st = {u->m->project, u->m->name};
  /* the final write, then everything the writer has not written yet */
  int rc = mp__diy_final_write(u, err);
  mp_err serr;
  mp_err_clear(&serr);
  if (mp__diy_writer_stop(u->writer, &serr) < 0 && rc == 0) {
    *err = serr;
    rc = serr.code;
  }
  u->writer = NULL;
  mp_err herr;
  mp_err_clear(&herr);
  if (mp__diy_history_add(s, u, result, counts, &herr) < 0 && rc == 0) {
    *err = herr;
    rc = herr.code;
  }
  mp__diy_events_close(u);
  mp__diy_lock_release(s, st);
  unlink_update(u);
  u->m->sessions--;
  free(u->base.lazy);
  free(u->label);
  free(u->kind);
  free(u->message);
  free(u);
  return rc;
}
