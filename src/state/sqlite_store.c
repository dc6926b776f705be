/* Opening and closing the SQLite state store: where it lives, whether the
 * file is ours, and bringing its schema up to date (snapshots/schema.sql
 * plus the numbered migrations). A file that is not ours, or that a newer
 * minipulumi wrote, is refused before anything is written to it. */
#include "state/sqlite_int.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUSY_TIMEOUT_MS 5000

/* ==== where ==== */

/* The file path of |url|: `sqlite:///abs/path.db` or a plain path. */
static int url_to_path(const char *url, char **path, mp_err *err) {
  const char *p = url;
  if (strncmp(url, "sqlite://", 9) == 0) {
    p = url + 9;
  } else if (strncmp(url, "gs://", 5) == 0) {
    /* Pulumi's DIY backend also takes Google Cloud Storage; there is no
     * server here to build and test it against */
    char *shown = mp_store_url_redact(url);
    mp_err_set(err, MP_EINVAL,
               "'%s' is a Google Cloud Storage bucket, which minipulumi "
               "does not support; the bucket backends that work are "
               "s3://BUCKET[/PREFIX] and azblob://CONTAINER[/PREFIX] (or "
               "move the state with `stack export` and `stack import`)",
               shown);
    free(shown);
    return MP_EINVAL;
  } else if (strstr(url, "://") != NULL) {
    char *shown = mp_store_url_redact(url);
    mp_err_set(err, MP_EINVAL,
               "unsupported state store URL '%s'; use " MP_BACKEND_SCHEMES,
               shown);
    free(shown);
    return MP_EINVAL;
  }
  if (*p == '\0')
    return mp_err_set(err, MP_EINVAL,
                      "the state store URL '%s' names no "
                      "file",
                      url);
  *path = mp_xstrdup(p);
  return 0;
}

static int check_directory(const char *path, mp_err *err) {
  char *copy = mp_xstrdup(path);
  const char *dir = dirname(copy);
  struct stat st;
  int rc = 0;
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    rc = mp_err_set(err, MP_ENOENT,
                    "cannot open state store '%s': directory '%s' does not "
                    "exist; create it first",
                    path, dir);
  free(copy);
  return rc;
}

/* Refuses an existing, non-empty file that does not start with SQLite's
 * header, without opening it through SQLite at all. */
static int check_header(const char *path, mp_err *err) {
  static const char magic[16] = "SQLite format 3";
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    if (errno == ENOENT)
      return 0;
    return mp_err_set(err, MP_EIO, "cannot open state store '%s': %s", path,
                      strerror(errno));
  }
  char head[16];
  size_t n = fread(head, 1, sizeof(head), f);
  fclose(f);
  if (n == 0)
    return 0;
  if (n < sizeof(head) || memcmp(head, magic, sizeof(head)) != 0)
    return mp_err_set(err, MP_ESTATE,
                      "'%s' is not a minipulumi state store (it is not an "
                      "SQLite database); refusing to touch it; choose another "
                      "backend path",
                      path);
  return 0;
}

/* ==== schema ==== */

/* One integer from a query run once (pragmas, counts). */
static int query_int(mp_sqlite *s, const char *sql, int64_t *out, mp_err *err) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
    return mp__sql_err(s, "cannot read the state store", err);
  int rc = sqlite3_step(st);
  *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_finalize(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return mp__sql_err(s, "cannot read the state store", err);
  return 0;
}

static int exec_sql(mp_sqlite *s, const char *sql, const char *what,
                    mp_err *err) {
  char *msg = NULL;
  if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
    return 0;
  mp_err_set(err, MP_EIO, "%s in state store '%s': %s", what, s->base.location,
             msg ? msg : "unknown error");
  sqlite3_free(msg);
  return MP_EIO;
}

/* Is this file ours? Reads only; refuses foreign and newer stores. Sets
 * *fresh when the database is empty. */
static int check_identity(mp_sqlite *s, int *fresh, mp_err *err) {
  int64_t app, version, tables;
  if (query_int(s, "SELECT count(*) FROM sqlite_master", &tables, err) < 0 ||
      query_int(s, "PRAGMA application_id", &app, err) < 0 ||
      query_int(s, "PRAGMA user_version", &version, err) < 0)
    return mp_err_prefix(err, "'%s' is not a usable minipulumi state store",
                         s->path);
  *fresh = app == 0 && version == 0 && tables == 0;
  if (*fresh)
    return 0;
  if (app != MP__STORE_APP_ID)
    return mp_err_set(err, MP_ESTATE,
                      "'%s' is not a minipulumi state store (an SQLite "
                      "database of another application: application_id "
                      "%lld, %lld tables); refusing to touch it; choose "
                      "another backend path",
                      s->path, (long long)app, (long long)tables);
  if (version > mp__sql_version(mp_sql_files))
    return mp_err_set(err, MP_ESTATE,
                      "state store '%s' was written by a newer minipulumi "
                      "(schema %lld, this one knows %d); upgrade minipulumi",
                      s->path, (long long)version,
                      mp__sql_version(mp_sql_files));
  if (version < 1)
    return mp_err_set(err, MP_ESTATE,
                      "state store '%s' has no schema version; it was not "
                      "written by minipulumi or is damaged",
                      s->path);
  return 0;
}

