/* Tests for the DIY state store (src/state/diy_*.c): every case of
 * store_cases.h (what all backends share) on file:// folders, then what is
 * the DIY layout's own: where Pulumi's files are, gzip both ways, a legacy
 * layout, a lock file of Pulumi's shape, URLs. */
#include <ftw.h>
#include <pthread.h>
#include <sys/stat.h>

#define TST_STALE_GONE "its process no longer exists"
#define TST_LOCK_FILES 1
#include "state/store_cases.h"

static char *g_dir; /* scratch directory of the current test */

static char *tst_store_url(const char *name) {
  return mp_xasprintf("file://%s/%s", g_dir, name);
}

static const char *g_needle;
static int g_found;

static int search_file(const char *path, const struct stat *sb, int type,
                       struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  if (type == FTW_F && tst_file_contains(path, g_needle))
    g_found = 1;
  return 0;
}

/* Any file of folder |name| holds |needle|. */
static int tst_store_contains(const char *name, const char *needle) {
  char *dir = mp_xasprintf("%s/%s", g_dir, name);
  g_needle = needle;
  g_found = 0;
  nftw(dir, search_file, 16, FTW_PHYS);
  free(dir);
  return g_found;
}

static char *path_in(const char *rel) {
  return mp_xasprintf("%s/%s", g_dir, rel);
}

static int exists(const char *rel) {
  char *p = path_in(rel);
  struct stat st;
  int ok = stat(p, &st) == 0;
  free(p);
  return ok;
}

/* File |rel| of the scratch folder holds |needle|. */
static int in_file(const char *rel, const char *needle) {
  char *p = path_in(rel);
  int found = tst_file_contains(p, needle);
  free(p);
  return found;
}

static void write_file(const char *rel, const char *text) {
  char *p = path_in(rel);
  char *dir = mp_xstrdup(p);
  *strrchr(dir, '/') = '\0';
  char *cmd = mp_xasprintf("mkdir -p '%s'", dir);
  CHECK(system(cmd) == 0);
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  free(cmd);
  free(dir);
  free(p);
}

static mp_store *open_folder_with(const char *name, const mp_store_opts *o) {
  char *url = tst_store_url(name);
  mp_store *s = NULL;
  mp_err err;
  if (mp_store_open_with(url, o, &s, &err) != 0)
    fprintf(stderr, "open %s: %s\n", url, err.msg);
  free(url);
  return s;
}

static mp_store *open_folder(const char *name) {
  static const mp_store_opts defaults;
  return open_folder_with(name, &defaults);
}

/* A stack with one resource, written through an update session. */
static void one_resource(mp_store *s, const char *stack) {
  mp_stack_ref st = {P, stack};
  mp_err err;
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, st, "update", "m", NULL, NULL, &u, &err) ==
        0);
  if (u == NULL)
    return;
  mp_resource *r = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = r};
  CHECK(mp_store_apply(u, &ins, 1, &err) == 0);
  mp_update_counts counts = {.create = 1};
  CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0);
  mp_resource_free(r);
}

/* ==== the layout ==== */

static void test_diy_layout(void) {
  mp_store *s = open_folder("f");
  CHECK(s != NULL);
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(in_file("f/.pulumi/meta.yaml", "version: 1"));
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(exists("f/.pulumi/stacks/proj/dev.json"));
  one_resource(s, "dev");
  CHECK(exists("f/.pulumi/stacks/proj/dev.json.bak"));
  CHECK(in_file("f/.pulumi/stacks/proj/dev.json",
                          "{\"version\":3,\"checkpoint\":{\"stack\":"
                          "\"organization/proj/dev\",\"latest\":{"));
  mp_history_entry *h = NULL;
  size_t n = 0;
  CHECK(mp_store_history(s, dev, &h, &n, &err) == 0);
  CHECK(n == 1 && h && strcmp(h[0].kind, "update") == 0 &&
        strcmp(h[0].result, "succeeded") == 0 && h[0].counts.create == 1 &&
        strcmp(h[0].message, "m") == 0);
  for (size_t i = 0; i < n; i++)
    mp_history_entry_destroy(&h[i]);
  free(h);
  /* the update's lock file is gone, its folder stays */
  CHECK(exists("f/.pulumi/locks/organization/proj/dev"));
  mp_lock_info info;
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 0);
  mp_store_close(s);
}

