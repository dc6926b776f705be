/* Stacks in the PostgreSQL store: create, list, remove, rename, the
 * selected stack of a project, and each stack's secrets provider (as
 * sqlite_stacks.c). Operations that must not race a running update take
 * the stack's row first, as lock takers do. */
#include "state/pg_int.h"

#include <stdlib.h>
#include <string.h>

/* SQLSTATE unique_violation. */
#define UNIQUE_VIOLATION "23505"

int mp__pg_stack_create(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (mp__store_check_new_stack(st, err) < 0)
    return err->code;
  int rc = mp__pg_stack_exists(base, st, err);
  if (rc < 0)
    return rc;
  if (rc == 1)
    return mp__store_exists_err(st.name, err);
  char *now = mp_now_rfc3339();
  mp_pg_params p = {0};
  mp__pg_text(&p, st.project);
  mp__pg_text(&p, st.name);
  mp__pg_text(&p, now);
  rc =
      mp__pg_exec(s, PQ_STACK_INSERT, &p, "cannot create the stack", NULL, err);
  free(now);
  if (rc < 0 && strcmp(mp__pg_last_state(s), UNIQUE_VIOLATION) == 0)
    return mp__store_exists_err(st.name, err);
  return rc;
}

int mp__pg_stack_exists(mp_store *base, mp_stack_ref st, mp_err *err) {
  int64_t id;
  int rc = mp__pg_stack_id(mp__pg(base), st, MP__PG_READ, &id, err);
  if (rc == MP_ENOENT) {
    mp_err_clear(err);
    return 0;
  }
  return rc < 0 ? rc : 1;
}

int mp__pg_stack_list(mp_store *base, const char *project, mp_stack_info **out,
                      size_t *n, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_text(&p, project);
  PGresult *r =
      mp__pg_run(mp__pg(base), PQ_STACK_LIST, &p, "cannot list stacks", err);
  if (r == NULL)
    return err->code;
  int rows = PQntuples(r);
  if (rows > 0)
    *out = mp_xreallocarray(*out, *n + (size_t)rows, sizeof(**out));
  for (int k = 0; k < rows; k++) {
    mp_stack_info *i = &(*out)[(*n)++];
    i->project = mp__pg_dup(r, k, 0);
    i->name = mp__pg_dup(r, k, 1);
    i->resource_count = mp__pg_int64(r, k, 2);
    i->last_update = mp__pg_dup(r, k, 3);
  }
  PQclear(r);
  return 0;
}

/* ==== remove ==== */

static int delete_stack_rows(mp_pg *s, mp_stack_ref st, int64_t id,
                             mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, id); /* resources, pending, locks, history: cascade */
  if (mp__pg_exec(s, PQ_STACK_DELETE, &p, "cannot remove the stack", NULL,
                  err) < 0)
    return err->code;
  mp_pg_params q = {0};
  mp__pg_text(&q, st.project);
  mp__pg_text(&q, st.name);
  return mp__pg_exec(s, PQ_SELECTED_DELETE, &q, "cannot unselect the stack",
                     NULL, err);
}

static int remove_tx(mp_pg *s, mp_stack_ref st, int force, mp_err *err) {
  int64_t id, n = 0;
  char *label = mp__store_label(st);
  int rc = mp__pg_stack_id(s, st, MP__PG_EXCL, &id, err);
  if (rc == 0)
    rc = mp__pg_lock_check_free(s, id, label, err);
  free(label);
  if (rc == 0) {
    mp_pg_params p = {0};
    mp__pg_int(&p, id);
    rc = mp__pg_query_int(s, PQ_STACK_COUNT, &p, "cannot count resources", &n,
                          NULL, err);
  }
  if (rc == 0 && n > 0 && !force)
    rc = mp__store_not_empty(st, n, err);
  return rc < 0 ? rc : delete_stack_rows(s, st, id, err);
}

int mp__pg_stack_remove(mp_store *base, mp_stack_ref st, int force,
                        mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (mp__pg_tx_begin(s, err) < 0)
    return err->code;
  int rc = remove_tx(s, st, force & MP_STORE_RM_FORCE, err);
  if (rc == 0)
    return mp__pg_tx_commit(s, err);
  mp__pg_tx_rollback(s);
  return rc;
}

/* ==== rename ==== */

/* Rewrites every row that |load| returns (id, [type,] json in column
 * |json_col|) with |write| (id, [urn,] json) for the new stack name. */
static int rename_rows(mp_pg *s, int64_t stack_id, const char *project,
                       const char *new_name, mp__pg_stmt_id load, int json_col,
                       mp__pg_stmt_id write, mp_err *err) {
  mp_pg_params p = {0};
  mp__pg_int(&p, stack_id);
  PGresult *r = mp__pg_run(s, load, &p, "cannot read the stack", err);
  if (r == NULL)
    return err->code;
  int rc = 0;
  for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
    int64_t row = mp__pg_int64(r, i, 0);
    char *json, *urn;
    rc = mp__store_rename_entry(PQgetvalue(r, i, json_col), row, project,
                                new_name, &json, &urn, err);
    if (rc < 0)
      break;
    mp_pg_params w = {0};
    mp__pg_int(&w, row);
    if (write == PQ_RES_REWRITE)
      mp__pg_text(&w, urn);
    mp__pg_text(&w, json);
    rc = mp__pg_exec(s, write, &w, "cannot rewrite a stored resource", NULL,
                     err);
    free(json);
    free(urn);
  }
  PQclear(r);
  return rc;
}