static int set_version(mp_sqlite *s, int version, mp_err *err) {
  char sql[96];
  /* Pragmas take no bound parameters; both values are our own integers. */
  snprintf(sql, sizeof(sql),
           "PRAGMA application_id = %d; PRAGMA "
           "user_version = %d;",
           MP__STORE_APP_ID, version);
  return exec_sql(s, sql, "cannot record the schema version", err);
}

static int migrate(mp_sqlite *s, int64_t from, mp_err *err) {
  for (int v = (int)from + 1; v <= mp__sql_version(mp_sql_files); v++) {
    const char *sql = mp__sql_find(mp_sql_files, v, NULL);
    if (sql == NULL)
      MP_BUG("no embedded migration to schema %d", v);
    if (exec_sql(s, sql, "cannot migrate the schema", err) < 0)
      return mp_err_prefix(err, "migration to schema %d", v);
  }
  return 0;
}

/* Creates or migrates the schema in one transaction; the version is read
 * again under the write lock in case another process got there first. */
static int ensure_schema(mp_sqlite *s, mp_err *err) {
  if (mp__tx_begin(s, err) < 0)
    return err->code;
  int64_t version = 0;
  int rc = query_int(s, "PRAGMA user_version", &version, err);
  if (rc == 0 && version == 0)
    rc = exec_sql(s, mp__sql_find(mp_sql_files, 0, "schema.sql"),
                  "cannot create the schema", err);
  else if (rc == 0 && version < mp__sql_version(mp_sql_files))
    rc = migrate(s, version, err);
  if (rc == 0 && version < mp__sql_version(mp_sql_files))
    rc = set_version(s, mp__sql_version(mp_sql_files), err);
  if (rc == 0)
    return mp__tx_commit(s, err);
  mp__tx_rollback(s);
  return rc;
}

static int configure(mp_sqlite *s, mp_err *err) {
  int64_t ignored;
  sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
  int fresh;
  if (check_identity(s, &fresh, err) < 0)
    return err->code;
  if (query_int(s, "PRAGMA journal_mode = WAL", &ignored, err) < 0 ||
      exec_sql(s, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
               "cannot configure the connection", err) < 0)
    return err->code;
  return ensure_schema(s, err);
}

/* ==== open / close ==== */

/* 1 if |path| exists and this process cannot write it or its folder (a
 * WAL database also writes files beside it): open it read-only. */
static int read_only_store(const char *path) {
  if (access(path, F_OK) != 0)
    return 0;
  char *copy = mp_xstrdup(path);
  int ro = access(path, W_OK) != 0 || access(dirname(copy), W_OK) != 0;
  free(copy);
  return ro;
}

/* A read-only connection checks what it can without writing: it must be
 * ours and of this schema (a migration would need to write). */
static int configure_read_only(mp_sqlite *s, mp_err *err) {
  int fresh;
  int64_t version = 0;
  sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
  if (check_identity(s, &fresh, err) < 0 ||
      query_int(s, "PRAGMA user_version", &version, err) < 0)
    return err->code;
  if (fresh || version != mp__sql_version(mp_sql_files))
    return mp_err_set(err, MP_EIO,
                      "the state store '%s' is read-only and its schema (%lld) "
                      "needs upgrading to %d; open it once with write access",
                      s->path, (long long)version,
                      mp__sql_version(mp_sql_files));
  return 0;
}

/* |path| as an SQLite URI that opens it read-only and immutable. */
static char *immutable_uri(const char *path) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "file:");
  for (const char *p = path; *p; p++) {
    if (*p == '?' || *p == '#' || *p == '%')
      mp_buf_printf(&b, "%%%02X", (unsigned char)*p);
    else
      mp_buf_putc(&b, *p);
  }
  mp_buf_puts(&b, "?immutable=1");
  return mp_buf_detach(&b, NULL);
}

/* 1 if the file |path| + |suffix| exists and is not empty. */
static int side_file(const char *path, const char *suffix) {
  char *f = mp_xasprintf("%s%s", path, suffix);
  struct stat st;
  int there = stat(f, &st) == 0 && st.st_size > 0;
  free(f);
  return there;
}

