/* Tests for the PostgreSQL state store (src/state/pg_*.c) against a real
 * server (tests/pg/pgtest.py starts one and sets MP_TEST_PG_URL): every
 * case of store_cases.h, each in fresh databases, then what is
 * PostgreSQL's own: passwords never shown, refusing newer and foreign
 * schemas, first use from many processes at once, the lock's lease
 * (renewed without writes, expiring for a frozen holder), two runners
 * racing, different stacks in parallel, and a connection lost mid-update. */
#include <errno.h>
#include <libpq-fe.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#define TST_STALE_GONE "its database session has ended"
#include "state/store_cases.h"

static const char *g_admin; /* MP_TEST_PG_URL: the server's postgres db */
static const char *g_pass;  /* MP_TEST_PG_PASSWORD */
static const char *g_case;  /* name of the current case */
static char *g_dbs[16];     /* databases made for the current case */
static size_t g_ndbs;

/* ==== the server ==== */

/* g_admin naming database |db| instead (owned). */
static char *db_url(const char *db) {
  const char *q = strchr(g_admin, '?');
  size_t head = (size_t)(q ? q - g_admin : (ptrdiff_t)strlen(g_admin));
  while (head > 0 && g_admin[head - 1] != '/')
    head--;
  return mp_xasprintf("%.*s%s%s", (int)head, g_admin, db, q ? q : "");
}

/* Runs |sql| (with at most one parameter |arg|) on database |db|; returns
 * the first value of the first row (owned; "" if none), or NULL on error. */
static char *sql_on(const char *db, const char *sql, const char *arg) {
  char *url = db_url(db);
  PGconn *c = PQconnectdb(url);
  free(url);
  char *out = NULL;
  if (PQstatus(c) == CONNECTION_OK) {
    PGresult *r = arg ? PQexecParams(c, sql, 1, NULL, &arg, NULL, NULL, 0)
                      : PQexec(c, sql); /* may hold several statements */
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK)
      out = mp_xstrdup(PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "");
    else
      fprintf(stderr, "sql %s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
  } else {
    fprintf(stderr, "connect %s: %s", db, PQerrorMessage(c));
  }
  PQfinish(c);
  return out;
}

/* The database of store |name| in the current case: "<case>_<name>". */
static char *db_name(const char *name) {
  char *db = mp_xasprintf("%s_%s", g_case, name);
  for (char *p = db; *p; p++)
    if (*p == '.' || *p == '-')
      *p = '_';
  return db;
}

static char *tst_store_url(const char *name) {
  char *db = db_name(name);
  size_t i;
  for (i = 0; i < g_ndbs && strcmp(g_dbs[i], db) != 0; i++) {
  }
  if (i == g_ndbs && g_ndbs < MP_ARRAY_LEN(g_dbs)) {
    char *sql = mp_xasprintf("CREATE DATABASE \"%s\"", db);
    free(sql_on("postgres", sql, NULL));
    free(sql);
    g_dbs[g_ndbs++] = mp_xstrdup(db);
  }
  char *url = db_url(db);
  free(db);
  return url;
}

/* Any stored JSON or secrets state of store |name| holds |needle|. */
static int tst_store_contains(const char *name, const char *needle) {
  char *db = db_name(name);
  char *n = sql_on(db,
                   "SELECT count(*) FROM (SELECT json AS t FROM "
                   "minipulumi.resources UNION ALL SELECT json FROM "
                   "minipulumi.pending UNION ALL SELECT coalesce("
                   "secrets_state, '') FROM minipulumi.stacks) x "
                   "WHERE strpos(t, $1) > 0",
                   needle);
  free(db);
  int found = n && strcmp(n, "0") != 0;
  free(n);
  return found;
}

static void run_case(void (*fn)(void), const char *name) {
  g_case = name + strlen("test_");
  int before = mp_test_checks_failed;
  fn();
  for (size_t i = 0; i < g_ndbs; i++) {
    if (mp_test_checks_failed == before) {
      char *sql = mp_xasprintf("DROP DATABASE \"%s\" WITH (FORCE)", g_dbs[i]);
      free(sql_on("postgres", sql, NULL));
      free(sql);
    } else {
      fprintf(stderr, "%s: kept database %s\n", name, g_dbs[i]);
    }
    free(g_dbs[i]);
  }
  g_ndbs = 0;
}

