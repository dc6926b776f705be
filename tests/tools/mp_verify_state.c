/* mp_verify_state: opens a minipulumi state store, loads one stack's
 * snapshot and runs the integrity check (docs/behaviour.md,
 * "The checkpoint") on it. Used by
 * the crash and fuzz tests after every (possibly killed or failed)
 * operation.
 *
 *   mp_verify_state STORE PROJECT STACK [--export FILE] [--quiet]
 *                   [--check-unlocked]
 *
 * Prints one line per pending operation (`pending <type> <urn>`) and per
 * resource (`resource <urn> <flags>`), then `ok: ...` or `integrity: ...`.
 * --export writes the snapshot, pending operations included, as deployment
 * JSON (secrets are left encrypted). --check-unlocked also fails (status 1)
 * when the stack's lock is held, by a live or a dead process. Exit status: 0 valid, 1 integrity
 * violation, 2 the store or the stack could not be opened or loaded, 3
 * usage. The stack's lock is neither taken nor broken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/snapshot.h"
#include "state/store.h"

typedef struct opts {
  const char *store, *project, *stack, *export_path;
  int quiet, check_unlocked;
} opts;

static int parse(int argc, char **argv, opts *o) {
  int pos = 0;
  memset(o, 0, sizeof(*o));
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--export") == 0 && i + 1 < argc)
      o->export_path = argv[++i];
    else if (strcmp(argv[i], "--quiet") == 0)
      o->quiet = 1;
    else if (strcmp(argv[i], "--check-unlocked") == 0)
      o->check_unlocked = 1;
    else if (argv[i][0] == '-')
      return -1;
    else if (pos == 0 && ++pos)
      o->store = argv[i];
    else if (pos == 1 && ++pos)
      o->project = argv[i];
    else if (pos == 2 && ++pos)
      o->stack = argv[i];
    else
      return -1;
  }
  return pos == 3 ? 0 : -1;
}

static void print_resource(const char *prefix, const mp_resource *r) {
  printf("%s %s %s", prefix, r->urn, r->custom ? "custom" : "component");
  if (r->id)
    printf(" id=%s", r->id);
  if (r->delete_)
    printf(" delete");
  if (r->pending_replacement)
    printf(" pendingReplacement");
  if (r->protect)
    printf(" protect");
  if (r->taint)
    printf(" taint");
  if (r->init_errors.len > 0)
    printf(" initErrors=%zu", r->init_errors.len);
  printf("\n");
}

static int write_file(const char *path, const mp_buf *b) {
  FILE *f = fopen(path, "w");
  if (f == NULL)
    return -1;
  size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
  int rc = fclose(f);
  return n == b->len && rc == 0 ? 0 : -1;
}

/* Loads the snapshot; a passphrase manager is opened (lazily: the key is
 * derived only if a secret has to be decrypted) when the stack has one. */
/* The passphrase from the environment, as the CLI reads it. */
static int passphrase_from_env(void *ud, char **out, mp_err *err) {
  (void)ud;
  return mp_passphrase_resolve(getenv(MP_PASSPHRASE_VAR),
                               getenv(MP_PASSPHRASE_FILE_VAR), out, err);
}

static int load(const opts *o, mp_store *st, mp_snapshot **snap,
                mp_passphrase **pp, mp_crypter *cr, mp_err *err) {
  mp_stack_ref ref = {o->project, o->stack};
  char *type = NULL, *state = NULL;
  int rc = mp_store_stack_exists(st, ref, err);
  if (rc == 0)
    return mp_err_set(err, MP_ENOENT, "no stack '%s' of project '%s'",
                      o->stack, o->project);
  if (rc < 0)
    return rc;
  rc = mp_store_secrets_get(st, ref, &type, &state, err);
  if (rc == 0 && type && state && strcmp(type, "passphrase") == 0) {
    const char *salt = state;
    char *found = strstr(state, "\"salt\"");
    char *salt_copy = NULL;
    if (found && (found = strchr(found + 6, '"')) != NULL) {
      char *end = strchr(found + 1, '"');
      if (end)
        salt_copy = strndup(found + 1, (size_t)(end - found - 1));
    }
    if (salt_copy)
      salt = salt_copy;
    mp_passphrase_source src = {passphrase_from_env, NULL};
    rc = mp_passphrase_open_lazy(salt, &src, pp, err);
    free(salt_copy);
    if (rc == 0)
      *cr = mp_passphrase_crypter(*pp);
  }
  free(type);
  free(state);
  if (rc == 0)
    rc = mp_store_load(st, ref, *pp ? cr : NULL, snap, err);
  return rc;
}

/* 1 (and a message) if the stack's lock is held or cannot be read. */
static int locked(const opts *o, mp_store *st) {
  mp_stack_ref ref = {o->project, o->stack};
  mp_lock_info li;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_store_lock_get(st, ref, &li, &err);
  if (rc < 0)
    printf("lock: %s\n", err.msg);
  else if (rc == 1)
    printf("lock: still held by pid %lld (%s, %s)\n", (long long)li.pid,
           li.operation, li.time);
  return rc != 0;
}

static const char *env_lookup(const char *name) { return getenv(name); }

int main(int argc, char **argv) {
  opts o;
  mp_err err;
  mp_store *st = NULL;
  mp_snapshot *snap = NULL;
  mp_passphrase *pp = NULL;
  mp_crypter cr;
  /* bucket stores read their credentials from the environment */
  mp_store_set_env(env_lookup);
  int status = 0;
  if (parse(argc, argv, &o) < 0) {
    fprintf(stderr, "usage: mp_verify_state STORE PROJECT STACK "
                    "[--export FILE] [--quiet] [--check-unlocked]\n");
    return 3;
  }
  mp_err_clear(&err);
  memset(&cr, 0, sizeof(cr));
  if (mp_store_open(o.store, &st, &err) < 0 ||
      load(&o, st, &snap, &pp, &cr, &err) < 0) {
    printf("load: %s\n", err.msg);
    status = 2;
    goto done;
  }
  if (!o.quiet) {
    for (size_t i = 0; i < snap->npending; i++)
      print_resource(mp_pending_type_name(snap->pending[i].type),
                     snap->pending[i].res);
    for (size_t i = 0; i < snap->nres; i++)
      print_resource("resource", snap->res[i]);
  }
  if (o.export_path) {
    mp_buf b;
    mp_buf_init(&b);
    if (mp_snapshot_export(snap, pp ? &cr : NULL, "0.1.0",
                           MP_DEPLOY_JSON_PRETTY, &b, &err) < 0 ||
        write_file(o.export_path, &b) < 0) {
      printf("export: %s\n", err.msg[0] ? err.msg : "cannot write the file");
      status = 2;
    }
    mp_buf_destroy(&b);
    if (status)
      goto done;
  }
  if (mp_snapshot_verify(snap, &err) < 0) {
    printf("integrity: %s\n", err.msg);
    status = 1;
  } else if (o.check_unlocked && locked(&o, st)) {
    status = 1;
  } else {
    printf("ok: %zu resources, %zu pending operations\n", snap->nres,
           snap->npending);
  }
done:
  mp_snapshot_free(snap);
  mp_passphrase_free(pp);
  mp_store_close(st);
  return status;
}
