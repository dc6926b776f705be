/* Update history of the DIY store, as Pulumi's state.go addToHistory and
 * getHistory keep it: after each update,
 * .pulumi/history/<project>/<stack>/<stack>-<ns>.history.json holds the
 * update (backend.UpdateInfo: kind, startTime, message, environment,
 * config, result, endTime, resourceChanges) and
 * <stack>-<ns>.checkpoint.json the checkpoint it left; .gz with
 * PULUMI_DIY_BACKEND_GZIP. Entries are numbered 1, 2, ... oldest first. */
#include "state/diy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* resourceChanges' keys: Pulumi's display.StepOp names. */
static const char *const op_names[9] = {"same",    "create", "update",
                                        "delete",  "replace", "read",
                                        "import",  "refresh", "discard"};

static void put_changes(cJSON *j, const mp_update_counts *counts) {
  int64_t n[9];
  mp__store_counts_to_array(counts, n);
  cJSON *rc = cJSON_AddObjectToObject(j, "resourceChanges");
  for (size_t i = 0; i < 9; i++)
    if (n[i])
      cJSON_AddNumberToObject(rc, op_names[i], (double)n[i]);
}

/* Adds |key|: the JSON object of |text|, or {} (NULL, or not an object). */
static void put_object(cJSON *j, const char *key, const char *text) {
  cJSON *o = text ? cJSON_Parse(text) : NULL;
  if (!cJSON_IsObject(o)) {
    cJSON_Delete(o);
    o = cJSON_CreateObject();
  }
  cJSON_AddItemToObject(j, key, o);
}

/* The text of object |key| of |j|, or NULL when it is empty or missing. */
static char *object_text(const cJSON *j, const char *key) {
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, key);
  if (!cJSON_IsObject(o) || o->child == NULL)
    return NULL;
  char *t = cJSON_PrintUnformatted(o);
  char *out = mp_xstrdup(t);
  cJSON_free(t);
  return out;
}

static int write_json(mp_diy *s, const char *path, const cJSON *j, int gz, mp_err *err) {
  char *text = cJSON_PrintUnformatted(j);
  int rc = mp__diy_write(s, path, text, strlen(text), gz, 0, err);
  cJSON_free(text);
  return rc;
}

int mp__diy_history_add(mp_diy *s, mp_diy_update *u, const char *result,
                        const mp_update_counts *counts, mp_err *err) {
  mp_stack_ref st = {u->m->project, u->m->name};
  int gz = s->gzip;
  const char *ext = gz ? "json.gz" : "json";
  char *dir = mp__diy_stack_dir(s, "history", st);
  char *prefix = mp_xasprintf("%s/%s-%lld", dir, st.name,
                              (long long)mp__diy_now_ns());
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "kind", u->kind);
  cJSON_AddNumberToObject(j, "startTime", (double)u->start);
  cJSON_AddStringToObject(j, "message", u->message);
  put_object(j, "environment", u->base.environment);
  put_object(j, "config", u->base.config);
  cJSON_AddStringToObject(j, "result", result);
  cJSON_AddNumberToObject(j, "endTime", (double)time(NULL));
  put_changes(j, counts);
  char *hist = mp_xasprintf("%s.history.%s", prefix, ext);
  char *chk = mp_xasprintf("%s.checkpoint.%s", prefix, ext);
  int rc = mp__diy_mkdirs(s, dir, err);
  if (rc == 0)
    rc = write_json(s, hist, j, gz, err);
  if (rc == 0) {
    mp_buf b;
    mp_buf_init(&b);
    char *qualified = mp__diy_qualified(s, st);
    mp__diy_model_sort(u->m);
    mp__diy_model_print(u->m, qualified, &b);
    rc = mp__diy_write(s, chk, b.data, b.len, gz, 0, err);
    free(qualified);
    mp_buf_destroy(&b);
  }
  cJSON_Delete(j);
  free(chk);
  free(hist);
  free(prefix);
  free(dir);
  return rc;
}