static mp_store *open_lease(const char *name, int64_t lease_ms) {
  char *url = tst_store_url(name);
  mp_store_opts o = {.lease_ms = lease_ms};
  mp_store *s = NULL;
  mp_err err;
  if (mp_store_open_with(url, &o, &s, &err) != 0)
    fprintf(stderr, "open %s: %s\n", name, err.msg);
  free(url);
  return s;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ==== URLs and passwords ==== */

static void test_pg_url_redaction(void) {
  static const char *const cases[][2] = {
      {"postgres://u:s3cret@h:5432/db?sslmode=require",
       "postgres://u@h:5432/db?sslmode=require"},
      {"postgresql://u@h/db", "postgresql://u@h/db"},
      {"postgres://u:p%40ss@h/db", "postgres://u@h/db"},
      {"postgres://h/db?password=s3cret&sslmode=disable",
       "postgres://h/db?sslmode=disable"},
      {"postgres://h/db?sslmode=disable&password=s3cret",
       "postgres://h/db?sslmode=disable"},
      {"/var/state.db", "/var/state.db"},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    char *r = mp_store_url_redact(cases[i][0]);
    CHECK_STR(r, cases[i][1]);
    free(r);
  }
  mp_store *s = tst_store_open("redact");
  CHECK(s != NULL);
  if (s) {
    CHECK(strstr(mp_store_location(s), g_pass) == NULL);
    CHECK_CONTAINS(mp_store_location(s), "postgresql://mp@127.0.0.1:");
  }
  mp_store_close(s);
}

/* Opening |url| fails with a message that names the store but never the
 * password |secret|. */
static void check_open_fails(const char *url, const char *secret,
                             const char *want) {
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(url, &s, &err) == MP_EIO);
  CHECK(s == NULL);
  CHECK_CONTAINS(err.msg, want);
  if (strstr(err.msg, secret) != NULL)
    fprintf(stderr, "password in message: %s\n", err.msg);
  CHECK(strstr(err.msg, secret) == NULL);
}

static void test_pg_password_sources(void) {
  char *url = tst_store_url("pw");
  /* a wrong password, and one libpq cannot decode */
  char *wrong = mp_xasprintf("%s", url);
  char *at = strstr(wrong, g_pass);
  memcpy(at, "Wrong", 5);
  check_open_fails(wrong, "Wrong", "password authentication failed");
  free(wrong);
  char *bad = mp_xasprintf("postgresql://mp:xx%%zzSecretPart@127.0.0.1:1/d");
  check_open_fails(bad, "zzSecretPart",
                   "cannot connect to the state store "
                   "'postgresql://mp@127.0.0.1:1/d'");
  free(bad);

  /* no password in the URL: PGPASSWORD, then a password file */
  char *bare = mp_xstrdup(url);
  char *colon = strstr(bare, ":");
  colon = strchr(colon + 1, ':'); /* after "mp" */
  char *amp = strchr(bare, '@');
  memmove(colon, amp, strlen(amp) + 1);
  check_open_fails(bare, g_pass, "password");
  setenv("PGPASSWORD", g_pass, 1);
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(bare, &s, &err) == 0);
  mp_store_close(s);
  unsetenv("PGPASSWORD");
  char *dir = tst_mkdtemp();
  char *file = mp_xasprintf("%s/pgpass", dir);
  FILE *f = fopen(file, "w");
  fprintf(f, "*:*:*:mp:%s\n", g_pass);
  fclose(f);
  chmod(file, 0600);
  setenv("PGPASSFILE", file, 1);
  s = NULL;
  CHECK(mp_store_open(bare, &s, &err) == 0);
  mp_store_close(s);
  unsetenv("PGPASSFILE");
  tst_rmdir(dir);
  free(dir);
  free(file);
  free(bare);
  free(url);
}