/* PULUMI_DIY_BACKEND_GZIP (the diy_gzip option the CLI sets from it)
 * alone decides the form written; the other form is moved to .bak; both
 * are read. */
static void test_diy_gzip_both_ways(void) {
  mp_store *s = open_folder("g");
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_store_close(s);
  mp_store_opts gz = {0};
  gz.diy_gzip = 1;
  if ((s = open_folder_with("g", &gz)) == NULL)
    return;
  one_resource(s, "dev");
  CHECK(exists("g/.pulumi/stacks/proj/dev.json.gz"));
  CHECK(!exists("g/.pulumi/stacks/proj/dev.json"));
  CHECK(exists("g/.pulumi/stacks/proj/dev.json.bak"));
  CHECK(!in_file("g/.pulumi/stacks/proj/dev.json.gz",
                           "organization/proj/dev"));
  char *order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev");
  free(order);
  mp_store_close(s);
  s = open_folder("g");
  if (s == NULL)
    return;
  CHECK(mp_store_secrets_set(s, dev, "passphrase", "{}", &err) == 0);
  CHECK(exists("g/.pulumi/stacks/proj/dev.json"));
  CHECK(!exists("g/.pulumi/stacks/proj/dev.json.gz"));
  CHECK(exists("g/.pulumi/stacks/proj/dev.json.gz.bak"));
  mp_stack_info *list = NULL;
  size_t n = 0;
  CHECK(mp_store_stack_list(s, NULL, &list, &n, &err) == 0);
  CHECK(n == 1 && list && list[0].resource_count == 1);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);
  mp_store_close(s);
}

/* No meta.yaml and a checkpoint directly in .pulumi/stacks: Pulumi's
 * legacy layout, left as it is. */
static void test_diy_legacy_layout(void) {
  write_file("l/.pulumi/stacks/dev.json",
             "{\"version\":3,\"checkpoint\":{\"stack\":\"dev\",\"latest\":{"
             "\"manifest\":{\"time\":\"2024-01-01T00:00:00Z\",\"magic\":\"\","
             "\"version\":\"\"},\"resources\":[{\"urn\":\"" STACK_URN(
                 "dev") "\",\"custom\":false,\"type\":\"pulumi:pulumi:Stack\""
                        "}]}}}\n");
  mp_store *s = open_folder("l");
  if (s == NULL)
    return;
  CHECK(!exists("l/.pulumi/meta.yaml"));
  mp_err err;
  mp_stack_info *list = NULL;
  size_t n = 0;
  CHECK(mp_store_stack_list(s, NULL, &list, &n, &err) == 0);
  CHECK(n == 1 && list && strcmp(list[0].name, "dev") == 0 &&
        strcmp(list[0].project, "proj") == 0);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);
  char *order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev");
  free(order);
  mp_stack_ref dev = {P, "dev"};
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "refresh", NULL, NULL, NULL, &u, &err) ==
        0);
  /* legacy lock files are not under organization/<project> */
  CHECK(exists("l/.pulumi/locks/dev"));
  if (u)
    CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  CHECK(in_file("l/.pulumi/stacks/dev.json",
                          "\"checkpoint\":{\"stack\":\"dev\""));
  CHECK(exists("l/.pulumi/history/dev"));
  mp_store_close(s);
  write_file("n/.pulumi/meta.yaml", "version: 2\n");
  mp_store *t = NULL;
  char *url = tst_store_url("n");
  CHECK(mp_store_open(url, &t, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "has version 2");
  free(url);
}

/* A lock file the Pulumi CLI wrote stops an update with Pulumi's message;
 * breaking the lock removes it. */
static void test_diy_pulumi_lock(void) {
  mp_store *s = open_folder("k");
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  write_file("k/.pulumi/locks/organization/proj/dev/"
             "0b0c7fbc-5c1d-4a8e-9b7d-2a3c4d5e6f70.json",
             "{\"pid\":4242,\"username\":\"alice\",\"hostname\":\"elsewhere"
             "\",\"timestamp\":\"2024-03-04T05:06:07.123456789+01:00\"}");
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        MP_EBUSY);
  CHECK_CONTAINS(err.msg, "the stack is currently locked by 1 lock(s). Either "
                          "wait for the other process(es) to end or delete "
                          "the lock file with `minipulumi cancel`.");
  CHECK_CONTAINS(err.msg,
                 "/.pulumi/locks/organization/proj/dev/"
                 "0b0c7fbc-5c1d-4a8e-9b7d-2a3c4d5e6f70.json: created by "
                 "alice@elsewhere (pid 4242) at 2024-03-04T05:06:07+01:00");
  mp_lock_info info;
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 1);
  CHECK(info.pid == 4242 && strcmp(info.host, "elsewhere") == 0);
  CHECK(mp_store_lock_break(s, dev, &err) == 0);
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 0);
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  if (u)
    CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  mp_store_close(s);
}

