/* Update history: a row per operation, opened in-progress when the
 * operation takes the stack's lock and closed with its result and step
 * counts. */
#include "state/sqlite_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mp__history_begin(mp_sqlite *s, int64_t stack_id, const char *kind,
                      const char *message, int64_t *seq, mp_err *err) {
  sqlite3_stmt *q = mp__stmt(s, ST_HIST_NEXT, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, stack_id);
  int rc = sqlite3_step(q);
  *seq = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
  mp__stmt_done(q);
  if (rc != SQLITE_ROW)
    return mp__sql_err(s, "cannot read the history", err);
  if ((q = mp__stmt(s, ST_HIST_INSERT, err)) == NULL)
    return err->code;
  char *now = mp_now_rfc3339();
  sqlite3_bind_int64(q, 1, stack_id);
  sqlite3_bind_int64(q, 2, *seq);
  mp__bind_text(q, 3, kind);
  mp__bind_text(q, 4, message);
  mp__bind_text(q, 5, now);
  rc = mp__stmt_exec(s, q, "cannot record the update in the history", err);
  free(now);
  return rc;
}

int mp__history_end(mp_sqlite *s, int64_t stack_id, int64_t seq,
                    const char *result, const mp_update_counts *counts,
                    const mp_store_update *info, mp_err *err) {
  int64_t n[9];
  mp__store_counts_to_array(counts, n);
  sqlite3_stmt *q = mp__stmt(s, ST_HIST_END, err);
  if (q == NULL)
    return err->code;
  char *now = mp_now_rfc3339();
  sqlite3_bind_int64(q, 1, stack_id);
  sqlite3_bind_int64(q, 2, seq);
  mp__bind_text(q, 3, result);
  mp__bind_text(q, 4, now);
  for (size_t i = 0; i < MP_ARRAY_LEN(n); i++)
    sqlite3_bind_int64(q, 5 + (int)i, n[i]);
  mp__bind_text(q, 14, info->environment);
  mp__bind_text(q, 15, info->config);
  int rc = mp__stmt_exec(s, q, "cannot record the update's result", err);
  free(now);
  return rc;
}

static void copy_col(sqlite3_stmt *q, int i, char *dst, size_t n) {
  const unsigned char *t = sqlite3_column_text(q, i);
  snprintf(dst, n, "%s", t ? (const char *)t : "");
}

static void read_entry(sqlite3_stmt *q, mp_history_entry *h) {
  memset(h, 0, sizeof(*h));
  h->id = sqlite3_column_int64(q, 0);
  copy_col(q, 1, h->kind, sizeof(h->kind));
  copy_col(q, 2, h->result, sizeof(h->result));
  h->message = mp__column_dup(q, 3);
  copy_col(q, 4, h->start, sizeof(h->start));
  copy_col(q, 5, h->end, sizeof(h->end));
  int64_t *n[9];
  mp__store_counts_fields(&h->counts, n);
  for (size_t i = 0; i < MP_ARRAY_LEN(n); i++)
    *n[i] = sqlite3_column_int64(q, 6 + (int)i);
  h->environment = mp__column_dup(q, 15);
  h->config = mp__column_dup(q, 16);
}

int mp__sqlite_history(mp_store *base, mp_stack_ref st, mp_history_entry **out,
                       size_t *n, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, st, &id, err) < 0)
    return err->code;
  sqlite3_stmt *q = mp__stmt(s, ST_HIST_LIST, err);
  if (q == NULL)
    return err->code;
  sqlite3_bind_int64(q, 1, id);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    read_entry(q, &(*out)[(*n)++]);
  }
  mp__stmt_done(q);
  if (rc != SQLITE_DONE)
    return mp__sql_err(s, "cannot read the history", err);
  return 0;
}