/* ==== schemas that are not ours ==== */

static void test_pg_refuses_newer_schema(void) {
  mp_store *s = tst_store_open("newer");
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
  mp_store_close(s);
  char *db = db_name("newer");
  free(
      sql_on(db, "UPDATE minipulumi.store_meta SET schema_version = 99", NULL));
  char *url = tst_store_url("newer");
  s = NULL;
  CHECK(mp_store_open(url, &s, &err) == MP_ESTATE);
  CHECK(s == NULL);
  char *shown = mp_store_url_redact(url);
  char *want = mp_xasprintf("state store '%s' was written by a newer "
                            "minipulumi (schema 99, this one knows 5); "
                            "upgrade minipulumi",
                            shown);
  CHECK_STR(err.msg, want);
  char *v =
      sql_on(db, "SELECT schema_version FROM minipulumi.store_meta", NULL);
  CHECK_STR(v, "99");
  char *n = sql_on(db, "SELECT count(*) FROM minipulumi.stacks", NULL);
  CHECK_STR(n, "1");
  free(n);
  free(v);
  free(want);
  free(shown);
  free(url);
  free(db);
}

static void test_pg_refuses_foreign_schema(void) {
  char *url = tst_store_url("foreign");
  char *db = db_name("foreign");
  free(sql_on(db,
              "CREATE SCHEMA minipulumi; CREATE TABLE minipulumi.recipes "
              "(name text); INSERT INTO minipulumi.recipes VALUES ('soup')",
              NULL));
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(url, &s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "has a schema 'minipulumi' that minipulumi did "
                          "not create");
  char *n = sql_on(db, "SELECT count(*) FROM minipulumi.recipes", NULL);
  CHECK_STR(n, "1");
  char *meta = sql_on(db, "SELECT to_regclass('minipulumi.store_meta')", NULL);
  CHECK_STR(meta, "");
  /* other applications' tables elsewhere in the database are fine */
  char *url2 = tst_store_url("shared");
  char *db2 = db_name("shared");
  free(sql_on(db2, "CREATE TABLE public.other_app (x int)", NULL));
  s = NULL;
  CHECK(mp_store_open(url2, &s, &err) == 0);
  mp_store_close(s);
  free(meta);
  free(n);
  free(db);
  free(url);
  free(db2);
  free(url2);
}

/* ==== many processes ==== */

/* Forks |n| children that wait on |go| and then run |child(i)|, whose
 * return value is their exit status; returns after starting them. */
static void fork_children(int n, pid_t *pids, int go[2],
                          int (*child)(int i, void *arg), void *arg) {
  CHECK(pipe(go) == 0);
  for (int i = 0; i < n; i++) {
    pids[i] = fork();
    if (pids[i] == 0) {
      char b;
      close(go[1]);
      if (read(go[0], &b, 1) != 1)
        _exit(90);
      _exit(child(i, arg));
    }
  }
  close(go[0]);
}

/* Releases the children and collects their exit statuses. */
static void run_children(int n, const pid_t *pids, int go[2], int *status) {
  char b[64] = {0};
  CHECK(write(go[1], b, (size_t)n) == n);
  close(go[1]);
  for (int i = 0; i < n; i++) {
    int st = 0;
    CHECK(waitpid(pids[i], &st, 0) == pids[i]);
    status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
  }
}

static int child_open(int i, void *arg) {
  (void)i;
  mp_store *s = NULL;
  mp_err err;
  int rc = mp_store_open(arg, &s, &err);
  if (rc != 0)
    fprintf(stderr, "child open: %s\n", err.msg);
  mp_store_close(s);
  return rc == 0 ? 0 : 1;
}

static void test_pg_first_use_from_many(void) {
  enum { N = 6 };
  char *url = tst_store_url("first");
  pid_t pids[N];
  int go[2], status[N];
  fork_children(N, pids, go, child_open, url);
  run_children(N, pids, go, status);
  for (int i = 0; i < N; i++)
    CHECK(status[i] == 0);
  char *db = db_name("first");
  char *v = sql_on(db,
                   "SELECT string_agg(schema_version::text, ',') FROM "
                   "minipulumi.store_meta",
                   NULL);
  CHECK_STR(v, "5");
  free(v);
  free(db);
  free(url);
}

