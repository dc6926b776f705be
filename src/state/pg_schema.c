/* The PostgreSQL store's schema: the database schema `minipulumi` made by
 * the numbered migrations in snapshots/postgres/, its version in
 * minipulumi.store_meta. Brought up to date on first use, in one
 * transaction under an advisory lock so that two processes using a new
 * database at once do not both create it. A schema written by a newer
 * minipulumi, or a `minipulumi` schema that another program made, is
 * refused before anything is written. */
#include "state/pg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The advisory lock key ("MPUL" as with SQLite's application_id) taken by
 * the schema transaction. */
#define SCHEMA_LOCK_KEY "1297110348"

/* What the database holds: whether the `minipulumi` schema and our version
 * table exist, and the version (-1 if the table has no row). */
typedef struct found_schema {
  int has_namespace, has_meta;
  int64_t version;
} found_schema;

static int inspect(mp_pg *s, found_schema *f, mp_err *err) {
  PGresult *r =
      PQexec(s->conn, "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace"
                      " WHERE nspname = 'minipulumi'),"
                      " to_regclass('minipulumi.store_meta') IS NOT NULL");
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    mp__pg_err(s, r, "cannot read the state store's schema", err);
    PQclear(r);
    return err->code;
  }
  f->has_namespace = mp__pg_bool(r, 0, 0);
  f->has_meta = mp__pg_bool(r, 0, 1);
  PQclear(r);
  f->version = 0;
  if (!f->has_meta)
    return 0;
  r = PQexec(s->conn, "SELECT max(schema_version) FROM minipulumi.store_meta");
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    mp__pg_err(s, r, "cannot read the state store's schema version", err);
    PQclear(r);
    return err->code;
  }
  f->version = PQgetisnull(r, 0, 0) ? -1 : mp__pg_int64(r, 0, 0);
  PQclear(r);
  return 0;
}

/* Refuses what is not ours or is newer than this build knows. */
static int check_identity(mp_pg *s, const found_schema *f, int known,
                          mp_err *err) {
  if (f->has_namespace && !f->has_meta)
    return mp_err_set(err, MP_ESTATE,
                      "the database of '%s' has a schema 'minipulumi' that "
                      "minipulumi did not create (no minipulumi.store_meta); "
                      "refusing to touch it; choose another database",
                      s->base.location);
  if (f->has_meta && f->version < 0)
    return mp_err_set(err, MP_ESTATE,
                      "state store '%s' has no schema version; it was not "
                      "written by minipulumi or is damaged",
                      s->base.location);
  if (f->version > known)
    return mp_err_set(err, MP_ESTATE,
                      "state store '%s' was written by a newer minipulumi "
                      "(schema %lld, this one knows %d); upgrade minipulumi",
                      s->base.location, (long long)f->version, known);
  return 0;
}

static int migrate(mp_pg *s, int64_t from, int to, mp_err *err) {
  for (int v = (int)from + 1; v <= to; v++) {
    const char *sql = mp__sql_find(mp_pg_sql_files, v, NULL);
    if (sql == NULL)
      MP_BUG("no embedded PostgreSQL migration to schema %d", v);
    if (mp__pg_simple(s, sql, "cannot migrate the schema", err) < 0)
      return mp_err_prefix(err, "migration to schema %d", v);
  }
  char sql[96];
  /* Our own integer: no parameter needed. */
  snprintf(sql, sizeof(sql),
           "UPDATE minipulumi.store_meta SET schema_version = %d", to);
  return mp__pg_simple(s, sql, "cannot record the schema version", err);
}

static int ensure_tx(mp_pg *s, mp_err *err) {
  int known = mp__sql_version(mp_pg_sql_files);
  found_schema f;
  if (mp__pg_simple(s, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK_KEY ")",
                    "cannot lock the schema", err) < 0 ||
      inspect(s, &f, err) < 0 || check_identity(s, &f, known, err) < 0)
    return err->code;
  if (f.version < known)
    return migrate(s, f.version, known, err);
  return 0;
}

int mp__pg_schema_ensure(mp_pg *s, mp_err *err) {
  if (mp__pg_tx_begin(s, err) < 0)
    return err->code;
  int rc = ensure_tx(s, err);
  if (rc == 0)
    return mp__pg_tx_commit(s, err);
  mp__pg_tx_rollback(s);
  return rc;
}