/* Opens the store read-only. With a -shm file beside it (a writer may be
 * at work) it is shared as usual. Without one and with an empty log, the
 * database file alone is the state: it is opened immutable, so that no
 * -shm file is made — one made by a reader that cannot write would keep
 * the store's owner from writing later. */
static int open_read_only(mp_sqlite *s, mp_err *err) {
  int shared = side_file(s->path, "-shm") || side_file(s->path, "-wal");
  char *uri = shared ? mp_xstrdup(s->path) : immutable_uri(s->path);
  int rc = sqlite3_open_v2(
      uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
      NULL);
  free(uri);
  if (rc != SQLITE_OK)
    return mp_err_set(err, MP_EIO, "cannot open state store '%s': %s", s->path,
                      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
  return configure_read_only(s, err);
}

static void sqlite_close(mp_store *base) {
  mp_sqlite *s = mp__sqlite(base);
  while (s->updates) {
    mp_err ignored;
    mp__sqlite_update_end(&s->updates->base, "failed", NULL, &ignored);
  }
  for (size_t i = 0; i < ST__COUNT; i++)
    sqlite3_finalize(s->stmts[i]);
  sqlite3_close_v2(s->db);
  free(s->base.location);
  free(s->path);
  free(s);
}

/* SQLite's data_version: it moves when another connection commits, never
 * for this connection's own commits; the pragma reads it in a read
 * transaction of its own, so it sees every commit made before it. */
static int64_t sqlite_change_mark(mp_store *base) {
  mp_sqlite *s = mp__sqlite(base);
  if (!sqlite3_get_autocommit(s->db)) return -1;
  sqlite3_stmt *st = NULL;
  int64_t mark = -1;
  if (sqlite3_prepare_v2(s->db, "PRAGMA data_version", -1, &st, NULL) ==
          SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    mark = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return mark;
}

static const mp_store_ops sqlite_ops = {
    .name = "sqlite",
    .close = sqlite_close,
    .stack_create = mp__sqlite_stack_create,
    .stack_exists = mp__sqlite_stack_exists,
    .stack_list = mp__sqlite_stack_list,
    .stack_remove = mp__sqlite_stack_remove,
    .stack_rename = mp__sqlite_stack_rename,
    .selected_get = mp__sqlite_selected_get,
    .selected_set = mp__sqlite_selected_set,
    .secrets_get = mp__sqlite_secrets_get,
    .secrets_set = mp__sqlite_secrets_set,
    .load = mp__sqlite_load,
    .change_mark = sqlite_change_mark,
    .replace = mp__sqlite_replace,
    .update_begin = mp__sqlite_update_begin,
    .apply = mp__sqlite_apply,
    .drop_old_pending = mp__sqlite_drop_old_pending,
    .update_end = mp__sqlite_update_end,
    .lock_get = mp__sqlite_lock_get,
    .lock_break = mp__sqlite_lock_break,
    .history = mp__sqlite_history,
    .update_events = mp__sqlite_update_events,
    .events = mp__sqlite_events,
    .writable = mp__sqlite_writable,
    .tags_get = mp__sqlite_tags_get,
    .tags_set = mp__sqlite_tags_set,
};

int mp__sqlite_open(const char *url, const mp_store_opts *o, mp_store **out,
                    mp_err *err) {
  /* o->lease_ms is ignored: holders of SQLite locks are on this host */
  *out = NULL;
  char *path = NULL; /* set by url_to_path; -O3 cannot tell */
  if (url_to_path(url, &path, err) < 0)
    return err->code;
  if (check_directory(path, err) < 0 || check_header(path, err) < 0) {
    free(path);
    return err->code;
  }
  mp_sqlite *s = mp_xcalloc(1, sizeof(*s));
  s->base.ops = &sqlite_ops;
  s->base.location = mp_xstrdup(url);
  s->base.verify_writes = o->verify_writes;
  s->path = path;
  s->pid = (int64_t)getpid();
  if (gethostname(s->host, sizeof(s->host) - 1) != 0)
    snprintf(s->host, sizeof(s->host), "localhost");
  int rc;
  if (read_only_store(path)) {
    s->readonly = 1;
    rc = open_read_only(s, err);
  } else {
    rc = sqlite3_open_v2(
        path, &s->db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK)
      rc = mp_err_set(err, MP_EIO, "cannot open state store '%s': %s", path,
                      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    else
      rc = configure(s, err);
  }
  if (rc < 0) {
    sqlite_close(&s->base);
    return rc;
  }
  *out = &s->base;
  return 0;
}
