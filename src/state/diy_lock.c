/* Stack locks of the DIY store, as Pulumi's pkg/backend/diy/lock.go keeps
 * them: a file .pulumi/locks/organization/<project>/<stack>/<uuid>.json
 * (legacy layout: .pulumi/locks/<stack>/) holding {"pid", "username",
 * "hostname", "timestamp"}, one per holder. To lock, a process looks for
 * other lock files, writes its own, and looks again; any other file means
 * the stack is busy, whoever wrote it (the Pulumi CLI or minipulumi).
 * Beyond Pulumi: a lock file of a process of this host that no longer
 * exists is stale, and removed with a warning (a killed run must not
 * block the next one; docs/state-backends.md). */
#include "state/diy_int.h"
#include "engine/prog_name.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct lock_file {
  char *path; /* relative to the folder, for messages */
  int64_t pid;
  char user[128], host[256], time[40]; /* time: RFC 3339 */
} lock_file;

static char *own_path(const mp_diy *s, mp_stack_ref st) {
  char *dir = mp__diy_lock_dir(s, st);
  char *p = mp_xasprintf("%s/%s.json", dir, s->lock_id);
  free(dir);
  return p;
}

/* Go's time.Time as JSON (RFC 3339 with nanoseconds), in UTC. */
static void now_rfc3339_nano(char out[48]) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  struct tm tm;
  gmtime_r(&ts.tv_sec, &tm);
  char frac[16];
  snprintf(frac, sizeof(frac), ".%09ld", ts.tv_nsec);
  size_t n = strlen(frac);
  while (n > 1 && frac[n - 1] == '0')
    frac[--n] = '\0';
  if (n == 1)
    frac[0] = '\0';
  char base[32];
  strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out, 48, "%s%sZ", base, frac);
}

/* |t| (RFC 3339, maybe with a fraction) without its fraction, as Pulumi's
 * message formats it. */
static void without_fraction(const char *t, char *out, size_t n) {
  const char *dot = strchr(t, '.');
  if (dot == NULL) {
    snprintf(out, n, "%s", t);
    return;
  }
  const char *zone = dot + 1 + strspn(dot + 1, "0123456789");
  snprintf(out, n, "%.*s%s", (int)(dot - t), t, zone);
}

static int read_lock(mp_diy *s, const char *dir, const char *name,
                     lock_file *out) {
  memset(out, 0, sizeof(*out));
  char *path = mp_xasprintf("%s/%s", dir, name);
  out->path = mp_xstrdup(path + strlen(s->root) + 1);
  char *text = NULL;
  size_t len;
  mp_err ignored;
  int rc = mp__diy_read(s, path, &text, &len, &ignored);
  free(path);
  if (rc < 0)
    return rc;
  cJSON *j = cJSON_ParseWithLength(text, len);
  free(text);
  const cJSON *pid = cJSON_GetObjectItemCaseSensitive(j, "pid");
  const cJSON *user = cJSON_GetObjectItemCaseSensitive(j, "username");
  const cJSON *host = cJSON_GetObjectItemCaseSensitive(j, "hostname");
  const cJSON *time = cJSON_GetObjectItemCaseSensitive(j, "timestamp");
  if (mp__diy_json_int64(pid, &out->pid) < 0)
    out->pid = 0; /* not a pid */
  snprintf(out->user, sizeof(out->user), "%s",
           cJSON_IsString(user) ? user->valuestring : "");
  snprintf(out->host, sizeof(out->host), "%s",
           cJSON_IsString(host) ? host->valuestring : "");
  without_fraction(cJSON_IsString(time) ? time->valuestring : "", out->time,
                   sizeof(out->time));
  cJSON_Delete(j);
  return 0;
}