static void test_diy_urls(void) {
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open("file://", &s, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "names no folder");
  mp_store_opts o = {0};
  o.home = g_dir;
  CHECK(mp_store_open_with("file://~", &o, &s, &err) == 0);
  mp_store_close(s);
  CHECK(exists(".pulumi/meta.yaml"));
}

/* ==== background writes (mp_store_apply_begin) ==== */

typedef struct waiter {
  mp_store_update *u;
  int64_t ticket;
  int rc;
} waiter;

static void *wait_on_thread(void *arg) {
  waiter *w = arg;
  mp_err err;
  w->rc = mp_store_wait(w->u, w->ticket, &err);
  return NULL;
}

static mp_resource *numbered(int i) {
  char *urn = mp_xasprintf("urn:pulumi:dev::proj::test:index:Thing::r%d", i);
  mp_resource *r = mp_resource_new(urn, "test:index:Thing", 1);
  free(urn);
  return r;
}

/* Changes given to the background writer are all on disk once the
 * newest one's ticket is waited for, from any thread; tickets never go
 * back; the end of the session writes what is left. */
static void test_diy_background_writes(void) {
  mp_store *s = open_folder("f");
  CHECK(s != NULL);
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", "", NULL, NULL, &u, &err) ==
        0);
  if (u == NULL) {
    mp_store_close(s);
    return;
  }
  enum { N = 200 };
  mp_resource *res[N];
  int64_t last = 0, ticket = 0;
  int monotonic = 1;
  for (int i = 0; i < N; i++) {
    res[i] = numbered(i);
    mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = res[i]};
    CHECK(mp_store_apply_begin(u, &ins, 1, &ticket, &err) == 0);
    monotonic &= ticket > last;
    last = ticket;
  }
  CHECK(monotonic && last > 0);
  waiter w = {u, last, -1};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, wait_on_thread, &w) == 0);
  pthread_join(t, NULL);
  CHECK(w.rc == 0);
  CHECK(in_file("f/.pulumi/stacks/proj/dev.json", "Thing::r0\""));
  CHECK(in_file("f/.pulumi/stacks/proj/dev.json", "Thing::r199\""));
  /* a change left to the end of the session is written by it */
  mp_resource *late = numbered(N);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = late};
  CHECK(mp_store_apply_begin(u, &ins, 1, &ticket, &err) == 0);
  mp_update_counts counts = {.create = N + 1};
  CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0);
  CHECK(in_file("f/.pulumi/stacks/proj/dev.json", "Thing::r200\""));
  mp_snapshot *snap = NULL;
  CHECK(mp_store_load(s, dev, NULL, &snap, &err) == 0);
  CHECK(snap && snap->nres == N + 1 && snap->npending == 0);
  mp_snapshot_free(snap);
  for (int i = 0; i < N; i++)
    mp_resource_free(res[i]);
  mp_resource_free(late);
  mp_store_close(s);
}

/* A background write that fails fails the wait with its error, and every
 * later write of the session, while the file keeps what was written. */