/* ==== reading ==== */

/* The <ns> of a history file name `<stack>-<ns>.history.json[.gz]`, or -1
 * for any other file. */
static long long stamp_of(const char *name) {
  const char *dot = strstr(name, ".history.json");
  if (dot == NULL || (strcmp(dot, ".history.json") != 0 &&
                      strcmp(dot, ".history.json.gz") != 0))
    return -1;
  const char *dash = NULL;
  for (const char *p = name; p < dot; p++)
    if (*p == '-')
      dash = p;
  return dash ? strtoll(dash + 1, NULL, 10) : -1;
}

typedef struct hist_file {
  long long stamp;
  char *name;
} hist_file;

static int by_stamp(const void *a, const void *b) {
  const hist_file *x = a, *y = b;
  return (x->stamp > y->stamp) - (x->stamp < y->stamp);
}

/* The history files of |dir|, oldest first. */
static hist_file *list_history(mp_diy *s, const char *dir, size_t *n) {
  mp_strv names;
  mp_strv_init(&names);
  mp_err ignored;
  (void)mp__diy_list(s, dir, &names, &ignored);
  hist_file *out = mp_xcalloc(names.len + 1, sizeof(*out));
  *n = 0;
  for (size_t i = 0; i < names.len; i++) {
    long long t = stamp_of(names.items[i]);
    if (t >= 0)
      out[(*n)++] = (hist_file){t, mp_xstrdup(names.items[i])};
  }
  mp_strv_destroy(&names);
  qsort(out, *n, sizeof(*out), by_stamp);
  return out;
}

static void free_history(hist_file *h, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(h[i].name);
  free(h);
}

/* |secs| as RFC 3339 UTC; -1 for a time gmtime cannot break down or
 * whose year has more than four digits. */
static int rfc3339(int64_t secs, char *out, size_t n) {
  time_t t = (time_t)secs;
  struct tm tm;
  if ((int64_t)t != secs || gmtime_r(&t, &tm) == NULL || tm.tm_year < -1900 ||
      tm.tm_year > 9999 - 1900)
    return -1;
  /* four digits always, as Go's RFC 3339 writes a year: strftime's %Y
   * gives "537" for the year 537 */
  snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
           tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  return 0;
}