static int alive(int64_t pid) {
  return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static void to_info(const lock_file *l, mp_lock_info *info) {
  memset(info, 0, sizeof(*info));
  info->pid = l->pid;
  snprintf(info->host, sizeof(info->host), "%s", l->host);
  snprintf(info->time, sizeof(info->time), "%s", l->time);
  /* Pulumi's lock file does not say; Pulumi calls every holder an update */
  snprintf(info->operation, sizeof(info->operation), "update");
}

/* The other lock files of |st| (not this store's own), after removing the
 * stale ones when |stale| is not NULL (the first one removed goes there).
 * Appends to *out / *n. */
static int others(mp_diy *s, mp_stack_ref st, int with_own,
                  mp_lock_info *stale, lock_file **out, size_t *n,
                  mp_err *err) {
  char *dir = mp__diy_lock_dir(s, st);
  char *own = mp_xasprintf("%s.json", s->lock_id);
  mp_strv names;
  mp_strv_init(&names);
  int rc = mp__diy_list(s, dir, &names, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    const char *name = names.items[i];
    size_t len = strlen(name);
    if ((!with_own && strcmp(name, own) == 0) || len < 5 ||
        strcmp(name + len - 5, ".json"))
      continue;
    lock_file l;
    if (read_lock(s, dir, name, &l) < 0) { /* removed meanwhile */
      free(l.path);
      continue;
    }
    if (stale && strcmp(l.host, s->host) == 0 && l.pid != s->pid &&
        !alive(l.pid)) {
      char *path = mp_xasprintf("%s/%s", dir, name);
      mp_err ignored;
      (void)mp__diy_unlink(s, path, &ignored);
      free(path);
      if (stale->pid == 0) {
        to_info(&l, stale);
        snprintf(stale->gone, sizeof(stale->gone),
                 "its process no longer exists");
      }
      free(l.path);
      continue;
    }
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    (*out)[(*n)++] = l;
  }
  mp_strv_destroy(&names);
  free(own);
  free(dir);
  return rc;
}

static void free_locks(lock_file *l, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(l[i].path);
  free(l);
}

/* Pulumi's message for a locked stack (lock.go checkForLock). */
static int busy(const mp_diy *s, const lock_file *l, size_t n, mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_printf(&b,
                "the stack is currently locked by %zu lock(s). Either wait "
                "for the other process(es) to end or delete the lock file "
                "with `%s cancel`.",
                n, mp_prog_name());
  /* a bucket's URL may have parameters: its root has none */
  const char *loc =
      s->objs == mp__diy_objs_dir() ? s->base.location : s->root;
  size_t ll = strlen(loc);
  while (ll > 7 && loc[ll - 1] == '/')
    ll--;
  for (size_t i = 0; i < n; i++)
    mp_buf_printf(&b, "\n  %.*s/%s: created by %s@%s (pid %lld) at %s",
                  (int)ll, loc, l[i].path, l[i].user, l[i].host,
                  (long long)l[i].pid, l[i].time);
  char *msg = mp_buf_detach(&b, NULL);
  mp_err_set(err, MP_EBUSY, "%s", msg);
  free(msg);
  return MP_EBUSY;
}

int mp__diy_lock_take(mp_diy *s, mp_stack_ref st, const char *kind,
                      mp_lock_info *stale, mp_err *err) {
  (void)kind; /* Pulumi's lock file has no field for it */
  lock_file *l = NULL;
  size_t n = 0;
  /* our own: a session of this store */
  if (others(s, st, 1, stale, &l, &n, err) < 0) {
    free_locks(l, n);
    return err->code;
  }
  if (n > 0) {
    busy(s, l, n, err);
    free_locks(l, n);
    return MP_EBUSY;
  }
  char stamp[48];
  now_rfc3339_nano(stamp);
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "pid", (double)s->pid);
  cJSON_AddStringToObject(j, "username", s->user);
  cJSON_AddStringToObject(j, "hostname", s->host);
  cJSON_AddStringToObject(j, "timestamp", stamp);
  char *text = cJSON_PrintUnformatted(j);
  cJSON_Delete(j);
  char *path = own_path(s, st);
  int rc = mp__diy_mkdirs_for(s, path, err);
  if (rc == 0)
    rc = mp__diy_write(s, path, text, strlen(text), 0, 0, err);
  cJSON_free(text);
  if (rc == 0) {
    /* a racer may have written at once */
    rc = others(s, st, 0, NULL, &l, &n, err);
    if (rc < 0 || n > 0) {
      mp_err ignored;
      (void)mp__diy_unlink(s, path, &ignored);
    }
    if (rc == 0 && n > 0) {
      rc = busy(s, l, n, err);
      free_locks(l, n);
    }
  }
  free(path);
  return rc;
}

int mp__diy_lock_check_free(mp_diy *s, mp_stack_ref st, mp_err *err) {
  lock_file *l = NULL;
  size_t n = 0;
  mp_lock_info stale = {0}; /* a dead holder's lock does not count */
  int rc = others(s, st, 0, &stale, &l, &n, err);
  if (rc == 0 && n > 0)
    rc = busy(s, l, n, err);
  free_locks(l, n);
  return rc;
}

int mp__diy_lock_held(mp_diy *s, mp_stack_ref st, const char *label,
                      mp_err *err) {
  char *path = own_path(s, st);
  int held = mp__diy_exists(s, path);
  free(path);
  return held ? 0 : mp__store_lock_lost(label, err);
}

void mp__diy_lock_release(mp_diy *s, mp_stack_ref st) {
  char *path = own_path(s, st);
  mp_err ignored;
  (void)mp__diy_unlink(s, path, &ignored);
  free(path);
}

int mp__diy_lock_get(mp_store *base, mp_stack_ref st, mp_lock_info *info,
                     mp_err *err) {
  (void)err;
  mp_diy *s = mp__diy(base);
  char *dir = mp__diy_lock_dir(s, st);
  mp_strv names;
  mp_strv_init(&names);
  mp_err ignored;
  (void)mp__diy_list(s, dir, &names, &ignored);
  int found = 0;
  for (size_t i = 0; i < names.len && !found; i++) {
    lock_file l;
    if (read_lock(s, dir, names.items[i], &l) == 0) {
      to_info(&l, info);
      found = 1;
    }
    free(l.path);
  }
  mp_strv_destroy(&names);
  free(dir);
  return found;
}

int mp__diy_lock_break(mp_store *base, mp_stack_ref st, mp_err *err) {
  mp_diy *s = mp__diy(base);
  char *dir = mp__diy_lock_dir(s, st);
  mp_strv names;
  mp_strv_init(&names);
  int rc = mp__diy_list(s, dir, &names, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    char *path = mp_xasprintf("%s/%s", dir, names.items[i]);
    rc = mp__diy_unlink(s, path, err);
    if (rc < 0)
      mp_err_prefix(err, "cannot remove the lock file '%s'", path);
    free(path);
  }
  mp_strv_destroy(&names);
  free(dir);
  return rc;
}