static void test_diy_background_write_fails(void) {
  mp_store *s = open_folder("f");
  CHECK(s != NULL);
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", "", NULL, NULL, &u, &err) ==
        0);
  if (u == NULL) {
    mp_store_close(s);
    return;
  }
  mp_resource *a = numbered(1), *b = numbered(2);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = a};
  int64_t ticket = 0;
  CHECK(mp_store_apply_begin(u, &ins, 1, &ticket, &err) == 0);
  CHECK(mp_store_wait(u, ticket, &err) == 0);
  /* the temporary file cannot be made where a folder stands in its way */
  char *dir = path_in("f/.pulumi/stacks/proj");
  char *cmd = mp_xasprintf("mv '%s' '%s.moved' && touch '%s'", dir, dir, dir);
  CHECK(system(cmd) == 0);
  ins.res = b;
  CHECK(mp_store_apply_begin(u, &ins, 1, &ticket, &err) == 0);
  CHECK(mp_store_wait(u, ticket, &err) < 0 && err.msg[0] != '\0');
  ins.res = numbered(3);
  CHECK(mp_store_apply(u, &ins, 1, &err) < 0 &&
        strstr(err.msg, "an earlier write") != NULL);
  mp_resource_free(ins.res);
  CHECK(mp_store_update_end(u, "failed", NULL, &err) < 0);
  free(cmd);
  cmd = mp_xasprintf("rm -f '%s' && mv '%s.moved' '%s'", dir, dir, dir);
  CHECK(system(cmd) == 0);
  CHECK(in_file("f/.pulumi/stacks/proj/dev.json", "Thing::r1\""));
  CHECK(!in_file("f/.pulumi/stacks/proj/dev.json", "Thing::r2\""));
  free(cmd);
  free(dir);
  mp_resource_free(a);
  mp_resource_free(b);
  mp_store_close(s);
}

static void run_in_dir(void (*fn)(void), const char *name) {
  tst_run_in_dir(&g_dir, fn, name);
}

/* ==== an update's events ==== */

/* Kept in <stack>-<ns>.events.jsonl beside the history, numbered by the
 * update; the history still lists updates only (Pulumi's getHistory
 * reads only *.history.json); a torn last line is skipped. */
static void test_diy_events(void) {
  mp_store *s = open_folder("f");
  CHECK(s != NULL);
  if (s == NULL) return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  one_resource(s, "dev");
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  if (u == NULL) {
    mp_store_close(s);
    return;
  }
  mp_update_event batch[] = {{1, 7000, (char *)"{\"a\":\"</x>\"}"},
                             {2, 7250, (char *)"{\"b\":2}"}};
  CHECK(mp_store_update_events(u, batch, 1, &err) == 0);
  CHECK(mp_store_update_events(u, batch + 1, 1, &err) == 0);
  mp_update_event *ev = NULL;
  size_t n = 0;
  CHECK(mp_store_events(s, dev, 2, &ev, &n, &err) == 0 && n == 2);
  CHECK(n == 2 && ev[0].seq == 1 && ev[0].time_ms == 7000 && ev[1].seq == 2);
  if (n == 2) CHECK_STR(ev[0].json, "{\"a\":\"</x>\"}");
  mp_update_events_free(ev, n);
  mp_update_counts counts = {.same = 1};
  CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0);
  CHECK(tst_store_contains("f/.pulumi/history/proj/dev", "\"version\":2}"));
  mp_history_entry *h = NULL;
  size_t nh = 0;
  CHECK(mp_store_history(s, dev, &h, &nh, &err) == 0 && nh == 2);
  for (size_t i = 0; i < nh; i++) mp_history_entry_destroy(&h[i]);
  free(h);
  /* a torn last line (a power loss mid-write) is left out */
  char *dir = path_in("f/.pulumi/history/proj/dev");
  char *cmd = mp_xasprintf("printf '{\"seq\":3,\"ti' >> %s/dev-*.events.jsonl",
                           dir);
  CHECK(system(cmd) == 0);
  ev = NULL;
  n = 0;
  CHECK(mp_store_events(s, dev, 2, &ev, &n, &err) == 0 && n == 2);
  mp_update_events_free(ev, n);
  ev = NULL;
  n = 0;
  CHECK(mp_store_events(s, dev, 1, &ev, &n, &err) == 0 && n == 0);
  mp_update_events_free(ev, n);
  free(cmd);
  free(dir);
  mp_store_close(s);
}

int main(void) {
  tst_store_cases(run_in_dir);
  TST_STORE_CASE(run_in_dir, test_diy_layout);
  TST_STORE_CASE(run_in_dir, test_diy_gzip_both_ways);
  TST_STORE_CASE(run_in_dir, test_diy_legacy_layout);
  TST_STORE_CASE(run_in_dir, test_diy_pulumi_lock);
  TST_STORE_CASE(run_in_dir, test_diy_urls);
  TST_STORE_CASE(run_in_dir, test_diy_background_writes);
  TST_STORE_CASE(run_in_dir, test_diy_background_write_fails);
  TST_STORE_CASE(run_in_dir, test_diy_events);
  return mp_test_summary();
}
