/* An update's engine events in a file:// folder: beside the update's
 * history, .pulumi/history/<project>/<stack>/<stack>-<ns>.events.jsonl
 * (<ns> the first event's time). Pulumi's diy getHistory reads only the
 * names ending in .history.json[.gz|.zst], so `pulumi stack history`
 * skips this file; its renameHistory and removeStack move and remove
 * every <stack>-* file of the folder, this one with them.
 *
 * The first line is {"version": N} (the update's number: the history
 * files before it, plus one), then a line per event,
 * {"seq", "timeMs", "event"}, a batch of them appended with one
 * write(2): a killed process loses none written; a torn last line (a
 * power loss, a write cut short) is skipped by the reader. A bucket (s3://,
 * azblob://) cannot append: it keeps no events. */
#include "state/diy_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char suffix[] = ".events.jsonl";

static int is_folder(const mp_diy *s) { return s->root[0] == '/'; }

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && strcmp(s + n - m, tail) == 0;
}

static int is_history(const char *name) {
  return ends_with(name, ".history.json") ||
         ends_with(name, ".history.json.gz");
}

/* The history files in |names|: the updates finished before this one. */
static int64_t finished(const mp_strv *names) {
  int64_t n = 0;
  for (size_t i = 0; i < names->len; i++) n += is_history(names->items[i]);
  return n;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return errno ? errno : EIO;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int open_file(mp_diy_update *u, mp_err *err) {
  mp_diy *s = u->s;
  mp_stack_ref st = {u->m->project, u->m->name};
  char *dir = mp__diy_stack_dir(s, "history", st);
  mp_strv names;
  mp_strv_init(&names);
  int rc = mp__diy_mkdirs(s, dir, err);
  if (rc == 0) rc = mp__diy_list(s, dir, &names, err);
  char *path = mp_xasprintf("%s/%s-%lld%s", dir, st.name,
                            (long long)mp__diy_now_ns(), suffix);
  if (rc == 0) {
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
      rc = mp_err_set(err, MP_EIO, "cannot create the events file '%s': %s",
                      path, strerror(errno));
    } else {
      u->events_fd1 = fd + 1;
      char head[64];
      int len = snprintf(head, sizeof(head), "{\"version\":%lld}\n",
                         (long long)(finished(&names) + 1));
      int why = write_all(fd, head, (size_t)len);
      if (why)
        rc = mp_err_set(err, MP_EIO, "cannot write the events file '%s': %s",
                        path, strerror(why));
    }
  }
  free(path);
  mp_strv_destroy(&names);
  free(dir);
  return rc;
}

int mp__diy_update_events(mp_store_update *base, const mp_update_event *ev,
                          size_t n, mp_err *err) {
  mp_diy_update *u = (mp_diy_update *)base;
  if (!is_folder(u->s)) return 0;
  if (u->events_fd1 == 0 && open_file(u, err) < 0) return err->code;
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < n; i++)
    mp_buf_printf(&b, "{\"seq\":%lld,\"timeMs\":%lld,\"event\":%s}\n",
                  (long long)ev[i].seq, (long long)ev[i].time_ms, ev[i].json);
  int why = write_all(u->events_fd1 - 1, b.data, b.len);
  mp_buf_destroy(&b);
  if (why)
    return mp_err_set(err, MP_EIO, "cannot write the events of %s: %s",
                      u->label, strerror(why));
  return 0;
}

void mp__diy_events_close(mp_diy_update *u) {
  if (u->events_fd1 > 0) close(u->events_fd1 - 1);
  u->events_fd1 = 0;
}

/* The version a file's first line names, or -1. */
static int64_t version_of(const char *text) {
  long long v;
  if (sscanf(text, "{\"version\":%lld}", &v) != 1) return -1;
  return v;
}

/* Appends the events of |text| after its first line; a line that is not
 * a whole event (the torn end of a file) is skipped. */
static void parse_events(const char *text, mp_update_event **out, size_t *n) {
  const char *p = strchr(text, '\n');
  while (p != NULL && *++p) {
    const char *end = strchr(p, '\n');
    if (end == NULL) break; /* torn */
    char *line = mp_xstrndup(p, (size_t)(end - p));
    cJSON *j = cJSON_Parse(line);
    free(line);
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(j, "seq");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(j, "timeMs");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "event");
    if (cJSON_IsNumber(seq) && cJSON_IsNumber(ms) && cJSON_IsObject(ev)) {
      *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
      mp_update_event *e = &(*out)[(*n)++];
      e->seq = (int64_t)seq->valuedouble;
      e->time_ms = (int64_t)ms->valuedouble;
      char *t = cJSON_PrintUnformatted(ev);
      e->json = mp_xstrdup(t);
      cJSON_free(t);
    }
    cJSON_Delete(j);
    p = end;
  }
}

int mp__diy_events(mp_store *base, mp_stack_ref st, int64_t version,
                   mp_update_event **out, size_t *n, mp_err *err) {
  mp_diy *s = mp__diy(base);
  if (!is_folder(s)) return 0;
  char *dir = mp__diy_stack_dir(s, "history", st);
  mp_strv names;
  mp_strv_init(&names);
  int rc = mp__diy_list(s, dir, &names, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    if (!ends_with(names.items[i], suffix)) continue;
    char *path = mp_xasprintf("%s/%s", dir, names.items[i]);
    char *text = NULL;
    size_t len = 0;
    mp_err ignored;
    mp_err_clear(&ignored);
    /* a file that went away (the stack renamed) is no event of ours */
    if (mp__diy_read(s, path, &text, &len, &ignored) == 0 &&
        version_of(text) == version) {
      parse_events(text, out, n);
      i = names.len;
    }
    free(text);
    free(path);
  }
  mp_strv_destroy(&names);
  free(dir);
  return rc;
}
