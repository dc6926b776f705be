/* Tests for the SQLite state store (src/state/sqlite_*.c): every case of
 * store_cases.h (what all backends share) on SQLite files, then what is
 * SQLite's own: migrations, refusing newer and foreign files, URLs. */
#include <sqlite3.h>

#define TST_STALE_GONE "that process is gone"
#include "state/store_cases.h"

static char *g_dir; /* scratch directory of the current test */

static char *db_path(const char *name) {
  return mp_xasprintf("%s/%s", g_dir, name);
}

static char *tst_store_url(const char *name) { return db_path(name); }

/* The file or its write-ahead log holds |needle|. */
static int tst_store_contains(const char *name, const char *needle) {
  char *path = db_path(name);
  char *wal = mp_xasprintf("%s-wal", path);
  int found = tst_file_contains(path, needle) || tst_file_contains(wal, needle);
  free(wal);
  free(path);
  return found;
}

/* ==== files that are not (current) stores ==== */

static const char *const schema_v1 =
    "CREATE TABLE stacks (id INTEGER PRIMARY KEY, project TEXT NOT NULL,"
    " name TEXT NOT NULL, secrets_type TEXT, secrets_state TEXT,"
    " created TEXT NOT NULL, UNIQUE (project, name));"
    "CREATE TABLE selected (project TEXT PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE TABLE resources (id INTEGER PRIMARY KEY, stack_id INTEGER NOT"
    " NULL REFERENCES stacks(id) ON DELETE CASCADE, ord INTEGER NOT NULL,"
    " urn TEXT NOT NULL, is_delete INTEGER NOT NULL DEFAULT 0,"
    " json TEXT NOT NULL);"
    "CREATE INDEX resources_by_ord ON resources(stack_id, ord);"
    "CREATE TABLE pending (id INTEGER PRIMARY KEY, stack_id INTEGER NOT NULL"
    " REFERENCES stacks(id) ON DELETE CASCADE, type TEXT NOT NULL,"
    " json TEXT NOT NULL);"
    "CREATE TABLE locks (stack_id INTEGER PRIMARY KEY REFERENCES stacks(id)"
    " ON DELETE CASCADE, pid INTEGER NOT NULL, host TEXT NOT NULL,"
    " time TEXT NOT NULL, operation TEXT NOT NULL);"
    "CREATE TABLE updates (stack_id INTEGER NOT NULL REFERENCES stacks(id)"
    " ON DELETE CASCADE, seq INTEGER NOT NULL, kind TEXT NOT NULL,"
    " message TEXT, start_time TEXT NOT NULL, end_time TEXT,"
    " result TEXT NOT NULL, PRIMARY KEY (stack_id, seq));"
    "PRAGMA application_id = 1297110348; PRAGMA user_version = 1;"
    "INSERT INTO stacks VALUES (1, 'proj', 'old', NULL, NULL, 't');"
    "INSERT INTO resources VALUES (7, 1, 0, '" STACK_URN(
        "old") "', 0,"
               " '{\"urn\":\"" STACK_URN(
                   "old") "\",\"custom\":false,"
                          "\"type\":\"pulumi:pulumi:Stack\"}');"
                          "INSERT INTO updates VALUES (1, 1, 'update', 'm', "
                          "'s', 'e', "
                          "'succeeded');";

static void raw_sql(const char *path, const char *sql) {
  sqlite3 *db;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    fprintf(stderr, "raw sql: %s\n", msg);
    CHECK(0);
  }
  sqlite3_free(msg);
  sqlite3_close(db);
}

static void test_store_migrates_v1(void) {
  char *path = db_path("v1.db");
  raw_sql(path, schema_v1);
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(path, &s, &err) == 0);
  if (s) {
    mp_stack_ref old = {P, "old"};
    char *order = order_of(s, "old");
    CHECK_STR(order, "proj-old");
    free(order);
    mp_history_entry *h = NULL;
    size_t n = 0;
    CHECK(mp_store_history(s, old, &h, &n, &err) == 0 && n == 1);
    CHECK(n == 1 && h[0].counts.create == 0);
    for (size_t i = 0; i < n; i++)
      mp_history_entry_destroy(&h[i]);
    free(h);
    /* the new columns work after the migration */
    mp_store_update *u = NULL;
    mp_update_counts counts = {.same = 1, .discard = 2};
    CHECK(mp_store_update_begin(s, old, "update", NULL, NULL, NULL, &u, &err) ==
          0);
    /* and the update_events table (schema 6): kept as they come, read
     * while the update runs, by the update's number */
    mp_update_event batch[] = {{1, 1000, (char *)"{\"a\":1}"},
                               {2, 1500, (char *)"{\"b\":\"<x>\"}"}};
    CHECK(u && mp_store_update_events(u, batch, 2, &err) == 0);
    mp_update_event *ev = NULL;
    size_t nev = 0;
    CHECK(mp_store_events(s, old, 2, &ev, &nev, &err) == 0 && nev == 2);
    CHECK(nev == 2 && ev[0].seq == 1 && ev[1].time_ms == 1500);
    if (nev == 2) CHECK_STR(ev[1].json, "{\"b\":\"<x>\"}");
    mp_update_events_free(ev, nev);
    ev = NULL;
    nev = 0;
    CHECK(mp_store_events(s, old, 1, &ev, &nev, &err) == 0 && nev == 0);
    mp_update_events_free(ev, nev);
    CHECK(u && mp_store_update_end(u, "succeeded", &counts, &err) == 0);
    h = NULL;
    n = 0;
    CHECK(mp_store_history(s, old, &h, &n, &err) == 0 && n == 2);
    CHECK(n == 2 && h[0].counts.same == 1 && h[0].counts.discard == 2);
    /* and the stack_tags table (schema 3) */
    mp_stack_tag tag = {"env", "old"};
    CHECK(mp_store_tags_set(s, old, &tag, 1, &err) == 0);
    CHECK_TAGS(s, old, "env=old");
    for (size_t i = 0; i < n; i++)
      mp_history_entry_destroy(&h[i]);
    free(h);
    mp_store_close(s);
  }
  sqlite3 *db;
  sqlite3_stmt *q;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  CHECK(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, NULL) == 0);
  CHECK(sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 0) == 6);
  sqlite3_finalize(q);
  CHECK(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &q, NULL) == 0);
  CHECK(sqlite3_step(q) == SQLITE_ROW &&
        strcmp((const char *)sqlite3_column_text(q, 0), "wal") == 0);
  sqlite3_finalize(q);
  sqlite3_close(db);
  free(path);
}

