/* The behaviour every state store backend must show alike (store.h),
 * run by tests/state/test_store.c against SQLite and by
 * tests/state/test_store_pg.c against PostgreSQL: stacks, step-wise
 * writes and their order (docs/behaviour.md,
 * "The checkpoint"), verification, import round
 * trips, secrets, locks between processes, history.
 *
 * Header-only (static), included by one test file, which first defines:
 *   char *tst_store_url(const char *name)     the URL of store |name| of
 *                                             the current test (owned)
 *   int tst_store_contains(const char *name, const char *needle)
 *                                             1 if any byte stored for
 *                                             store |name| holds |needle|
 *   TST_STALE_GONE  the reason a dead holder's lock is stale
 * and may define TST_LOCK_FILES (the DIY store: Pulumi's lock files and
 * message, which name no operation), and runs tst_store_cases(fn) to call each case through its |fn|. */
#ifndef TEST_STORE_CASES_H
#define TEST_STORE_CASES_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "engine/snapshot.h"
#include "state/store.h"
#include "state/test_state_util.h"
#include "testutil.h"

#define P "proj"
#define STACK_URN(st) "urn:pulumi:" st "::proj::pulumi:pulumi:Stack::proj-" st
#define URN(st, name) "urn:pulumi:" st "::proj::pkgA:m:typA::" name
#define PROV(st) "urn:pulumi:" st "::proj::pulumi:providers:pkgA::default"
#define SECRET_TEXT "hunter2-do-not-leak"

/* Runs test |fn| in a fresh scratch directory kept in *dir, removed
 * afterwards unless a check failed (then kept for inspection). */
static inline void tst_run_in_dir(char **dir, void (*fn)(void),
                                  const char *name) {
  *dir = tst_mkdtemp();
  int before = mp_test_checks_failed;
  fn();
  if (mp_test_checks_failed == before)
    tst_rmdir(*dir);
  else
    fprintf(stderr, "%s: left %s for inspection\n", name, *dir);
  free(*dir);
  *dir = NULL;
}

static char *tst_store_url(const char *name);
static int tst_store_contains(const char *name, const char *needle);

/* Opens store |name| with every write verified (|verify| 1) or not. */
static mp_store *tst_store_open_verify(const char *name, int verify) {
  char *url = tst_store_url(name);
  mp_store *s = NULL;
  mp_err err;
  mp_store_opts o = {.verify_writes = verify};
  if (mp_store_open_with(url, &o, &s, &err) != 0)
    fprintf(stderr, "open %s: %s\n", name, err.msg);
  free(url);
  return s;
}

static mp_store *tst_store_open(const char *name) {
  return tst_store_open_verify(name, 1);
}

static mp_resource *custom(const char *urn, const char *id) {
  mp_resource *r = mp_resource_new(urn, "pkgA:m:typA", 1);
  r->id = mp_xstrdup(id);
  r->provider = mp_xasprintf("%s::prov-id", PROV("dev"));
  return r;
}

static mp_resource *provider(void) {
  mp_resource *r = mp_resource_new(PROV("dev"), "pulumi:providers:pkgA", 1);
  r->id = mp_xstrdup("prov-id");
  return r;
}

/* The URNs of the stack's resources joined by spaces, names only. */
static char *order_of(mp_store *s, const char *stack) {
  mp_stack_ref st = {P, stack};
  mp_snapshot *snap = NULL;
  mp_err err;
  mp_crypter c = tst_xor_crypter();
  if (mp_store_load(s, st, &c, &snap, &err) != 0) {
    fprintf(stderr, "load: %s\n", err.msg);
    return mp_xstrdup("(error)");
  }
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < snap->nres; i++) {
    const char *name = strrchr(snap->res[i]->urn, ':') + 1;
    mp_buf_printf(&b, "%s%s%s", i ? " " : "", name,
                  snap->res[i]->delete_ ? "(del)" : "");
  }
  mp_snapshot_free(snap);
  return mp_buf_detach(&b, NULL);
}

/* ==== stacks ==== */

static void test_store_stacks_crud(void) {
  mp_store *s = tst_store_open("crud.db");
  CHECK(s != NULL);
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, prod = {P, "prod"}, other = {"other", "dev"};
  CHECK(mp_store_stack_exists(s, dev, &err) == 0);
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_stack_create(s, dev, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "stack 'dev' already exists");
  CHECK(mp_store_stack_create(s, prod, &err) == 0);
  CHECK(mp_store_stack_create(s, other, &err) == 0);
  CHECK(mp_store_stack_exists(s, dev, &err) == 1);

  mp_stack_info *list = NULL;
  size_t n = 0;
  CHECK(mp_store_stack_list(s, P, &list, &n, &err) == 0);
  CHECK(n == 2 && strcmp(list[0].name, "dev") == 0 &&
        strcmp(list[1].name, "prod") == 0 && list[0].resource_count == 0);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);
  list = NULL;
  n = 0;
  CHECK(mp_store_stack_list(s, NULL, &list, &n, &err) == 0 && n == 3);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);

  char *sel = NULL;
  CHECK(mp_store_selected_get(s, P, &sel, &err) == 0 && sel == NULL);
  CHECK(mp_store_selected_set(s, P, "prod", &err) == 0);
  CHECK(mp_store_selected_get(s, P, &sel, &err) == 0);
  CHECK_STR(sel, "prod");
  free(sel);
  CHECK(mp_store_selected_set(s, P, "nope", &err) == MP_ENOENT);
  CHECK_CONTAINS(err.msg, "no stack named 'nope' in project 'proj'");
  /* unselect (a NULL name), twice: the second finds nothing to forget */
  CHECK(mp_store_selected_set(s, P, NULL, &err) == 0);
  CHECK(mp_store_selected_get(s, P, &sel, &err) == 0 && sel == NULL);
  CHECK(mp_store_selected_set(s, P, NULL, &err) == 0);
  CHECK(mp_store_selected_set(s, P, "prod", &err) == 0);

  char *type = NULL, *state = NULL;
  CHECK(mp_store_secrets_set(s, dev, "passphrase", "{\"salt\":\"v1:x\"}",
                             &err) == 0);
  CHECK(mp_store_secrets_get(s, dev, &type, &state, &err) == 0);
  CHECK_STR(type, "passphrase");
  CHECK_STR(state, "{\"salt\":\"v1:x\"}");
  free(type);
  free(state);

  CHECK(mp_store_stack_remove(s, prod, 0, &err) == 0);
  CHECK(mp_store_stack_exists(s, prod, &err) == 0);
  CHECK(mp_store_selected_get(s, P, &sel, &err) == 0 && sel == NULL);
  CHECK(mp_store_stack_remove(s, prod, 0, &err) == MP_ENOENT);
  mp_store_close(s);
}

