/* Stack tags in the PostgreSQL store: minipulumi.stack_tags (migration
 * 0002), one row per tag, removed with its stack by the foreign key's
 * cascade and kept across a rename (the stack's id does not change). */
#include "state/pg_int.h"

#include <stdlib.h>

int mp__pg_tags_get(mp_store *base, mp_stack_ref st, mp_stack_tag **out,
                    size_t *n, mp_err *err) {
  mp_pg *s = mp__pg(base);
  mp_pg_params p;
  if (mp__pg_stack_param(s, st, &p, err) < 0)
    return err->code;
  PGresult *r = mp__pg_run(s, PQ_TAGS_GET, &p, "cannot read stack tags", err);
  if (r == NULL)
    return err->code;
  int rows = PQntuples(r);
  for (int i = 0; i < rows; i++) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    (*out)[*n].name = mp__pg_dup(r, i, 0);
    (*out)[(*n)++].value = mp__pg_dup(r, i, 1);
  }
  PQclear(r);
  return 0;
}

static int write_tags(mp_pg *s, mp_stack_ref st, const mp_stack_tag *tags,
                      size_t n, mp_err *err) {
  int64_t id;
  if (mp__pg_stack_id(s, st, MP__PG_EXCL, &id, err) < 0)
    return err->code;
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  if (mp__pg_exec(s, PQ_TAGS_DELETE, &p, "cannot write stack tags", NULL,
                  err) < 0)
    return err->code;
  for (size_t i = 0; i < n; i++) {
    mp_pg_params q = {0};
    mp__pg_int(&q, id);
    mp__pg_text(&q, tags[i].name);
    mp__pg_text(&q, tags[i].value);
    if (mp__pg_exec(s, PQ_TAGS_INSERT, &q, "cannot write stack tags", NULL,
                    err) < 0)
      return err->code;
  }
  return 0;
}

int mp__pg_tags_set(mp_store *base, mp_stack_ref st, const mp_stack_tag *tags,
                    size_t n, mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (mp__pg_tx_begin(s, err) < 0)
    return err->code;
  int rc = write_tags(s, st, tags, n, err);
  if (rc == 0)
    return mp__pg_tx_commit(s, err);
  mp__pg_tx_rollback(s);
  return rc;
}