typedef struct race {
  const char *url;
  int done[2]; /* the winner holds the lock until this pipe closes */
} race;

/* 0: took the lock (and held it until told), 1: refused as busy with the
 * holder named, 2: anything else. */
static int child_race(int i, void *arg) {
  race *r = arg;
  (void)i;
  mp_store *s = NULL;
  mp_store_update *u = NULL;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  if (mp_store_open(r->url, &s, &err) != 0)
    return 2;
  int rc = mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err);
  int out = 2;
  if (rc == 0) {
    char b;
    close(r->done[1]);
    out = read(r->done[0], &b, 1) == 0 ? 0 : 2;
    mp_store_update_end(u, "succeeded", NULL, &err);
  } else if (rc == MP_EBUSY && strstr(err.msg, "is locked by process")) {
    out = 1;
  }
  mp_store_close(s);
  return out;
}

static void test_pg_racing_runners(void) {
  enum { N = 8 };
  race r = {.url = tst_store_url("race")};
  mp_store *s = tst_store_open("race");
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
  mp_store_close(s);
  CHECK(pipe(r.done) == 0);
  pid_t pids[N];
  int go[2], status[N];
  fork_children(N, pids, go, child_race, &r);
  close(r.done[0]);
  /* the losers fail at once; the winner waits for |done| to close */
  char b[N] = {0};
  CHECK(write(go[1], b, N) == N);
  close(go[1]);
  int winners = 0, losers = 0, exited = 0;
  for (int i = 0; i < N; i++)
    status[i] = -1;
  double until = now_s() + 30;
  while (exited < N - 1 && now_s() < until) {
    for (int i = 0; i < N; i++) {
      int st;
      if (status[i] == -1 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
        status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 100;
        exited++;
      }
    }
    usleep(10000);
  }
  close(r.done[1]); /* now the winner ends */
  for (int i = 0; i < N; i++) {
    int st;
    if (status[i] == -1 && waitpid(pids[i], &st, 0) == pids[i])
      status[i] = WIFEXITED(st) ? WEXITSTATUS(st) : 100;
    winners += status[i] == 0;
    losers += status[i] == 1;
  }
  CHECK(winners == 1 && losers == N - 1);
  s = tst_store_open("race");
  mp_history_entry *h = NULL;
  size_t n = 0;
  CHECK(s && mp_store_history(s, dev, &h, &n, &err) == 0);
  CHECK(n == 1 && strcmp(h[0].result, "succeeded") == 0);
  for (size_t i = 0; i < n; i++)
    mp_history_entry_destroy(&h[i]);
  free(h);
  mp_store_close(s);
  free((char *)r.url);
}

/* ==== the lease ==== */

static void test_pg_lease_renewed_without_writes(void) {
  mp_store *s = open_lease("renew", 400);
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_store_update *u = NULL;
  CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
  CHECK(s && mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u,
                                   &err) == 0);
  if (!u) {
    mp_store_close(s);
    return;
  }
  usleep(1500 * 1000); /* over three leases without a write */
  char *db = db_name("renew");
  char *live = sql_on(db,
                      "SELECT expires > clock_timestamp() FROM "
                      "minipulumi.locks",
                      NULL);
  CHECK_STR(live, "t");
  free(live);
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = st};
  CHECK(mp_store_apply(u, &ins, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  char *n = sql_on(db, "SELECT count(*) FROM minipulumi.locks", NULL);
  CHECK_STR(n, "0");
  free(n);
  free(db);
  mp_resource_free(st);
  mp_store_close(s);
}

/* A holder that takes the lock, reports ready, freezes itself (its
 * renewal thread too, its connection stays open), and once woken tries to
 * write: exits 0 if that write is refused as a broken lock. */
static int child_frozen_holder(const char *url, int ready) {
  mp_store_opts o = {.lease_ms = 600};
  mp_store *s = NULL;
  mp_store_update *u = NULL;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  if (mp_store_open_with(url, &o, &s, &err) != 0 ||
      mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) != 0)
    return 2;
  if (write(ready, "x", 1) != 1)
    return 2;
  raise(SIGSTOP);
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = st};
  int rc = mp_store_apply(u, &ins, 1, &err);
  int ok = rc == MP_EBUSY && strstr(err.msg, "was broken while this update");
  mp_store_update_end(u, "failed", NULL, &err);
  mp_store_close(s);
  mp_resource_free(st);
  return ok ? 0 : 3;
}

