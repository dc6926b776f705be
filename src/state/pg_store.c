/* Opening and closing the PostgreSQL state store: connecting through libpq
 * (the URL as libpq reads it, the password from the URL, PGPASSWORD or
 * ~/.pgpass), checking the server, and bringing the schema up to date.
 * The URL with its password is kept only to connect; every message shows
 * the URL without it (mp_store_url_redact). */
#include "state/pg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Identity columns and ON CONFLICT need PostgreSQL 10. */
#define MIN_SERVER_VERSION 100000
/* Pulumi Cloud's update lease (docs/state-backends.md, "PostgreSQL"). */
#define DEFAULT_LEASE_MS (5 * 60 * 1000)

static void pg_close(mp_store *base) {
  mp_pg *s = mp__pg(base);
  while (s->updates) {
    mp_err ignored;
    mp__pg_update_end(&s->updates->base, "failed", NULL, &ignored);
  }
  PQfinish(s->conn);
  free(s->base.location);
  free(s->url);
  free(s);
}

/* A database the role may not write fails its first write with the
 * server's message; nothing is refused up front. */
static int writable(const mp_store *s, mp_err *err) {
  (void)s;
  (void)err;
  return 0;
}

static const mp_store_ops pg_ops = {
    .name = "postgres",
    .close = pg_close,
    .stack_create = mp__pg_stack_create,
    .stack_exists = mp__pg_stack_exists,
    .stack_list = mp__pg_stack_list,
    .stack_remove = mp__pg_stack_remove,
    .stack_rename = mp__pg_stack_rename,
    .selected_get = mp__pg_selected_get,
    .selected_set = mp__pg_selected_set,
    .secrets_get = mp__pg_secrets_get,
    .secrets_set = mp__pg_secrets_set,
    .load = mp__pg_load,
    .replace = mp__pg_replace,
    .update_begin = mp__pg_update_begin,
    .apply = mp__pg_apply,
    .drop_old_pending = mp__pg_drop_old_pending,
    .update_end = mp__pg_update_end,
    .lock_get = mp__pg_lock_get,
    .lock_break = mp__pg_lock_break,
    .history = mp__pg_history,
    .update_events = mp__pg_update_events,
    .events = mp__pg_events,
    .writable = writable,
    .tags_get = mp__pg_tags_get,
    .tags_set = mp__pg_tags_set,
};

static int check_server(mp_pg *s, mp_err *err) {
  int v = PQserverVersion(s->conn);
  if (v < MIN_SERVER_VERSION)
    return mp_err_set(err, MP_EIO,
                      "the state store '%s' runs PostgreSQL %d.%d; "
                      "minipulumi needs PostgreSQL 10 or later",
                      s->base.location, v / 10000, v % 10000);
  return 0;
}

int mp__pg_open(const char *url, const mp_store_opts *o, mp_store **out,
                mp_err *err) {
  *out = NULL;
  mp_pg *s = mp_xcalloc(1, sizeof(*s));
  s->base.ops = &pg_ops;
  s->base.location = mp_store_url_redact(url);
  s->base.verify_writes = o->verify_writes;
  s->url = mp_xstrdup(url);
  s->lease_ms = o->lease_ms > 0 ? o->lease_ms : DEFAULT_LEASE_MS;
  s->pid = (int64_t)getpid();
  if (gethostname(s->host, sizeof(s->host) - 1) != 0)
    snprintf(s->host, sizeof(s->host), "localhost");
  s->conn = mp__pg_connect(url, s->base.location, "minipulumi", err);
  int rc = s->conn ? 0 : err->code;
  if (rc == 0)
    rc = check_server(s, err);
  if (rc == 0)
    rc = mp__pg_schema_ensure(s, err);
  if (rc < 0) {
    pg_close(&s->base);
    return rc;
  }
  *out = &s->base;
  return 0;
}