static int rename_tx(mp_pg *s, mp_stack_ref st, const char *new_name,
                     mp_err *err) {
  int64_t id;
  mp_stack_ref to = {st.project, new_name};
  int rc = mp__pg_stack_id(s, st, MP__PG_SHARE, &id, err);
  if (rc == 0 && (rc = mp__pg_stack_exists(&s->base, to, err)) == 1)
    rc = mp__store_exists_err(new_name, err);
  char *label = mp__store_label(st);
  if (rc == 0)
    rc = mp__pg_lock_check_free(s, id, label, err);
  free(label);
  mp_pg_params p = {0};
  mp__pg_int(&p, id);
  mp__pg_text(&p, new_name);
  if (rc == 0)
    rc = mp__pg_exec(s, PQ_STACK_RENAME, &p, "cannot rename the stack", NULL,
                     err);
  mp_pg_params q = {0};
  mp__pg_text(&q, st.project);
  mp__pg_text(&q, st.name);
  mp__pg_text(&q, new_name);
  if (rc == 0)
    rc = mp__pg_exec(s, PQ_SELECTED_RENAME, &q,
                     "cannot rename the selected stack", NULL, err);
  if (rc == 0)
    rc = rename_rows(s, id, st.project, new_name, PQ_RES_LOAD, 1,
                     PQ_RES_REWRITE, err);
  if (rc == 0)
    rc = rename_rows(s, id, st.project, new_name, PQ_PENDING_LOAD, 2,
                     PQ_PENDING_REWRITE, err);
  return rc;
}

int mp__pg_stack_rename(mp_store *base, mp_stack_ref st, const char *new_name,
                        mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (mp__store_check_new_name(new_name, err) < 0)
    return err->code;
  if (mp__pg_tx_begin(s, err) < 0)
    return err->code;
  int rc = rename_tx(s, st, new_name, err);
  if (rc < 0 && strcmp(mp__pg_last_state(s), UNIQUE_VIOLATION) == 0)
    rc = mp__store_exists_err(new_name, err);
  if (rc == 0)
    return mp__pg_tx_commit(s, err);
  mp__pg_tx_rollback(s);
  return rc;
}

/* ==== selected stack ==== */

int mp__pg_selected_get(mp_store *base, const char *project, char **out,
                        mp_err *err) {
  *out = NULL;
  mp_pg_params p = {0};
  mp__pg_text(&p, project);
  PGresult *r = mp__pg_run(mp__pg(base), PQ_SELECTED_GET, &p,
                           "cannot read the selected stack", err);
  if (r == NULL)
    return err->code;
  if (PQntuples(r) > 0)
    *out = mp__pg_dup(r, 0, 0);
  PQclear(r);
  return 0;
}

int mp__pg_selected_set(mp_store *base, const char *project, const char *name,
                        mp_err *err) {
  mp_pg *s = mp__pg(base);
  if (name == NULL) { /* unselect: forget whichever is selected */
    char *cur = NULL;
    int rc = mp__pg_selected_get(base, project, &cur, err);
    if (rc == 0 && cur) {
      mp_pg_params d = {0};
      mp__pg_text(&d, project);
      mp__pg_text(&d, cur);
      rc = mp__pg_exec(s, PQ_SELECTED_DELETE, &d, "cannot unselect the stack",
                       NULL, err);
    }
    free(cur);
    return rc;
  }
  mp_stack_ref st = {project, name};
  int64_t id;
  if (mp__pg_stack_id(s, st, MP__PG_READ, &id, err) < 0)
    return err->code;
  mp_pg_params p = {0};
  mp__pg_text(&p, project);
  mp__pg_text(&p, name);
  return mp__pg_exec(s, PQ_SELECTED_SET, &p, "cannot select the stack", NULL,
                     err);
}

/* ==== secrets provider ==== */

int mp__pg_secrets_get(mp_store *base, mp_stack_ref st, char **type,
                       char **state, mp_err *err) {
  mp_pg *s = mp__pg(base);
  *type = *state = NULL;
  mp_pg_params p;
  if (mp__pg_stack_param(s, st, &p, err) < 0)
    return err->code;
  PGresult *r = mp__pg_run(s, PQ_SECRETS_GET, &p,
                           "cannot read the secrets provider", err);
  if (r == NULL)
    return err->code;
  if (PQntuples(r) > 0) {
    *type = mp__pg_dup(r, 0, 0);
    *state = mp__pg_dup(r, 0, 1);
  }
  PQclear(r);
  return 0;
}

int mp__pg_secrets_set(mp_store *base, mp_stack_ref st, const char *type,
                       const char *state, mp_err *err) {
  mp_pg *s = mp__pg(base);
  mp_pg_params p;
  if (mp__pg_stack_param(s, st, &p, err) < 0)
    return err->code;
  mp__pg_text(&p, type);
  mp__pg_text(&p, state);
  return mp__pg_exec(s, PQ_SECRETS_SET, &p,
                     "cannot record the secrets provider", NULL, err);
}