static void test_pg_lease_expires_for_frozen_holder(void) {
  char *url = tst_store_url("frozen");
  mp_store *s = tst_store_open("frozen");
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
  int ready[2];
  CHECK(pipe(ready) == 0);
  pid_t child = fork();
  if (child == 0) {
    close(ready[0]);
    _exit(child_frozen_holder(url, ready[1]));
  }
  close(ready[1]);
  char b;
  CHECK(read(ready[0], &b, 1) == 1);
  close(ready[0]);
  int st;
  CHECK(waitpid(child, &st, WUNTRACED) == child && WIFSTOPPED(st));
  /* alive and within its lease: refused */
  mp_store_update *u = NULL;
  mp_lock_info stale;
  CHECK(mp_store_update_begin(s, dev, "destroy", NULL, NULL, &stale, &u,
                              &err) == MP_EBUSY);
  CHECK(stale.pid == 0);
  /* once the lease runs out: taken over, naming the frozen holder */
  double until = now_s() + 10;
  int rc = MP_EBUSY;
  while (rc == MP_EBUSY && now_s() < until) {
    usleep(100 * 1000);
    rc = mp_store_update_begin(s, dev, "destroy", NULL, NULL, &stale, &u, &err);
  }
  CHECK(rc == 0 && stale.pid == child);
  CHECK_CONTAINS(stale.gone, "its lease expired at ");
  char *warning = mp_lock_info_stale_message(&stale);
  char want[96];
  snprintf(want, sizeof(want), "broke a stale lock left by process %d on ",
           (int)child);
  CHECK_CONTAINS(warning, want);
  free(warning);
  /* the woken holder finds its lock gone and writes nothing */
  kill(child, SIGCONT);
  CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) &&
        WEXITSTATUS(st) == 0);
  if (u)
    CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  char *order = NULL;
  mp_snapshot *snap = NULL;
  CHECK(mp_store_load(s, dev, NULL, &snap, &err) == 0);
  CHECK(snap && snap->nres == 0);
  mp_snapshot_free(snap);
  free(order);
  mp_store_close(s);
  free(url);
}

/* ==== stacks in parallel, connections lost ==== */

static void test_pg_different_stacks_in_parallel(void) {
  mp_store *a = tst_store_open("par"), *b = tst_store_open("par");
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, prod = {P, "prod"};
  CHECK(a && b && mp_store_stack_create(a, dev, &err) == 0 &&
        mp_store_stack_create(a, prod, &err) == 0);
  mp_store_update *ua = NULL, *ub = NULL;
  CHECK(mp_store_update_begin(a, dev, "update", NULL, NULL, NULL, &ua, &err) ==
        0);
  CHECK(mp_store_update_begin(b, prod, "update", NULL, NULL, NULL, &ub, &err) ==
        0);
  mp_resource *sa = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_resource *sb =
      mp_resource_new(STACK_URN("prod"), "pulumi:pulumi:Stack", 0);
  mp_store_change ca = {.kind = MP_STORE_INSERT_NEW, .res = sa};
  mp_store_change cb = {.kind = MP_STORE_INSERT_NEW, .res = sb};
  CHECK(ua && mp_store_apply(ua, &ca, 1, &err) == 0);
  CHECK(ub && mp_store_apply(ub, &cb, 1, &err) == 0);
  CHECK(ua && mp_store_update_end(ua, "succeeded", NULL, &err) == 0);
  CHECK(ub && mp_store_update_end(ub, "succeeded", NULL, &err) == 0);
  mp_resource_free(sa);
  mp_resource_free(sb);
  mp_store_close(a);
  mp_store_close(b);
}

