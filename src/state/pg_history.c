/* Update history in the PostgreSQL store: a row per operation, opened
 * in-progress when the operation takes the stack's lock and closed with
 * its result and step counts (as sqlite_history.c). */
#include "state/pg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mp__pg_history_begin(mp_pg *s, int64_t stack_id, const char *kind,
                         const char *message, int64_t *seq, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  if (mp__pg_query_int(s, PQ_HIST_NEXT, &p, "cannot read the history", seq,
                       NULL, err) < 0)
    return err->code;
  char *now = mp_now_rfc3339();
  mp__pg_int(&p, *seq);
  mp__pg_text(&p, kind);
  mp__pg_text(&p, message);
  mp__pg_text(&p, now);
  int rc = mp__pg_exec(s, PQ_HIST_INSERT, &p,
                       "cannot record the update in the history", NULL, err);
  free(now);
  return rc;
}

int mp__pg_history_end(mp_pg *s, int64_t stack_id, int64_t seq,
                       const char *result, const mp_update_counts *counts,
                       const mp_store_update *info, mp_err *err) {
  int64_t n[9];
  mp__store_counts_to_array(counts, n);
  char *now = mp_now_rfc3339();
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  mp__pg_int(&p, seq);
  mp__pg_text(&p, result);
  mp__pg_text(&p, now);
  for (size_t i = 0; i < MP_ARRAY_LEN(n); i++)
    mp__pg_int(&p, n[i]);
  mp__pg_text(&p, info->environment);
  mp__pg_text(&p, info->config);
  int rc = mp__pg_exec(s, PQ_HIST_END, &p, "cannot record the update's result",
                       NULL, err);
  free(now);
  return rc;
}

static void copy_col(const PGresult *r, int row, int col, char *dst, size_t n) {
  snprintf(dst, n, "%s",
           PQgetisnull(r, row, col) ? "" : PQgetvalue(r, row, col));
}

static void read_entry(const PGresult *r, int row, mp_history_entry *h) {
  memset(h, 0, sizeof(*h));
  h->id = mp__pg_int64(r, row, 0);
  copy_col(r, row, 1, h->kind, sizeof(h->kind));
  copy_col(r, row, 2, h->result, sizeof(h->result));
  h->message = mp__pg_dup(r, row, 3);
  copy_col(r, row, 4, h->start, sizeof(h->start));
  copy_col(r, row, 5, h->end, sizeof(h->end));
  int64_t *n[9];
  mp__store_counts_fields(&h->counts, n);
  for (size_t i = 0; i < MP_ARRAY_LEN(n); i++)
    *n[i] = mp__pg_int64(r, row, 6 + (int)i);
  h->environment = mp__pg_dup(r, row, 15);
  h->config = mp__pg_dup(r, row, 16);
}

int mp__pg_history(mp_store *base, mp_stack_ref st, mp_history_entry **out,
                   size_t *n, mp_err *err) {
  mp_pg *s = mp__pg(base);
  mp_pg_params p;
  if (mp__pg_stack_param(s, st, &p, err) < 0)
    return err->code;
  PGresult *r = mp__pg_run(s, PQ_HIST_LIST, &p, "cannot read the history", err);
  if (r == NULL)
    return err->code;
  int rows = PQntuples(r);
  if (rows > 0)
    *out = mp_xreallocarray(*out, *n + (size_t)rows, sizeof(**out));
  for (int i = 0; i < rows; i++)
    read_entry(r, i, &(*out)[(*n)++]);
  PQclear(r);
  return 0;
}