static const char *str_of(const cJSON *j, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

/* |key| of |j| into *out (0 when missing or not a number); MP_ESTATE
 * naming |path| for a number no int64 holds. */
static int int_field(const cJSON *j, const char *key, const char *path,
                     int64_t *out, mp_err *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
  if (mp__diy_json_int64(v, out) >= 0)
    return 0;
  return mp_err_set(err, MP_ESTATE,
                    "reading history file '%s': %s is %.17g, not a whole "
                    "number a 64-bit integer holds",
                    path, key, v->valuedouble);
}

/* The time under |key| (seconds since 1970) as RFC 3339 into |out|. */
static int time_field(const cJSON *j, const char *key, const char *path,
                      char *out, size_t n, mp_err *err) {
  int64_t secs;
  int rc = int_field(j, key, path, &secs, err);
  if (rc == 0 && rfc3339(secs, out, n) < 0)
    rc = mp_err_set(err, MP_ESTATE,
                    "reading history file '%s': %s %lld is out of range "
                    "(a time from year 0 to 9999)",
                    path, key, (long long)secs);
  return rc;
}

static int read_entry(mp_diy *s, const char *path, int64_t id, mp_history_entry *h,
                      mp_err *err) {
  char *text;
  size_t len;
  if (mp__diy_read(s, path, &text, &len, err) < 0)
    return err->code;
  cJSON *j = cJSON_ParseWithLength(text, len);
  free(text);
  if (!cJSON_IsObject(j)) {
    cJSON_Delete(j);
    return mp_err_set(err, MP_ESTATE, "history file '%s' is not JSON", path);
  }
  memset(h, 0, sizeof(*h));
  h->id = id;
  snprintf(h->kind, sizeof(h->kind), "%s", str_of(j, "kind"));
  snprintf(h->result, sizeof(h->result), "%s", str_of(j, "result"));
  h->message = mp_xstrdup(str_of(j, "message"));
  int bad = time_field(j, "startTime", path, h->start, sizeof(h->start), err);
  if (!bad)
    bad = time_field(j, "endTime", path, h->end, sizeof(h->end), err);
  const cJSON *rc = cJSON_GetObjectItemCaseSensitive(j, "resourceChanges");
  int64_t *f[9];
  mp__store_counts_fields(&h->counts, f);
  for (size_t i = 0; !bad && i < 9; i++)
    bad = int_field(rc, op_names[i], path, f[i], err);
  h->environment = object_text(j, "environment");
  h->config = object_text(j, "config");
  cJSON_Delete(j);
  if (bad)
    mp_history_entry_destroy(h);
  return bad;
}

int mp__diy_history(mp_store *base, mp_stack_ref st, mp_history_entry **out,
                    size_t *n, mp_err *err) {
  mp_diy *s = mp__diy(base);
  int ex = mp__diy_stack_exists(base, st, err);
  if (ex < 0)
    return err->code;
  if (ex == 0)
    return mp__store_no_stack(st, err);
  char *dir = mp__diy_stack_dir(s, "history", st);
  size_t nh;
  hist_file *h = list_history(s, dir, &nh);
  int rc = 0;
  for (size_t i = nh; rc == 0 && i-- > 0;) { /* newest first */
    char *path = mp_xasprintf("%s/%s", dir, h[i].name);
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    rc = read_entry(s, path, (int64_t)i + 1, &(*out)[*n], err);
    if (rc == 0)
      (*n)++;
    free(path);
  }
  free_history(h, nh);
  free(dir);
  return rc;
}

char *mp__diy_history_last(mp_diy *s, mp_stack_ref st) {
  char *dir = mp__diy_stack_dir(s, "history", st);
  size_t nh;
  hist_file *h = list_history(s, dir, &nh);
  char *out = NULL;
  if (nh > 0) {
    char *path = mp_xasprintf("%s/%s", dir, h[nh - 1].name);
    mp_history_entry e;
    mp_err ignored;
    if (read_entry(s, path, 1, &e, &ignored) == 0) {
      out = mp_xstrdup(e.end);
      mp_history_entry_destroy(&e);
    }
    free(path);
  }
  free_history(h, nh);
  free(dir);
  return out;
}

int mp__diy_history_rename(mp_diy *s, mp_stack_ref st, const char *new_name,
                           mp_err *err) {
  mp_stack_ref to = {st.project, new_name};
  char *from_dir = mp__diy_stack_dir(s, "history", st);
  char *to_dir = mp__diy_stack_dir(s, "history", to);
  mp_strv names;
  mp_strv_init(&names);
  int rc = mp__diy_list(s, from_dir, &names, err);
  size_t plen = strlen(st.name);
  if (rc == 0 && names.len)
    rc = mp__diy_mkdirs(s, to_dir, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    const char *name = names.items[i];
    /* <stack>-<ns>.(history|checkpoint).json[.gz]; others stay */
    if (strncmp(name, st.name, plen) != 0 || name[plen] != '-')
      continue;
    char *src = mp_xasprintf("%s/%s", from_dir, name);
    char *dst = mp_xasprintf("%s/%s%s", to_dir, new_name, name + plen);
    rc = mp__diy_rename(s, src, dst, err);
    if (rc < 0)
      mp_err_prefix(err, "cannot move history file '%s'", src);
    free(src);
    free(dst);
  }
  if (rc == 0)
    mp__diy_rmdir(s, from_dir);
  mp_strv_destroy(&names);
  free(from_dir);
  free(to_dir);
  return rc;
}