static void test_pg_connection_lost_mid_update(void) {
  mp_store *s = tst_store_open("lost");
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_store_update *u = NULL;
  CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
  CHECK(s && mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u,
                                   &err) == 0);
  if (!u) {
    mp_store_close(s);
    return;
  }
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  int64_t prow = 0;
  mp_resource *pv = mp_resource_new(PROV("dev"), "pulumi:providers:pkgA", 1);
  pv->id = mp_xstrdup("prov-id");
  mp_store_change first = {.kind = MP_STORE_INSERT_NEW, .res = st};
  mp_store_change pend = {.kind = MP_STORE_PENDING_ADD,
                          .res = pv,
                          .type = MP_PENDING_CREATING,
                          .pending_row = &prow};
  CHECK(mp_store_apply(u, &first, 1, &err) == 0);
  CHECK(mp_store_apply(u, &pend, 1, &err) == 0);
  char *db = db_name("lost");
  char *killed = sql_on(db,
                        "SELECT count(pg_terminate_backend(pid)) FROM "
                        "pg_stat_activity WHERE datname = current_database() "
                        "AND application_name = 'minipulumi'",
                        NULL);
  CHECK_STR(killed, "1");
  free(killed);
  mp_store_change done = {.kind = MP_STORE_INSERT_NEW, .res = pv};
  CHECK(mp_store_apply(u, &done, 1, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "cannot start a transaction: lost the connection "
                          "to the state store 'postgresql://mp@");
  CHECK_CONTAINS(err.msg, "the stack keeps what its last completed write "
                          "stored");
  CHECK(strstr(err.msg, g_pass) == NULL);
  /* ending the session reconnects to record the result and unlock */
  CHECK(mp_store_update_end(u, "failed", NULL, &err) == 0);
  mp_store_close(s);
  s = tst_store_open("lost");
  mp_snapshot *snap = NULL;
  mp_lock_info info;
  CHECK(s && mp_store_load(s, dev, NULL, &snap, &err) == 0);
  CHECK(snap && snap->nres == 1 && snap->npending == 1 &&
        snap->pending[0].type == MP_PENDING_CREATING);
  CHECK(s && mp_store_lock_get(s, dev, &info, &err) == 0);
  mp_history_entry *h = NULL;
  size_t n = 0;
  CHECK(s && mp_store_history(s, dev, &h, &n, &err) == 0);
  CHECK(n == 1 && strcmp(h[0].result, "failed") == 0);
  for (size_t i = 0; i < n; i++)
    mp_history_entry_destroy(&h[i]);
  free(h);
  mp_snapshot_free(snap);
  mp_resource_free(st);
  mp_resource_free(pv);
  mp_store_close(s);
  free(db);
}

int main(void) {
  g_admin = getenv("MP_TEST_PG_URL");
  g_pass = getenv("MP_TEST_PG_PASSWORD");
  if (g_admin == NULL || g_pass == NULL) {
    printf("SKIP: MP_TEST_PG_URL is not set; run this test through "
           "tests/pg/pgtest.py (meson test --suite postgres)\n");
    return 77;
  }
  unsetenv("PGPASSWORD");
  tst_store_cases(run_case);
  TST_STORE_CASE(run_case, test_pg_url_redaction);
  TST_STORE_CASE(run_case, test_pg_password_sources);
  TST_STORE_CASE(run_case, test_pg_refuses_newer_schema);
  TST_STORE_CASE(run_case, test_pg_refuses_foreign_schema);
  TST_STORE_CASE(run_case, test_pg_first_use_from_many);
  TST_STORE_CASE(run_case, test_pg_racing_runners);
  TST_STORE_CASE(run_case, test_pg_lease_renewed_without_writes);
  TST_STORE_CASE(run_case, test_pg_lease_expires_for_frozen_holder);
  TST_STORE_CASE(run_case, test_pg_different_stacks_in_parallel);
  TST_STORE_CASE(run_case, test_pg_connection_lost_mid_update);
  return mp_test_summary();
}
