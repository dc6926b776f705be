/* The store interface's entry points: mp_store_open picks the backend by
 * the URL's scheme, and every other mp_store_* function dispatches through
 * the backend's table of operations (store.h). */
#include "state/store_int.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/names.h"

/* 1 if |url| starts with |scheme| followed by "://" (case-insensitive, as
 * URL schemes are). */
static int has_scheme(const char *url, const char *scheme) {
  size_t n = strlen(scheme);
  return strncasecmp(url, scheme, n) == 0 && strncmp(url + n, "://", 3) == 0;
}

int mp_store_open_with(const char *url, const mp_store_opts *o, mp_store **out,
                       mp_err *err) {
  static const mp_store_opts defaults;
  *out = NULL;
  if (url == NULL || *url == '\0')
    return mp_err_set(err, MP_EINVAL, "no state store URL given");
  if (o == NULL)
    o = &defaults;
  if (has_scheme(url, "postgres") || has_scheme(url, "postgresql"))
    return mp__pg_open(url, o, out, err);
  if (has_scheme(url, "file") || has_scheme(url, "s3") ||
      has_scheme(url, "azblob"))
    return mp__diy_open(url, o, out, err);
  return mp__sqlite_open(url, o, out, err);
}

static const char *(*env_lookup)(const char *name);

void mp_store_set_env(const char *(*lookup)(const char *name)) {
  env_lookup = lookup;
}

const char *mp__store_env(const char *name) {
  return env_lookup ? env_lookup(name) : NULL;
}

/* Set once by the CLI before any store opens, like env_lookup: the bucket
 * requests' progress callbacks read it (bucket_http.c). */
static const volatile sig_atomic_t *cancel_flag;

void mp_store_set_cancel(const volatile sig_atomic_t *flag) {
  cancel_flag = flag;
}

int mp__store_cancelled(void) { return cancel_flag && *cancel_flag; }

int mp_store_open(const char *url, mp_store **out, mp_err *err) {
  return mp_store_open_with(url, NULL, out, err);
}

void mp_store_close(mp_store *s) {
  if (s != NULL)
    s->ops->close(s);
}

const char *mp_store_location(const mp_store *s) { return s->location; }

/* ==== names ==== */

/* Every name that reaches a backend is checked here, whoever passes it:
 * a file:// store makes folders of them, and `..` or a `/` would reach
 * outside the stack's own. */
static int check_project(const char *project, mp_err *err) {
  if (mp_project_name_check(project, err) != 0)
    return mp_err_prefix(err, "invalid project name '%s'",
                         project ? project : "");
  return 0;
}

static int check_stack(const char *name, mp_err *err) {
  if (mp_stack_name_check(name, err) != 0)
    return mp_err_prefix(err, "invalid stack name '%s'", name ? name : "");
  return 0;
}

static int check_ref(mp_stack_ref st, mp_err *err) {
  int rc = check_project(st.project, err);
  return rc ? rc : check_stack(st.name, err);
}

/* ==== dispatch ==== */

int mp_store_stack_create(mp_store *s, mp_stack_ref st, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->stack_create(s, st, err);
}

int mp_store_stack_exists(mp_store *s, mp_stack_ref st, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->stack_exists(s, st, err);
}

int mp_store_stack_list(mp_store *s, const char *project, mp_stack_info **out,
                        size_t *n, mp_err *err) {
  if (project) {
    int rc = check_project(project, err);
    if (rc)
      return rc;
  }
  return s->ops->stack_list(s, project, out, n, err);
}

int mp_store_stack_remove(mp_store *s, mp_stack_ref st, int force,
                          mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->stack_remove(s, st, force, err);
}

int mp_store_stack_rename(mp_store *s, mp_stack_ref st, const char *new_name,
                          mp_err *err) {
  int rc = check_ref(st, err);
  if (rc == 0)
    rc = check_stack(new_name, err);
  if (rc)
    return rc;
  return s->ops->stack_rename(s, st, new_name, err);
}

int mp_store_selected_get(mp_store *s, const char *project, char **out,
                          mp_err *err) {
  int rc = check_project(project, err);
  if (rc)
    return rc;
  return s->ops->selected_get(s, project, out, err);
}

int mp_store_selected_set(mp_store *s, const char *project, const char *name,
                          mp_err *err) {
  int rc = check_project(project, err);
  if (rc == 0 && name)
    rc = check_stack(name, err);
  if (rc)
    return rc;
  return s->ops->selected_set(s, project, name, err);
}

int mp_store_secrets_get(mp_store *s, mp_stack_ref st, char **type,
                         char **state, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->secrets_get(s, st, type, state, err);
}

int mp_store_secrets_set(mp_store *s, mp_stack_ref st, const char *type,
                         const char *state, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->secrets_set(s, st, type, state, err);
}

int mp_store_load(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                  mp_snapshot **out, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->load(s, st, c, out, err);
}

int64_t mp_store_change_mark(mp_store *s) {
  return s->ops->change_mark ? s->ops->change_mark(s) : -1;
}

int mp_store_replace(mp_store *s, mp_stack_ref st, mp_snapshot *snap,
                     const mp_crypter *c, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->replace(s, st, snap, c, err);
}

