/* Stack tags in the SQLite store: the stack_tags table (migration 0003),
 * one row per tag, removed with its stack by the foreign key's cascade and
 * kept across a rename (the stack's id does not change). */
#include "state/sqlite_int.h"

#include <stdlib.h>

/* Prepares |sql| once per call: tags are read and written rarely. */
static sqlite3_stmt *prepare(mp_sqlite *s, const char *sql, mp_err *err) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
    mp__sql_err(s, "cannot prepare a statement", err);
    return NULL;
  }
  return st;
}

int mp__sqlite_tags_get(mp_store *base, mp_stack_ref ref, mp_stack_tag **out,
                        size_t *n, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  int64_t id;
  if (mp__stack_id(s, ref, &id, err) < 0)
    return err->code;
  sqlite3_stmt *st = prepare(
      s, "SELECT name, value FROM stack_tags WHERE stack_id = ?1 ORDER BY name",
      err);
  if (st == NULL)
    return err->code;
  sqlite3_bind_int64(st, 1, id);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    (*out)[*n].name = mp__column_dup(st, 0);
    (*out)[(*n)++].value = mp__column_dup(st, 1);
  }
  int ret = rc == SQLITE_DONE ? 0 : mp__sql_err(s, "cannot read stack tags", err);
  sqlite3_finalize(st);
  return ret;
}

static int write_tags(mp_sqlite *s, int64_t id, const mp_stack_tag *tags,
                      size_t n, mp_err *err) {
  sqlite3_stmt *del = prepare(s, "DELETE FROM stack_tags WHERE stack_id = ?1",
                              err);
  if (del == NULL)
    return err->code;
  sqlite3_bind_int64(del, 1, id);
  int rc = sqlite3_step(del) == SQLITE_DONE
               ? 0
               : mp__sql_err(s, "cannot write stack tags", err);
  sqlite3_finalize(del);
  if (rc < 0 || n == 0)
    return rc;
  sqlite3_stmt *ins = prepare(
      s, "INSERT INTO stack_tags(stack_id, name, value) VALUES (?1, ?2, ?3)",
      err);
  if (ins == NULL)
    return err->code;
  for (size_t i = 0; rc == 0 && i < n; i++) {
    sqlite3_bind_int64(ins, 1, id);
    mp__bind_text(ins, 2, tags[i].name);
    mp__bind_text(ins, 3, tags[i].value);
    if (sqlite3_step(ins) != SQLITE_DONE)
      rc = mp__sql_err(s, "cannot write stack tags", err);
    sqlite3_reset(ins);
  }
  sqlite3_finalize(ins);
  return rc;
}

int mp__sqlite_tags_set(mp_store *base, mp_stack_ref ref,
                        const mp_stack_tag *tags, size_t n, mp_err *err) {
  mp_sqlite *s = mp__sqlite(base);
  if (mp__tx_begin(s, err) < 0)
    return err->code;
  int64_t id;
  int rc = mp__stack_id(s, ref, &id, err);
  if (rc == 0)
    rc = write_tags(s, id, tags, n, err);
  if (rc == 0)
    return mp__tx_commit(s, err);
  mp__tx_rollback(s);
  return rc;
}