static void test_store_remove_refuses_with_resources(void) {
  mp_store *s = tst_store_open("rm.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_snapshot *snap = mp_snapshot_new();
  mp_snapshot_append(
      snap, mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0));
  mp_snapshot_append(snap, provider());
  CHECK(mp_store_replace(s, dev, snap, NULL, &err) == 0);
  CHECK(mp_store_stack_remove(s, dev, 0, &err) == MP_ESTATE);
  CHECK_STR(err.msg, "stack 'dev' still has 2 resources; use --force to "
                     "remove it anyway");
  CHECK(mp_store_stack_exists(s, dev, &err) == 1);
  CHECK(mp_store_stack_remove(s, dev, 1, &err) == 0);
  CHECK(mp_store_stack_exists(s, dev, &err) == 0);
  /* re-creating starts empty */
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  char *order = order_of(s, "dev");
  CHECK_STR(order, "");
  free(order);
  mp_snapshot_free(snap);
  mp_store_close(s);
}

/* Issue 49: every name is checked before a backend sees it (store.c), so
 * that no project or stack name reaches a path or a URN unchecked: `..`
 * and `.` (a file:// store's folders above the stack's own), `/`, `::`,
 * a newline. Nothing is created, and the valid stack stays. */
static void test_store_refuses_bad_names(void) {
  mp_store *s = tst_store_open("names.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_selected_set(s, P, "dev", &err) == 0);
  static const char *const projects[] = {"..",   ".",  "a/b", "a::b",
                                         "a\nb", "1x", ""};
  static const char *const stacks[] = {"..", ".", "a/b", "a::b", "a\nb", ""};
  for (size_t i = 0; i < sizeof(projects) / sizeof(projects[0]); i++) {
    mp_stack_ref bad = {projects[i], "stacks"};
    CHECK(mp_store_stack_create(s, bad, &err) == MP_EINVAL);
    CHECK_CONTAINS(err.msg, "invalid project name");
    CHECK(mp_store_stack_remove(s, bad, 1, &err) == MP_EINVAL);
    CHECK(mp_store_stack_exists(s, bad, &err) == MP_EINVAL);
    CHECK(mp_store_selected_set(s, projects[i], NULL, &err) == MP_EINVAL);
    char *sel = NULL;
    CHECK(mp_store_selected_get(s, projects[i], &sel, &err) == MP_EINVAL);
    CHECK(sel == NULL);
  }
  for (size_t i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
    mp_stack_ref bad = {P, stacks[i]};
    CHECK(mp_store_stack_create(s, bad, &err) == MP_EINVAL);
    CHECK_CONTAINS(err.msg, "invalid stack name");
    CHECK(mp_store_stack_remove(s, bad, 1, &err) == MP_EINVAL);
    CHECK(mp_store_stack_rename(s, dev, stacks[i], &err) == MP_EINVAL);
    CHECK(mp_store_selected_set(s, P, stacks[i], &err) == MP_EINVAL);
    mp_snapshot *snap = NULL;
    CHECK(mp_store_load(s, bad, NULL, &snap, &err) == MP_EINVAL);
    CHECK(snap == NULL);
    mp_store_update *u = NULL;
    CHECK(mp_store_update_begin(s, bad, "update", NULL, NULL, NULL, &u, &err) ==
          MP_EINVAL);
    CHECK(u == NULL);
    CHECK(mp_store_lock_break(s, bad, &err) == MP_EINVAL);
  }
  CHECK(mp_store_stack_exists(s, dev, &err) == 1);
  mp_stack_info *list = NULL;
  size_t n = 0;
  CHECK(mp_store_stack_list(s, NULL, &list, &n, &err) == 0);
  CHECK(n == 1 && strcmp(list[0].name, "dev") == 0);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);
  mp_store_close(s);
}