int mp_store_update_begin(mp_store *s, mp_stack_ref st, const char *kind,
                          const char *message, const mp_crypter *c,
                          mp_lock_info *stale, mp_store_update **out,
                          mp_err *err) {
  if (stale)
    memset(stale, 0, sizeof(*stale));
  *out = NULL;
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->update_begin(s, st, kind, message, c, stale, out, err);
}

int mp_store_apply(mp_store_update *u, const mp_store_change *changes, size_t n,
                   mp_err *err) {
  return u->s->ops->apply(u, changes, n, err);
}

int mp_store_apply_begin(mp_store_update *u, const mp_store_change *changes,
                         size_t n, int64_t *ticket, mp_err *err) {
  *ticket = 0;
  if (u->s->ops->apply_begin == NULL)
    return u->s->ops->apply(u, changes, n, err);
  return u->s->ops->apply_begin(u, changes, n, ticket, err);
}

int mp_store_wait(mp_store_update *u, int64_t ticket, mp_err *err) {
  if (ticket <= 0 || u->s->ops->wait == NULL)
    return 0;
  return u->s->ops->wait(u, ticket, err);
}

int mp_store_drop_old_pending(mp_store_update *u, mp_err *err) {
  return u->s->ops->drop_old_pending(u, err);
}

void mp_store_update_info(mp_store_update *u, const char *environment,
                          const char *config) {
  free(u->environment);
  free(u->config);
  u->environment = environment ? mp_xstrdup(environment) : NULL;
  u->config = config ? mp_xstrdup(config) : NULL;
}

int mp_store_update_end(mp_store_update *u, const char *result,
                        const mp_update_counts *counts, mp_err *err) {
  /* the backend frees |u|; the info it wrote is ours to free */
  char *environment = u->environment, *config = u->config;
  int rc = u->s->ops->update_end(u, result, counts, err);
  free(environment);
  free(config);
  return rc;
}

int mp_store_lock_get(mp_store *s, mp_stack_ref st, mp_lock_info *info,
                      mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->lock_get(s, st, info, err);
}

int mp_store_lock_break(mp_store *s, mp_stack_ref st, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->lock_break(s, st, err);
}

int mp_store_history(mp_store *s, mp_stack_ref st, mp_history_entry **out,
                     size_t *n, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->history(s, st, out, n, err);
}

int mp_store_writable(const mp_store *s, mp_err *err) {
  return s->ops->writable(s, err);
}

int mp_store_tags_get(mp_store *s, mp_stack_ref st, mp_stack_tag **out,
                      size_t *n, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->tags_get(s, st, out, n, err);
}

int mp_store_tags_set(mp_store *s, mp_stack_ref st, const mp_stack_tag *tags,
                      size_t n, mp_err *err) {
  int rc = check_ref(st, err);
  if (rc)
    return rc;
  return s->ops->tags_set(s, st, tags, n, err);
}

/* ==== values the interface hands out ==== */

void mp_stack_info_destroy(mp_stack_info *i) {
  if (i == NULL)
    return;
  free(i->project);
  free(i->name);
  free(i->last_update);
  memset(i, 0, sizeof(*i));
}

void mp_history_entry_destroy(mp_history_entry *h) {
  if (h == NULL)
    return;
  free(h->message);
  free(h->environment);
  free(h->config);
  memset(h, 0, sizeof(*h));
}

void mp_stack_tags_free(mp_stack_tag *tags, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(tags[i].name);
    free(tags[i].value);
  }
  free(tags);
}

char *mp_lock_info_stale_message(const mp_lock_info *stale) {
  return mp_xasprintf("broke a stale lock left by process %lld on %s "
                      "(operation %s since %s): %s",
                      (long long)stale->pid, stale->host, stale->operation,
                      stale->time, stale->gone);
}

/* ==== URLs ==== */

/* Removes every `password=...` parameter from the query |q| (after '?'). */
static void redact_query(mp_buf *b, const char *q) {
  int first = 1;
  while (*q) {
    size_t n = strcspn(q, "&");
    if (!(n >= 9 && strncasecmp(q, "password=", 9) == 0)) {
      mp_buf_puts(b, first ? "?" : "&");
      mp_buf_append(b, q, n);
      first = 0;
    }
    q += n;
    if (*q == '&')
      q++;
  }
}

char *mp_store_url_redact(const char *url) {
  const char *sep = strstr(url, "://");
  if (sep == NULL)
    return mp_xstrdup(url);
  const char *auth = sep + 3;
  size_t auth_len = strcspn(auth, "/?#");
  const char *at = NULL;
  for (const char *p = auth; p < auth + auth_len; p++)
    if (*p == '@')
      at = p; /* the last '@' ends the userinfo */
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_append(&b, url, (size_t)(auth - url));
  if (at != NULL) {
    const char *colon = memchr(auth, ':', (size_t)(at - auth));
    mp_buf_append(&b, auth, (size_t)((colon ? colon : at) - auth));
    mp_buf_append(&b, at, (size_t)(auth + auth_len - at));
  } else {
    mp_buf_append(&b, auth, auth_len);
  }
  const char *rest = auth + auth_len;
  const char *q = strchr(rest, '?');
  if (q == NULL) {
    mp_buf_puts(&b, rest);
  } else {
    mp_buf_append(&b, rest, (size_t)(q - rest));
    redact_query(&b, q + 1);
  }
  return mp_buf_detach(&b, NULL);
}