/* Opening |path| fails with |code| and a message containing |want|, and
 * the file's bytes are unchanged. */
static void check_refused(const char *path, int code, const char *want) {
  char before[65], after[65];
  tst_file_sha(path, before);
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(path, &s, &err) == code);
  CHECK(s == NULL);
  CHECK_CONTAINS(err.msg, want);
  tst_file_sha(path, after);
  CHECK(before[0] != '\0');
  CHECK_STR(after, before);
  mp_store_close(s);
}

static void test_store_refuses_newer_schema(void) {
  mp_store *s = tst_store_open("newer.db");
  mp_store_close(s);
  char *path = db_path("newer.db");
  raw_sql(path, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;");
  char *want = mp_xasprintf("state store '%s' was written by a newer "
                            "minipulumi (schema 99, this one knows 6); "
                            "upgrade minipulumi",
                            path);
  check_refused(path, MP_ESTATE, want);
  free(want);
  free(path);
}

static void test_store_refuses_foreign_files(void) {
  char *junk = db_path("junk.db");
  FILE *f = fopen(junk, "wb");
  for (int i = 0; i < 4096; i++)
    fputc((i * 7919 + 13) & 0xff, f);
  fclose(f);
  check_refused(junk, MP_ESTATE,
                "is not a minipulumi state store (it is not "
                "an SQLite database)");
  char *foreign = db_path("foreign.db");
  raw_sql(foreign, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes "
                   "VALUES ('soup');");
  check_refused(foreign, MP_ESTATE,
                "is not a minipulumi state store (an "
                "SQLite database of another application");
  free(junk);
  free(foreign);

  mp_store *s = NULL;
  mp_err err;
  char *missing = db_path("no/such/dir/x.db");
  CHECK(mp_store_open(missing, &s, &err) == MP_ENOENT);
  CHECK_CONTAINS(err.msg, "does not exist; create it first");
  free(missing);
  CHECK(mp_store_open("ftp://user:hunter2@bucket/x", &s, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "unsupported state store URL 'ftp://user@bucket/x'");
  CHECK(strstr(err.msg, "hunter2") == NULL);
  /* Google Cloud Storage: refused, naming the bucket backends that work */
  CHECK(mp_store_open("gs://user:hunter2@bucket/x", &s, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "'gs://user@bucket/x' is a Google Cloud Storage "
                          "bucket, which minipulumi does not support; the "
                          "bucket backends that work are s3://");
  CHECK_CONTAINS(err.msg, "azblob://CONTAINER");
  CHECK(strstr(err.msg, "hunter2") == NULL);
  /* an s3:// URL takes no user or password either (credentials come from
   * the environment or a profile), and never shows it */
  CHECK(mp_store_open("s3://user:hunter2@bucket/x", &s, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "'s3://user@bucket/x' has a user name or password");
  CHECK(strstr(err.msg, "hunter2") == NULL);
  char *url = mp_xasprintf("sqlite://%s/url.db", g_dir);
  CHECK(mp_store_open(url, &s, &err) == 0);
  CHECK(s && strcmp(mp_store_location(s), url) == 0);
  mp_store_close(s);
  free(url);
}

/* The change mark stays as it was through this store's own writes and
 * moves when another connection writes (the deployment skips its second
 * read of the snapshot on an unmoved mark, lifecycle.c). */
static void test_store_change_mark(void) {
  mp_store *s = tst_store_open("mark.db");
  mp_store *other = tst_store_open("mark.db");
  if (!s || !other)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, prod = {P, "prod"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  int64_t mark = mp_store_change_mark(s);
  CHECK(mark >= 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  step_insert(u, st);
  mp_update_counts counts = {.create = 1};
  CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0);
  CHECK(mp_store_change_mark(s) == mark);
  CHECK(mp_store_stack_create(other, prod, &err) == 0);
  int64_t moved = mp_store_change_mark(s);
  CHECK(moved >= 0 && moved != mark);
  CHECK(mp_store_change_mark(s) == moved);
  mp_resource_free(st);
  mp_store_close(other);
  mp_store_close(s);
}

static void run_in_dir(void (*fn)(void), const char *name) {
  tst_run_in_dir(&g_dir, fn, name);
}

int main(void) {
  tst_store_cases(run_in_dir);
  TST_STORE_CASE(run_in_dir, test_store_migrates_v1);
  TST_STORE_CASE(run_in_dir, test_store_refuses_newer_schema);
  TST_STORE_CASE(run_in_dir, test_store_refuses_foreign_files);
  TST_STORE_CASE(run_in_dir, test_store_change_mark);
  return mp_test_summary();
}