static void test_store_rename_rewrites_urns(void) {
  mp_store *s = tst_store_open("rename.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, prod = {P, "prod"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_stack_create(s, prod, &err) == 0);
  CHECK(mp_store_selected_set(s, P, "dev", &err) == 0);
  mp_snapshot *snap = mp_snapshot_new();
  mp_snapshot_append(
      snap, mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0));
  mp_snapshot_append(snap, provider());
  mp_resource *a = custom(URN("dev", "a"), "id-a");
  a->parent = mp_xstrdup(STACK_URN("dev"));
  mp_strv_push(&a->dependencies, PROV("dev"));
  mp_strv_push(&mp_propdeps_get(&a->property_dependencies, "x")->urns,
               PROV("dev"));
  a->deleted_with = mp_xstrdup(PROV("dev"));
  mp_snapshot_append(snap, a);
  mp_snapshot_append_pending(snap, custom(URN("dev", "b"), NULL),
                             MP_PENDING_CREATING);
  CHECK(mp_store_replace(s, dev, snap, NULL, &err) == 0);
  mp_snapshot_free(snap);

  CHECK(mp_store_stack_rename(s, dev, "prod", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "stack 'prod' already exists");
  CHECK(mp_store_stack_rename(s, dev, "test", &err) == 0);
  mp_stack_ref test = {P, "test"};
  CHECK(mp_store_stack_exists(s, dev, &err) == 0);
  char *sel = NULL;
  CHECK(mp_store_selected_get(s, P, &sel, &err) == 0);
  CHECK_STR(sel, "test");
  free(sel);
  snap = NULL;
  CHECK(mp_store_load(s, test, NULL, &snap, &err) == 0);
  CHECK(snap && snap->nres == 3 && snap->npending == 1);
  if (snap && snap->nres == 3) {
    CHECK_STR(snap->res[0]->urn, STACK_URN("test"));
    CHECK_STR(snap->res[2]->urn, URN("test", "a"));
    CHECK_STR(snap->res[2]->parent, STACK_URN("test"));
    CHECK_STR(snap->res[2]->provider, PROV("test") "::prov-id");
    CHECK_STR(snap->res[2]->dependencies.items[0], PROV("test"));
    CHECK_STR(snap->res[2]->property_dependencies.items[0].urns.items[0],
              PROV("test"));
    CHECK_STR(snap->res[2]->deleted_with, PROV("test"));
    CHECK_STR(snap->pending[0].res->urn, URN("test", "b"));
    CHECK(mp_snapshot_verify(snap, &err) == 0);
  }
  mp_snapshot_free(snap);
  mp_store_close(s);
}

/* ==== step-wise writes ==== */

/* One step as the step executor records it: pending op, then the result
 * replaces the pending op in one transaction. */
static int64_t step_insert(mp_store_update *u, mp_resource *r) {
  mp_err err;
  int64_t prow = 0;
  mp_store_change add = {.kind = MP_STORE_PENDING_ADD,
                         .res = r,
                         .type = MP_PENDING_CREATING,
                         .pending_row = &prow};
  CHECK(mp_store_apply(u, &add, 1, &err) == 0);
  CHECK(prow > 0);
  mp_store_change done[2] = {{.kind = MP_STORE_INSERT_NEW, .res = r},
                             {.kind = MP_STORE_PENDING_REMOVE, .row = prow}};
  int rc = mp_store_apply(u, done, 2, &err);
  if (rc != 0)
    fprintf(stderr, "apply: %s\n", err.msg);
  CHECK(rc == 0 && r->row > 0);
  return r->row;
}

static void test_store_apply_order_two_deployments(void) {
  mp_store *s = tst_store_open("order.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_crypter c = tst_xor_crypter();
  CHECK(mp_store_stack_create(s, dev, &err) == 0);

  /* deployment 1: stack, provider, a, b, c in completion order */
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", "first", &c, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_resource *pv = provider();
  mp_resource *a = custom(URN("dev", "a"), "id-a");
  mp_resource *b = custom(URN("dev", "b"), "id-b");
  mp_resource *cc = custom(URN("dev", "c"), "id-c");
  step_insert(u, st);
  step_insert(u, pv);
  step_insert(u, a);
  step_insert(u, b);
  step_insert(u, cc);
  mp_update_counts counts = {.create = 5};
  CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0);
  char *order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default a b c");
  free(order);

  /* deployment 2: stack and provider are `same` (moved to the new part),
   * c updated (moved), b updated in place, d created, a replaced
   * create-before-delete (new copy first, old marked delete in the same
   * write, then deleted); an interrupted create stays pending */
  CHECK(mp_store_update_begin(s, dev, "update", "second", &c, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  CHECK(mp_store_drop_old_pending(u, &err) == 0);
  mp_store_change same[2] = {{.kind = MP_STORE_MOVE_NEW, .row = st->row},
                             {.kind = MP_STORE_MOVE_NEW, .row = pv->row}};
  CHECK(mp_store_apply(u, same, 2, &err) == 0);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default a b c");
  free(order);
  mp_resource *c2 = mp_resource_dup(cc);
  c2->outputs = mp_value_new_object();
  mp_value_object_set(c2->outputs, "v", mp_value_new_number(2));
  mp_store_change upd_c = {.kind = MP_STORE_UPDATE_NEW, .res = c2};
  CHECK(mp_store_apply(u, &upd_c, 1, &err) == 0);
  mp_resource *b2 = mp_resource_dup(b);
  mp_strv_push(&b2->init_errors, "half done");
  mp_store_change upd_b = {.kind = MP_STORE_UPDATE, .res = b2};
  CHECK(mp_store_apply(u, &upd_b, 1, &err) == 0);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default c a b");
  free(order);

  mp_resource *d = custom(URN("dev", "d"), "id-d");
  mp_strv_push(&d->dependencies, URN("dev", "c"));
  step_insert(u, d);
  mp_resource *a_new = custom(URN("dev", "a"), "id-a2");
  mp_resource *a_old = mp_resource_dup(a);
  a_old->delete_ = 1;
  mp_store_change cbd[2] = {{.kind = MP_STORE_INSERT_NEW, .res = a_new},
                            {.kind = MP_STORE_UPDATE, .res = a_old}};
  CHECK(mp_store_apply(u, cbd, 2, &err) == 0);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default c d a a(del) b");
  free(order);
  mp_store_change del = {.kind = MP_STORE_DELETE, .row = a_old->row};
  CHECK(mp_store_apply(u, &del, 1, &err) == 0);
  int64_t prow = 0;
  mp_resource *e = custom(URN("dev", "e"), NULL);
  mp_store_change pend = {.kind = MP_STORE_PENDING_ADD,
                          .res = e,
                          .type = MP_PENDING_CREATING,
                          .pending_row = &prow};
  CHECK(mp_store_apply(u, &pend, 1, &err) == 0);
  /* a row that is not there */
  mp_store_change gone = {.kind = MP_STORE_DELETE, .row = a_old->row};
  CHECK(mp_store_apply(u, &gone, 1, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "has no stored row");
  /* two live copies of one URN in one write: refused by verification */
  mp_resource *dup = custom(URN("dev", "d"), "id-d9");
  mp_store_change twice = {.kind = MP_STORE_INSERT_NEW, .res = dup};
  CHECK(mp_store_apply(u, &twice, 1, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "duplicate resource '" URN("dev", "d") "'");
  mp_store_change undo = {.kind = MP_STORE_DELETE, .row = dup->row};
  CHECK(mp_store_apply(u, &undo, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "failed", NULL, &err) == 0);

  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default c d a b");
  free(order);
  mp_snapshot *snap = NULL;
  CHECK(mp_store_load(s, dev, &c, &snap, &err) == 0);
  CHECK(snap && snap->npending == 1 && snap->pending[0].row == prow &&
        strcmp(snap->pending[0].res->urn, URN("dev", "e")) == 0);
  CHECK(snap && snap->nres == 6 &&
        mp_value_equal(snap->res[2]->outputs, c2->outputs, 0) &&
        snap->res[2]->row == cc->row && snap->res[5]->row == b->row &&
        snap->res[5]->init_errors.len == 1);

  /* deployment 3: a creating pending op survives drop_old_pending, an
   * updating one does not */
  CHECK(mp_store_update_begin(s, dev, "refresh", NULL, &c, NULL, &u, &err) ==
        0);
  mp_resource *f = custom(URN("dev", "b"), "id-b");
  mp_store_change pend2 = {
      .kind = MP_STORE_PENDING_ADD, .res = f, .type = MP_PENDING_UPDATING};
  CHECK(mp_store_apply(u, &pend2, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "failed", NULL, &err) == 0);
  CHECK(mp_store_update_begin(s, dev, "update", NULL, &c, NULL, &u, &err) == 0);
  CHECK(mp_store_drop_old_pending(u, &err) == 0);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  mp_snapshot_free(snap);
  CHECK(mp_store_load(s, dev, &c, &snap, &err) == 0);
  CHECK(snap && snap->npending == 1 &&
        snap->pending[0].type == MP_PENDING_CREATING);

  mp_history_entry *h = NULL;
  size_t n = 0;
  CHECK(mp_store_history(s, dev, &h, &n, &err) == 0);
  CHECK(n == 4);
  if (n == 4) {
    CHECK(h[0].id == 4 && h[3].id == 1);
    CHECK_STR(h[3].kind, "update");
    CHECK_STR(h[3].result, "succeeded");
    CHECK_STR(h[3].message, "first");
    CHECK(h[3].counts.create == 5 && h[3].end[0] != '\0');
    CHECK_STR(h[1].kind, "refresh");
  }
  for (size_t i = 0; i < n; i++)
    mp_history_entry_destroy(&h[i]);
  free(h);

  mp_stack_info *list = NULL;
  n = 0;
  CHECK(mp_store_stack_list(s, P, &list, &n, &err) == 0);
  CHECK(n == 1 && list[0].resource_count == 6 && list[0].last_update);
  for (size_t i = 0; i < n; i++)
    mp_stack_info_destroy(&list[i]);
  free(list);

  mp_snapshot_free(snap);
  mp_resource *all[] = {st, pv, a, b, cc, c2, b2, d, a_new, a_old, e, f, dup};
  for (size_t i = 0; i < MP_ARRAY_LEN(all); i++)
    mp_resource_free(all[i]);
  mp_store_close(s);
}

/* MOVE_LAZY (a `same` that changes nothing) writes nothing by itself;
 * the next other write of the update moves it first, in the same
 * transaction; one that no write follows stays where it was. */
static void test_store_lazy_moves(void) {
  mp_store *s = tst_store_open("lazy.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_crypter c = tst_xor_crypter();
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", "first", &c, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_resource *pv = provider();
  mp_resource *a = custom(URN("dev", "a"), "id-a");
  mp_resource *b = custom(URN("dev", "b"), "id-b");
  mp_resource *cc = custom(URN("dev", "c"), "id-c");
  step_insert(u, st);
  step_insert(u, pv);
  step_insert(u, a);
  step_insert(u, b);
  step_insert(u, cc);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);

  CHECK(mp_store_update_begin(s, dev, "update", "second", &c, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  mp_store_change lazy[3] = {{.kind = MP_STORE_MOVE_LAZY, .row = st->row},
                             {.kind = MP_STORE_MOVE_LAZY, .row = pv->row},
                             {.kind = MP_STORE_MOVE_LAZY, .row = b->row}};
  CHECK(mp_store_apply(u, &lazy[0], 1, &err) == 0);
  /* (MOVE_NEW would have given "proj-dev default b a c") */
  char *order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default a b c");
  free(order);
  /* a second deferral after the first: still nothing written */
  CHECK(mp_store_apply(u, &lazy[1], 2, &err) == 0);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default a b c");
  free(order);
  mp_resource *d = custom(URN("dev", "d"), "id-d");
  mp_strv_push(&d->dependencies, URN("dev", "b"));
  step_insert(u, d);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default b d a c");
  free(order);
  mp_store_change lazy_c = {.kind = MP_STORE_MOVE_LAZY, .row = cc->row};
  CHECK(mp_store_apply(u, &lazy_c, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  order = order_of(s, "dev");
  CHECK_STR(order, "proj-dev default b d a c");
  free(order);
  mp_resource_free(st);
  mp_resource_free(pv);
  mp_resource_free(a);
  mp_resource_free(b);
  mp_resource_free(cc);
  mp_resource_free(d);
  mp_store_close(s);
}

static void test_store_verify_writes(void) {
  mp_store *s = tst_store_open("verify.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  if (!u)
    return;
  mp_resource *orphan = custom(URN("dev", "a"), "id-a"); /* no provider yet */
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = orphan};
  CHECK(mp_store_apply(u, &ins, 1, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "the snapshot written for stack 'proj/dev' fails "
                          "verification: resource '" URN(
                              "dev", "a") "' refers to unknown provider");
  /* without verification the same write goes through silently */
  mp_store_change undo = {.kind = MP_STORE_DELETE, .row = orphan->row};
  CHECK(mp_store_apply(u, &undo, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "failed", NULL, &err) == 0);
  mp_store_close(s);
  s = tst_store_open_verify("verify.db", 0);
  if (!s)
    return;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  CHECK(mp_store_apply(u, &ins, 1, &err) == 0);
  CHECK(mp_store_update_end(u, "failed", NULL, &err) == 0);
  mp_resource_free(orphan);
  mp_store_close(s);
}

/* ==== import, secrets ==== */

#define FIXTURE_PASSPHRASE "correct horse battery staple"

static mp_passphrase *fixture_passphrase(const char *text, const char *pass) {
  const char *salt = strstr(text, "v1:ASNF");
  char state[256];
  snprintf(state, sizeof(state), "%.*s", (int)(strchr(salt, '"') - salt), salt);
  mp_passphrase *pp = NULL;
  mp_err err;
  CHECK(mp_passphrase_open(state, pass, &pp, &err) == 0);
  return pp;
}

static void test_store_import_c8_round_trip(void) {
  size_t len;
  char *text = tst_read_fixture("c8_export.json", &len);
  if (!text) {
    CHECK(0);
    return;
  }
  mp_passphrase *pp = fixture_passphrase(text, FIXTURE_PASSPHRASE);
  mp_crypter c = mp_passphrase_crypter(pp);
  mp_snapshot *in = NULL;
  mp_err err;
  CHECK(mp_snapshot_import(text, len, &c, &in, &err) == 0);
  mp_store *s = tst_store_open("import.db");
  mp_stack_ref dev = {P, "dev"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_replace(s, dev, in, &c, &err) == 0);
  CHECK(in->res[0]->row > 0 && in->pending[0].row > 0);

  mp_snapshot *loaded = NULL;
  CHECK(mp_store_load(s, dev, &c, &loaded, &err) == 0);
  CHECK(loaded && loaded->nres == 4 && loaded->npending == 1);
  CHECK(loaded && loaded->secrets_type &&
        strcmp(loaded->secrets_type, "passphrase") == 0);
  mp_buf out;
  mp_buf_init(&out);
  CHECK(mp_snapshot_export(loaded, &c, "v0.1.0", 0, &out, &err) == 0);
  mp_snapshot *again = NULL;
  CHECK(mp_snapshot_import(out.data, out.len, &c, &again, &err) == 0);
  CHECK(again && again->nres == in->nres);
  for (size_t i = 0; again && i < in->nres && i < again->nres; i++)
    CHECK(mp_resource_equal(in->res[i], again->res[i]));
  mp_store_close(s);

  /* secrets never reach the database file in plaintext */
  CHECK(!tst_store_contains("import.db", "s3cr3t-token-value"));
  CHECK(tst_store_contains("import.db", "ciphertext"));

  /* a wrong passphrase is detected when loading */
  mp_passphrase *bad = fixture_passphrase(text, "wrong passphrase");
  mp_crypter bc = mp_passphrase_crypter(bad);
  s = tst_store_open("import.db");
  mp_snapshot *nope = NULL;
  CHECK(mp_store_load(s, dev, &bc, &nope, &err) < 0);
  CHECK(nope == NULL);
  CHECK_CONTAINS(err.msg, "incorrect passphrase");
  mp_store_close(s);

  mp_passphrase_free(bad);
  mp_buf_destroy(&out);
  mp_snapshot_free(again);
  mp_snapshot_free(loaded);
  mp_snapshot_free(in);
  mp_passphrase_free(pp);
  free(text);
}

static void test_store_replace_all_or_nothing(void) {
  mp_store *s = tst_store_open("atomic.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_crypter c = tst_xor_crypter();
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_snapshot *good = mp_snapshot_new();
  mp_snapshot_append(good, provider());
  mp_snapshot_append(good, custom(URN("dev", "a"), "id-a"));
  CHECK(mp_store_replace(s, dev, good, &c, &err) == 0);
  char *before = order_of(s, "dev");

  /* fails integrity: a resource whose provider is unknown */
  mp_snapshot *bad = mp_snapshot_new();
  mp_snapshot_append(bad, custom(URN("dev", "x"), "id-x"));
  CHECK(mp_store_replace(s, dev, bad, &c, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "refers to unknown provider");
  char *after = order_of(s, "dev");
  CHECK_STR(after, before);
  free(after);

  /* fails half-way: the third entry holds a secret and there is no
   * crypter; the two written before it must be rolled back */
  mp_snapshot *half = mp_snapshot_new();
  mp_snapshot_append(half, provider());
  mp_snapshot_append(half, custom(URN("dev", "y"), "id-y"));
  mp_resource *z = custom(URN("dev", "z"), "id-z");
  z->outputs = mp_value_new_object();
  mp_value_object_set(z->outputs, "pw",
                      mp_value_new_secret(mp_value_new_cstring(SECRET_TEXT)));
  mp_snapshot_append(half, z);
  CHECK(mp_store_replace(s, dev, half, NULL, &err) < 0);
  CHECK_CONTAINS(err.msg, "cannot replace the snapshot of stack 'proj/dev'");
  CHECK(half->res[0]->row == 0);
  after = order_of(s, "dev");
  CHECK_STR(after, before);
  free(after);
  /* with a crypter it goes in, and the secret is not in the file */
  CHECK(mp_store_replace(s, dev, half, &c, &err) == 0);
  after = order_of(s, "dev");
  CHECK_STR(after, "default y z");
  free(after);
  mp_store_close(s);
  CHECK(!tst_store_contains("atomic.db", SECRET_TEXT));
  free(before);
  mp_snapshot_free(good);
  mp_snapshot_free(bad);
  mp_snapshot_free(half);
}

/* A resource's `aliases` (the URN it was found under) are kept by every
 * backend and come back from load and export (tests/cli/t0295). */
static void test_store_aliases_round_trip(void) {
  mp_store *s = tst_store_open("aliases.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"};
  mp_crypter c = tst_xor_crypter();
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  mp_snapshot *snap = mp_snapshot_new();
  mp_snapshot_append(snap, provider());
  mp_resource *r = custom(URN("dev", "new"), "id-a");
  mp_strv_push(&r->aliases, URN("dev", "old"));
  mp_snapshot_append(snap, r);
  CHECK(mp_store_replace(s, dev, snap, &c, &err) == 0);
  mp_store_close(s);

  s = tst_store_open("aliases.db");
  mp_snapshot *loaded = NULL;
  CHECK(mp_store_load(s, dev, &c, &loaded, &err) == 0);
  CHECK(loaded && loaded->nres == 2);
  if (loaded && loaded->nres == 2) {
    const mp_strv *a = &loaded->res[1]->aliases;
    CHECK(a->len == 1);
    if (a->len == 1)
      CHECK_STR(a->items[0], URN("dev", "old"));
    CHECK(mp_resource_equal(loaded->res[1], r));
    mp_buf out;
    mp_buf_init(&out);
    CHECK(mp_snapshot_export(loaded, &c, "v0.1.0", 0, &out, &err) == 0);
    CHECK_CONTAINS(out.data, "\"aliases\"");
    mp_buf_destroy(&out);
  }
  mp_store_close(s);
  mp_snapshot_free(loaded);
  mp_snapshot_free(snap);
}

/* ==== locks ==== */

static void test_store_lock_between_processes(void) {
  char *path = tst_store_url("lock.db");
  mp_err err;
  {
    mp_store *s = tst_store_open("lock.db");
    mp_stack_ref dev = {P, "dev"};
    CHECK(s && mp_store_stack_create(s, dev, &err) == 0);
    mp_store_close(s);
  }
  int ready[2];
  CHECK(pipe(ready) == 0);
  pid_t child = fork();
  if (child == 0) {
    close(ready[0]);
    mp_store *cs = NULL;
    mp_store_update *cu = NULL;
    mp_stack_ref dev = {P, "dev"};
    if (mp_store_open(path, &cs, &err) != 0 ||
        mp_store_update_begin(cs, dev, "update", NULL, NULL, NULL, &cu, &err) !=
            0)
      _exit(1);
    if (write(ready[1], "x", 1) != 1)
      _exit(1);
    for (;;)
      pause();
  }
  close(ready[1]);
  char byte;
  CHECK(read(ready[0], &byte, 1) == 1);
  close(ready[0]);

  mp_store *s = NULL;
  CHECK(mp_store_open(path, &s, &err) == 0);
  mp_stack_ref dev = {P, "dev"};
  mp_store_update *u = NULL;
  mp_lock_info stale;
  stale.pid = -1;
  CHECK(mp_store_update_begin(s, dev, "destroy", NULL, NULL, &stale, &u,
                              &err) == MP_EBUSY);
  CHECK(u == NULL && stale.pid == 0);
  char want[128];
#ifdef TST_LOCK_FILES
  snprintf(want, sizeof(want), "(pid %d) at ", (int)child);
  CHECK_CONTAINS(err.msg, "the stack is currently locked by 1 lock(s).");
#else
  snprintf(want, sizeof(want),
           "the stack is currently locked by 1 lock(s): 'proj/dev' is "
           "locked by process %d "
           "on ",
           (int)child);
  CHECK_CONTAINS(err.msg, "(operation update); if that process is gone, run "
                          "`minipulumi cancel` to break the lock");
#endif
  CHECK_CONTAINS(err.msg, want);
  mp_lock_info info;
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 1);
  CHECK(info.pid == child && strcmp(info.operation, "update") == 0);
  CHECK(mp_store_stack_remove(s, dev, 1, &err) == MP_EBUSY);
  CHECK(mp_store_stack_rename(s, dev, "other", &err) == MP_EBUSY);

  kill(child, SIGKILL);
  int status;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(mp_store_update_begin(s, dev, "destroy", NULL, NULL, &stale, &u,
                              &err) == 0);
  CHECK(stale.pid == child && strcmp(stale.operation, "update") == 0);
  char *warning = mp_lock_info_stale_message(&stale);
  snprintf(want, sizeof(want), "broke a stale lock left by process %d on ",
           (int)child);
  CHECK_CONTAINS(warning, want);
  CHECK_CONTAINS(warning, "(operation update since ");
  CHECK_CONTAINS(warning, "): " TST_STALE_GONE);
  free(warning);
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 1);
#ifdef TST_LOCK_FILES
  CHECK(info.pid == getpid());
#else
  CHECK(info.pid == getpid() && strcmp(info.operation, "destroy") == 0);
#endif
  /* a second session in this process is refused too */
  mp_store_update *u2 = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u2, &err) ==
        MP_EBUSY);
  /* `cancel` breaks it; the session notices on its next write */
  CHECK(mp_store_lock_break(s, dev, &err) == 0);
  CHECK(mp_store_lock_get(s, dev, &info, &err) == 0);
  mp_resource *st = mp_resource_new(STACK_URN("dev"), "pulumi:pulumi:Stack", 0);
  mp_store_change ins = {.kind = MP_STORE_INSERT_NEW, .res = st};
  CHECK(mp_store_apply(u, &ins, 1, &err) == MP_EBUSY);
  CHECK_CONTAINS(err.msg, "was broken while this update ran");
  CHECK(mp_store_update_end(u, "canceled", NULL, &err) == 0);
  /* close releases the locks of sessions still open */
  CHECK(mp_store_update_begin(s, dev, "update", NULL, NULL, NULL, &u, &err) ==
        0);
  mp_store_close(s);
  s = tst_store_open("lock.db");
  CHECK(s && mp_store_lock_get(s, dev, &info, &err) == 0);
  mp_store_close(s);
  mp_resource_free(st);
  free(path);
}

/* ==== stack tags ==== */

/* "name=value name=value" of the stack's tags, or "(error)". */
static char *tags_of(mp_store *s, mp_stack_ref st) {
  mp_stack_tag *t = NULL;
  size_t n = 0;
  mp_err err;
  if (mp_store_tags_get(s, st, &t, &n, &err) != 0) {
    fprintf(stderr, "tags: %s\n", err.msg);
    return mp_xstrdup("(error)");
  }
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < n; i++)
    mp_buf_printf(&b, "%s%s=%s", i ? " " : "", t[i].name, t[i].value);
  mp_stack_tags_free(t, n);
  return mp_buf_detach(&b, NULL);
}

#define CHECK_TAGS(s, st, want)                                               \
  do {                                                                        \
    char *got_ = tags_of(s, st);                                              \
    CHECK_STR(got_, want);                                                    \
    free(got_);                                                               \
  } while (0)

static void test_store_tags(void) {
  mp_store *s = tst_store_open("tags.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, prod = {P, "prod"}, gone = {P, "gone"};
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_stack_create(s, prod, &err) == 0);
  CHECK_TAGS(s, dev, "");
  /* set replaces the whole set; read back sorted by name */
  mp_stack_tag two[] = {{"owner", "team-a"}, {"env", "dev"}};
  CHECK(mp_store_tags_set(s, dev, two, 2, &err) == 0);
  CHECK_TAGS(s, dev, "env=dev owner=team-a");
  CHECK_TAGS(s, prod, "");
  mp_stack_tag one[] = {{"env", ""}};
  CHECK(mp_store_tags_set(s, dev, one, 1, &err) == 0);
  CHECK_TAGS(s, dev, "env=");
  CHECK(mp_store_tags_set(s, prod, two, 2, &err) == 0);
  /* a missing stack */
  mp_stack_tag *t = NULL;
  size_t n = 0;
  CHECK(mp_store_tags_get(s, gone, &t, &n, &err) == MP_ENOENT && n == 0);
  CHECK(mp_store_tags_set(s, gone, one, 1, &err) == MP_ENOENT);
  /* the tags follow a rename and go with a removed stack */
  CHECK(mp_store_stack_rename(s, prod, "staging", &err) == 0);
  mp_stack_ref staging = {P, "staging"};
  CHECK_TAGS(s, staging, "env=dev owner=team-a");
  CHECK(mp_store_stack_remove(s, staging, 0, &err) == 0);
  CHECK(mp_store_stack_create(s, staging, &err) == 0);
  CHECK_TAGS(s, staging, "");
  CHECK(mp_store_tags_set(s, dev, NULL, 0, &err) == 0);
  CHECK_TAGS(s, dev, "");
  mp_store_close(s);
}

/* ==== extensions ==== */

/* An extension as a deployment records it: its ref is the hash of what it
 * is. */
static mp_extension tst_extension(const char *name, const char *value) {
  mp_extension e = {0};
  e.name = mp_xstrdup(name);
  e.version = mp_xstrdup("2.0.0");
  mp_buf_init(&e.value);
  mp_buf_puts(&e.value, value);
  e.ref = mp_extension_ref(e.name, e.version, e.value.data, e.value.len);
  return e;
}

/* The snapshot's `extensions` (engine/extension.h) in every backend: one
 * recorded during an update (MP_STORE_EXTENSION) comes back with the
 * resource that names it; a stack import keeps it; one no resource names
 * is left out of what is loaded. */
static void test_store_extensions(void) {
  mp_store *s = tst_store_open("ext.db");
  if (!s)
    return;
  mp_err err;
  mp_stack_ref dev = {P, "dev"}, copy = {P, "copy"};
  mp_crypter c = tst_xor_crypter();
  CHECK(mp_store_stack_create(s, dev, &err) == 0);
  CHECK(mp_store_stack_create(s, copy, &err) == 0);
  mp_extension used = tst_extension("myext", "Hello");
  mp_extension unused = tst_extension("otherext", "Bye");
  CHECK_STR(used.ref, /* sha256("myext\0" "2.0.0\0" "Hello") */
            "785fbc7036e05d18efe5cbd0259dcf7b5c186aefaee4db67724f7cd4d8187811");
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, dev, "update", NULL, &c, NULL, &u, &err) == 0);
  if (!u)
    return;
  mp_store_change ch[] = {{.kind = MP_STORE_EXTENSION, .ext = &used},
                          {.kind = MP_STORE_EXTENSION, .ext = &unused},
                          {.kind = MP_STORE_EXTENSION, .ext = &used}};
  CHECK(mp_store_apply(u, ch, 3, &err) == 0);
  mp_resource *pv = provider();
  mp_resource *g = custom(URN("dev", "greeting"), "id-g");
  g->extension_ref = mp_xstrdup(used.ref);
  step_insert(u, pv);
  step_insert(u, g);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);

  mp_snapshot *snap = NULL;
  CHECK(mp_store_load(s, dev, &c, &snap, &err) == 0);
  CHECK(snap && snap->nres == 2 && snap->extensions.len == 1);
  const mp_extension *e = snap ? mp_extensions_find(&snap->extensions, used.ref)
                               : NULL;
  CHECK(e && strcmp(e->name, "myext") == 0 &&
        strcmp(e->version, "2.0.0") == 0 && e->value.len == 5 &&
        memcmp(e->value.data, "Hello", 5) == 0);
  CHECK(snap && snap->nres == 2 && snap->res[1]->extension_ref &&
        strcmp(snap->res[1]->extension_ref, used.ref) == 0);

  /* export and import keep both, under the feature Pulumi names */
  mp_buf out;
  mp_buf_init(&out);
  CHECK(snap && mp_snapshot_export(snap, &c, "v0.1.0", 0, &out, &err) == 0);
  CHECK_CONTAINS(out.data, "\"extensionParameterization\"");
  CHECK_CONTAINS(out.data, "\"extensions\":{");
  CHECK_CONTAINS(out.data, "\"value\":\"SGVsbG8=\"");
  CHECK(strstr(out.data, unused.ref) == NULL);
  mp_snapshot *in = NULL;
  CHECK(mp_snapshot_import(out.data, out.len, &c, &in, &err) == 0);
  CHECK(in && mp_store_replace(s, copy, in, &c, &err) == 0);
  mp_snapshot *again = NULL;
  CHECK(mp_store_load(s, copy, &c, &again, &err) == 0);
  CHECK(again && again->extensions.len == 1 &&
        mp_extensions_find(&again->extensions, used.ref) != NULL);
  CHECK(again && again->nres == 2 && again->res[1]->extension_ref &&
        strcmp(again->res[1]->extension_ref, used.ref) == 0);
  mp_store_close(s);

  mp_snapshot_free(again);
  mp_snapshot_free(in);
  mp_buf_destroy(&out);
  mp_snapshot_free(snap);
  mp_resource_free(pv);
  mp_resource_free(g);
  mp_extension_destroy(&used);
  mp_extension_destroy(&unused);
}

/* Runs case |fn| through |run| (which sets up and tears down the case's
 * stores) and records it as RUN does. */
static void tst_store_case(void (*run)(void (*fn)(void), const char *name),
                           void (*fn)(void), const char *name) {
  int before = mp_test_checks_failed;
  run(fn, name);
  if (mp_test_checks_failed == before) {
    mp_test_passed++;
    printf("ok   %s\n", name);
  } else {
    mp_test_failed++;
    printf("FAIL %s\n", name);
  }
  fflush(stdout);
}

#define TST_STORE_CASE(run, fn) tst_store_case(run, fn, #fn)

static void tst_store_cases(void (*run)(void (*fn)(void), const char *name)) {
  TST_STORE_CASE(run, test_store_stacks_crud);
  TST_STORE_CASE(run, test_store_remove_refuses_with_resources);
  TST_STORE_CASE(run, test_store_refuses_bad_names);
  TST_STORE_CASE(run, test_store_rename_rewrites_urns);
  TST_STORE_CASE(run, test_store_apply_order_two_deployments);
  TST_STORE_CASE(run, test_store_lazy_moves);
  TST_STORE_CASE(run, test_store_verify_writes);
  TST_STORE_CASE(run, test_store_import_c8_round_trip);
  TST_STORE_CASE(run, test_store_replace_all_or_nothing);
  TST_STORE_CASE(run, test_store_aliases_round_trip);
  TST_STORE_CASE(run, test_store_lock_between_processes);
  TST_STORE_CASE(run, test_store_tags);
  TST_STORE_CASE(run, test_store_extensions);
}

#endif
