/* The built-in `test` provider: `test:index:Resource`, scriptable for
 * tests and benchmarks. Its live world is a directory (config `test:world`,
 * else the factory's default world, which the CLI takes from
 * $MINIPULUMI_TEST_WORLD): each resource is `<world>/<id>.json`
 * holding its outputs, and every call appends one JSON line to
 * `<world>/calls.jsonl`. Inputs that script it:
 *   __latencyMs   sleep that long in every call
 *   __failOn      ops that fail ("<op> failed intentionally"); create and
 *                 update fail only outside preview, so that `up` reaches
 *                 the failing step
 *   __replaceKeys a change to these keys replaces
 *   __dbr         replacements delete before they create
 *   __initError   create/update succeed but report this init error
 * Everything else is plain data: outputs = inputs. Read answers from the
 * live object; a key `__read` in it (an object, not part of the outputs)
 * scripts the answer, as providers do when the world drifted:
 *   "id": "<id>"      the object now has this id
 *   "inputs": {...}   these inputs (null: none), not the old ones
 *   "initError": "t"  a partial failure: the object exists, not initialised
 * and a key `__diff` in it scripts Diff as a provider whose answer changed
 * between a preview and an update (update plans, X49): "update" reports a
 * change, "replace" a replacement on every input key.
 */
#include "providers/providers_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TOKEN "test:index:Resource"
#define WORLD_ENV "MINIPULUMI_TEST_WORLD"
#define MAX_WORLD_FILE ((size_t)64 << 20)

typedef struct tprov {
  mp__prov_base base;
  char *world; /* set by configure, which runs before any other method */
  char *default_world; /* the factory's (mp_builtin_opts.test_world) */
  /* calls.jsonl stays open from call to call: opening and closing it cost
   * more than the line. |log_fd| is open on <log_world>/calls.jsonl;
   * both under |log_lock| (calls come from several threads). */
  pthread_mutex_t log_lock;
  int log_fd;
  char *log_world;
} tprov;

typedef struct script {
  int64_t latency_ms;
  const char *wait_file; /* create/update (not preview) waits for it */
  const mp_value *fail_on;      /* ARRAY or NULL */
  const mp_value *replace_keys; /* ARRAY or NULL */
  int dbr;
  const char *init_error;
} script;

static void read_script(const mp_value *in, script *s) {
  const mp_value *v;
  memset(s, 0, sizeof(*s));
  (void)mp__prov_int(in, "__latencyMs", &s->latency_ms, NULL);
  s->wait_file = mp__prov_get_str(in, "__waitFile");
  v = mp__prov_get(in, "__failOn");
  s->fail_on = v && v->kind == MP_VALUE_ARRAY ? v : NULL;
  v = mp__prov_get(in, "__replaceKeys");
  s->replace_keys = v && v->kind == MP_VALUE_ARRAY ? v : NULL;
  (void)mp__prov_bool(in, "__dbr", &s->dbr, NULL);
  s->init_error = mp__prov_get_str(in, "__initError");
}

static int listed(const mp_value *arr, const char *s) {
  size_t i;
  for (i = 0; arr != NULL && i < arr->u.arr.len; i++) {
    const mp_value *e = mp__prov_plain(arr->u.arr.items[i]);
    if (e != NULL && e->kind == MP_VALUE_STRING && strcmp(e->u.str.ptr, s) == 0)
      return 1;
  }
  return 0;
}

/* ---- the world ---- */

/* The world of |tp|, else of |config| (key `world`), else the factory's
 * default. NULL when none is set. */
static const char *world_of(const tprov *tp, const mp_value *config) {
  const char *w = tp->world;
  if (w == NULL)
    w = mp__prov_get_str(config, "world");
  if (w == NULL || *w == '\0')
    w = tp->default_world;
  return w && *w ? w : NULL;
}

static int need_world(const tprov *tp, const mp_value *config, const char **out,
                      mp_err *err) {
  *out = world_of(tp, config);
  if (*out != NULL)
    return 0;
  return mp_err_set(
      err, MP_EINVAL,
      "the test provider has no world directory; set stack "
      "config 'test:world' or the environment variable " WORLD_ENV);
}

static void json_str(mp_buf *b, const char *s) {
  if (s == NULL)
    mp_buf_puts(b, "null");
  else
    mp_json_put_string(b, s, strlen(s));
}

/* |n| >= 0 in decimal. */
static void put_int(mp_buf *b, int64_t n) {
  char d[24];
  size_t i = sizeof(d);
  do {
    d[--i] = (char)('0' + n % 10);
    n /= 10;
  } while (n > 0 && i > 0);
  mp_buf_append(b, d + i, sizeof(d) - i);
}

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The descriptor of <world>/calls.jsonl, opened for appending unless
 * already open; under tp->log_lock. Returns it or -1 with errno. The path
 * is made only when the file is opened (a line per call made it 20,000
 * times in a no-op of 10,000). */
static int log_fd(tprov *tp, const char *world) {
  if (tp->log_fd >= 0 && strcmp(tp->log_world, world) == 0) return tp->log_fd;
  if (tp->log_fd >= 0) close(tp->log_fd);
  free(tp->log_world);
  tp->log_world = NULL;
  char *path = mp_xasprintf("%s/calls.jsonl", world);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT && mkdir(world, 0755) == 0) {
    /* CheckConfig of a new world runs before Configure creates it. */
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  }
  int saved = errno;
  free(path);
  errno = saved;
  tp->log_fd = fd;
  if (fd >= 0) tp->log_world = mp_xstrdup(world);
  return fd;
}

/* Appends one line to <world>/calls.jsonl with a single write() on an
 * O_APPEND descriptor, so lines from threads and processes never mix. */
static int log_call(tprov *tp, const char *world, const char *op,
                    const mp_prov_req *q, const mp_value *inputs, int preview,
                    mp_err *err) {
  mp_buf line;
  int rc = 0;
  mp_buf_init(&line);
  mp_buf_puts(&line, "{\"op\":");
  json_str(&line, op);
  mp_buf_puts(&line, ",\"urn\":");
  json_str(&line, q->urn);
  mp_buf_puts(&line, ",\"id\":");
  json_str(&line, q->id && *q->id ? q->id : NULL);
  mp_buf_puts(&line, ",\"inputs\":");
  if (inputs != NULL) {
    mp_value *plain = mp_value_strip_secrets(inputs);
    rc = mp_value_to_json(plain, NULL, 0, &line, err);
    mp_value_free(plain);
  } else {
    mp_buf_puts(&line, "null");
  }
  /* No printf: its parse of the format cost more than the rest of the
   * line. */
  mp_buf_puts(&line, preview ? ",\"preview\":true,\"t\":"
                             : ",\"preview\":false,\"t\":");
  put_int(&line, mono_ns());
  mp_buf_puts(&line, "}\n");
  if (rc == 0) {
    pthread_mutex_lock(&tp->log_lock);
    int fd = log_fd(tp, world);
    if (fd < 0) {
      rc = mp_err_set(err, MP_EIO, "cannot open '%s/calls.jsonl': %s", world,
                      strerror(errno));
    } else {
      ssize_t n = write(fd, line.data, line.len);
      if (n != (ssize_t)line.len)
        rc = mp_err_set(err, MP_EIO, "cannot append to '%s/calls.jsonl': %s",
                        world,
                        n < 0 ? strerror(errno) : "short write");
    }
    pthread_mutex_unlock(&tp->log_lock);
  }
  mp_buf_destroy(&line);
  return rc;
}

static int check_id(const char *id, mp_err *err) {
  if (id != NULL && *id != '\0' && *id != '.' && strchr(id, '/') == NULL)
    return 0;
  return mp_err_set(err, MP_EINVAL,
                    "invalid test resource id '%s': it must be a non-empty "
                    "file name",
                    id ? id : "(none)");
}

/* The next `id-<n>`: a counter in <world>/.counter under flock, so that
 * threads and processes sharing the world never get the same n. */
static int next_id(const char *world, char **out, mp_err *err) {
  char *path = mp_xasprintf("%s/.counter", world);
  char buf[32];
  long long n = 0;
  ssize_t got;
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644), rc = 0, len;
  if (fd < 0 || flock(fd, LOCK_EX) < 0) {
    rc = mp_err_set(err, MP_EIO, "cannot lock '%s': %s", path, strerror(errno));
    goto done;
  }
  got = pread(fd, buf, sizeof(buf) - 1, 0);
  buf[got > 0 ? got : 0] = '\0';
  n = strtoll(buf, NULL, 10) + 1;
  len = snprintf(buf, sizeof(buf), "%lld\n", n);
  if (pwrite(fd, buf, (size_t)len, 0) != len || ftruncate(fd, len) < 0)
    rc = mp_err_set(err, MP_EIO, "cannot update '%s': %s", path,
                    strerror(errno));
  else
    *out = mp_xasprintf("id-%lld", n);
done:
  if (fd >= 0)
    close(fd); /* releases the lock */
  free(path);
  return rc;
}

static int write_world(const char *world, const char *id,
                       const mp_value *outputs, mp_err *err) {
  char *path = mp_xasprintf("%s/%s.json", world, id);
  char *tmp = mp__prov_tmp_beside(path);
  mp_buf text;
  int fd = -1, rc;
  mp_buf_init(&text);
  rc = mp_value_to_json(outputs, NULL, MP_JSON_SHOW_SECRETS, &text, err);
  if (rc == 0 && (fd = mkostemp(tmp, O_CLOEXEC)) < 0)
    rc =
        mp_err_set(err, MP_EIO, "cannot write '%s': %s", path, strerror(errno));
  if (fd >= 0) {
    ssize_t n = write(fd, text.data ? text.data : "", text.len);
    if (close(fd) < 0 || n != (ssize_t)text.len || rename(tmp, path) < 0) {
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", path,
                      strerror(errno));
      unlink(tmp);
    }
  }
  mp_buf_destroy(&text);
  free(tmp);
  free(path);
  return rc;
}

/* Reads <world>/<id>.json into *out. Returns 0, 1 if missing, or error. */
static int read_world(const char *world, const char *id, mp_value **out,
                      mp_err *err) {
  char *path = mp_xasprintf("%s/%s.json", world, id);
  char chunk[8192];
  mp_buf text;
  ssize_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
  *out = NULL;
  mp_buf_init(&text);
  if (fd < 0) {
    rc = errno == ENOENT ? 1
                         : mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                                      strerror(errno));
    goto done;
  }
  while (rc == 0 && (n = read(fd, chunk, sizeof(chunk))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || text.len > MAX_WORLD_FILE)
      rc = mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                      n < 0 ? strerror(errno) : "too large");
    else
      mp_buf_append(&text, chunk, (size_t)n);
  }
  close(fd);
  if (rc == 0 && (rc = mp_value_from_json(text.data ? text.data : "", text.len,
                                          NULL, out, err)) < 0)
    mp_err_prefix(err, "cannot parse '%s'", path);
done:
  mp_buf_destroy(&text);
  free(path);
  return rc;
}

/* ---- calls ---- */

/* Waits until |path| exists (a test opens the gate when it is ready, so
 * that a call lasts as long as the test needs however slow the machine),
 * at most WAIT_FILE_MAX_S. */
#define WAIT_FILE_MAX_S 300
static int wait_for(const char *path, const char *op, mp_err *err) {
  for (int i = 0; i < WAIT_FILE_MAX_S * 50; i++) {
    if (access(path, F_OK) == 0)
      return 0;
    struct timespec ts = {0, 20 * 1000000};
    nanosleep(&ts, NULL);
  }
  return mp_err_set(err, MP_EPLUGIN, "%s: '%s' did not appear within %d s",
                    op, path, WAIT_FILE_MAX_S);
}

/* The prologue of every resource call: log it, sleep __latencyMs, wait
 * for __waitFile (create and update only), and fail when __failOn lists
 * |op| (the last two not in preview). */
static int begin(tprov *tp, const char *op, const mp_prov_req *q,
                 const mp_value *inputs, int preview, const char **world,
                 mp_err *err) {
  script s;
  int rc;
  if ((rc = need_world(tp, NULL, world, err)) < 0)
    return rc;
  if (q->type != NULL && strcmp(q->type, TOKEN) != 0)
    return mp_err_set(err, MP_EINVAL,
                      "unknown resource type '%s' in the built-in 'test' "
                      "provider; the only type is '" TOKEN "'",
                      q->type);
  if ((rc = log_call(tp, *world, op, q, inputs, preview, err)) < 0)
    return rc;
  read_script(inputs, &s);
  if (s.latency_ms > 0) {
    struct timespec ts = {s.latency_ms / 1000,
                          (long)(s.latency_ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
    }
  }
  int writes = strcmp(op, "create") == 0 || strcmp(op, "update") == 0;
  if (s.wait_file && writes && !preview &&
      (rc = wait_for(s.wait_file, op, err)) < 0)
    return rc;
  if (listed(s.fail_on, op) && !preview)
    return mp_err_set(err, MP_EPLUGIN, "%s failed intentionally", op);
  return 0;
}

static const mp_value *old_side(const mp_prov_req *q) {
  return q->old_inputs ? q->old_inputs : q->olds;
}

static int t_check_config(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                          mp_err *err) {
  const char *world = world_of((tprov *)p, q->news);
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  if (world == NULL) {
    mp_prov_resp_add_failure(r, "world",
                             "the test provider needs a world directory: "
                             "set 'test:world' or " WORLD_ENV);
    return 0;
  }
  return log_call((tprov *)p, world, "checkConfig", q, q->news, 0, err);
}

static int t_diff_config(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                         mp_err *err) {
  const char *world = world_of((tprov *)p, q->news);
  r->changes = MP_DIFF_CHANGES_UNKNOWN;
  /* A provider pointed at another world can no longer manage the
   * resources of the old one: that change replaces (and so replaces every
   * resource it manages). Anything else is left to the engine. */
  const mp_value *ow = q->olds ? mp_value_object_get(q->olds, "world") : NULL;
  const mp_value *nw = q->news ? mp_value_object_get(q->news, "world") : NULL;
  if ((ow || nw) && !mp_value_equal(ow, nw, MP_VALUE_EQ_IGNORE_SECRETS)) {
    r->changes = MP_DIFF_CHANGES_SOME;
    mp_strv_push(&r->replaces, "world");
    mp_strv_push(&r->diffs, "world");
  }
  return world ? log_call((tprov *)p, world, "diffConfig", q, q->news, 0, err)
               : 0;
}

static int t_configure(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                       mp_err *err) {
  tprov *tp = (tprov *)p;
  const char *world;
  int rc;
  free(tp->world);
  tp->world = NULL;
  if ((rc = need_world(tp, q->news, &world, err)) < 0)
    return rc;
  tp->world = mp_xstrdup(world);
  if (mkdir(tp->world, 0755) < 0 && errno != EEXIST)
    return mp_err_set(err, MP_EIO, "cannot create the test world '%s': %s",
                      tp->world, strerror(errno));
  r->accept_secrets = 1;
  r->accept_resources = 1;
  r->supports_preview = 1;
  return log_call(tp, tp->world, "configure", q, q->news, 0, err);
}

static int t_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  const char *world;
  int rc = begin((tprov *)p, "check", q, q->news, 0, &world, err);
  if (rc < 0)
    return rc;
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  return 0;
}

/* The live object's `__diff` script, if any. */
static int scripted_diff(const char *world, const mp_prov_req *q,
                         mp_prov_resp *r, mp_err *err) {
  mp_value *live = NULL;
  if (q->id == NULL || check_id(q->id, NULL) < 0) return 0;
  /* Diff never needed the live object: one that cannot be read (a test
   * made its file a directory, S31) scripts nothing */
  mp_err ignored;
  if (read_world(world, q->id, &live, &ignored) != 0) return 0;
  (void)err;
  const char *how = mp__prov_get_str(live, "__diff");
  if (how && (!strcmp(how, "update") || !strcmp(how, "replace"))) {
    r->changes = MP_DIFF_CHANGES_SOME;
    for (size_t i = 0; q->news && q->news->kind == MP_VALUE_OBJECT &&
                       i < q->news->u.obj.len; i++) {
      mp_strv_push(&r->diffs, q->news->u.obj.items[i].key);
      if (how[0] == 'r') mp_strv_push(&r->replaces, q->news->u.obj.items[i].key);
    }
  }
  mp_value_free(live);
  return 0;
}

static int t_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  const char *world;
  script s;
  size_t i;
  int rc = begin((tprov *)p, "diff", q, q->news, 0, &world, err);
  if (rc < 0)
    return rc;
  read_script(q->news, &s);
  r->changes = MP_DIFF_CHANGES_UNKNOWN;
  for (i = 0; s.replace_keys && i < s.replace_keys->u.arr.len; i++) {
    const mp_value *k = mp__prov_plain(s.replace_keys->u.arr.items[i]);
    const mp_value *a = NULL, *b = NULL;
    if (k == NULL || k->kind != MP_VALUE_STRING)
      continue;
    if (q->olds && q->olds->kind == MP_VALUE_OBJECT)
      a = mp_value_object_get(q->olds, k->u.str.ptr);
    if (q->news && q->news->kind == MP_VALUE_OBJECT)
      b = mp_value_object_get(q->news, k->u.str.ptr);
    if ((a == NULL) != (b == NULL) ||
        !mp_value_equal(a, b, MP_VALUE_EQ_IGNORE_SECRETS)) {
      mp_strv_push(&r->replaces, k->u.str.ptr);
      mp_strv_push(&r->diffs, k->u.str.ptr);
    }
  }
  if (r->replaces.len > 0) {
    r->changes = MP_DIFF_CHANGES_SOME;
    r->delete_before_replace = s.dbr;
  }
  return scripted_diff(world, q, r, err);
}

/* After a successful write: report __initError as a partial failure. */
static int finish_write(const mp_value *news, mp_prov_resp *r, mp_err *err) {
  script s;
  read_script(news, &s);
  if (s.init_error == NULL)
    return 0;
  r->partial = 1;
  mp_strv_push(&r->init_errors, s.init_error);
  return mp_err_set(err, MP_EPLUGIN, "resource initialization failed: %s",
                    s.init_error);
}

/* The start of create and update (|op|): the outputs are the inputs.
 * Returns 1 when that is all (a preview), 0 to write the world, or an
 * error. */
static int start_write(mp_provider *p, const char *op, const mp_prov_req *q,
                       mp_prov_resp *r, const char **world, mp_err *err) {
  int rc = begin((tprov *)p, op, q, q->news, q->preview, world, err);
  if (rc < 0)
    return rc;
  mp_value_free(r->outputs);
  r->outputs = mp__prov_obj_dup(q->news);
  return q->preview ? 1 : 0;
}

static int t_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *world;
  char *id = NULL;
  int rc = start_write(p, "create", q, r, &world, err);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  if ((rc = next_id(world, &id, err)) < 0)
    return rc;
  if ((rc = write_world(world, id, r->outputs, err)) < 0) {
    free(id);
    return rc;
  }
  free(r->id);
  r->id = id;
  return finish_write(q->news, r, err);
}

static int t_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *world;
  int rc = start_write(p, "update", q, r, &world, err);
  if (rc != 0)
    return rc < 0 ? rc : 0;
  if ((rc = check_id(q->id, err)) < 0 ||
      (rc = write_world(world, q->id, r->outputs, err)) < 0)
    return rc;
  free(r->id);
  r->id = mp_xstrdup(q->id);
  return finish_write(q->news, r, err);
}

static int t_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *world;
  char *path;
  int rc = begin((tprov *)p, "delete", q, old_side(q), 0, &world, err);
  (void)r;
  if (rc < 0 || (rc = check_id(q->id, err)) < 0)
    return rc;
  path = mp_xasprintf("%s/%s.json", world, q->id);
  if (unlink(path) < 0 && errno != ENOENT)
    rc = mp_err_set(err, MP_EIO, "cannot delete '%s': %s", path,
                    strerror(errno));
  free(path);
  return rc;
}

static int t_read(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  const char *world;
  mp_value *live = NULL;
  int rc = begin((tprov *)p, "read", q, old_side(q), 0, &world, err);
  if (rc < 0 || (rc = check_id(q->id, err)) < 0)
    return rc;
  if ((rc = read_world(world, q->id, &live, err)) < 0)
    return rc;
  if (rc == 1)
    return 0; /* gone: no id, no outputs */
  mp_value *script =
      live->kind == MP_VALUE_OBJECT ? mp_value_object_take(live, "__read") : NULL;
  if (live->kind == MP_VALUE_OBJECT)
    mp_value_free(mp_value_object_take(live, "__diff"));
  const char *id = mp__prov_get_str(script, "id");
  const mp_value *ins = script ? mp_value_object_get(script, "inputs") : NULL;
  const char *init_error = mp__prov_get_str(script, "initError");
  free(r->id);
  r->id = mp_xstrdup(id ? id : q->id);
  mp_value_free(r->inputs);
  if (ins)
    r->inputs = ins->kind == MP_VALUE_NULL ? NULL : mp_value_dup(ins);
  else
    r->inputs =
        q->old_inputs ? mp_value_dup(q->old_inputs) : mp__prov_obj_dup(live);
  mp_value_free(r->outputs);
  r->outputs = live;
  if (init_error) {
    r->partial = 1;
    mp_strv_push(&r->init_errors, init_error);
    rc = mp_err_set(err, MP_EPLUGIN, "resource initialization failed: %s",
                    init_error);
  }
  mp_value_free(script);
  return rc;
}

static void t_free(mp_provider *p) {
  tprov *tp = (tprov *)p;
  if (tp == NULL)
    return;
  free(tp->world);
  free(tp->default_world);
  if (tp->log_fd >= 0) close(tp->log_fd);
  free(tp->log_world);
  pthread_mutex_destroy(&tp->log_lock);
  mp__prov_base_destroy(&tp->base);
  free(tp);
}

static const mp_provider_vtable test_vt = {
    .check_config = t_check_config,
    .diff_config = t_diff_config,
    .configure = t_configure,
    .check = t_check,
    .diff = t_diff,
    .create = t_create,
    .read = t_read,
    .update = t_update,
    .del = t_delete,
    .get_plugin_info = mp__prov_plugin_info,
    .free = t_free,
};

int mp__prov_test_new(const char *default_world, const char *pkg,
                      const char *version, mp_provider **out, mp_err *err) {
  tprov *tp = mp_xcalloc(1, sizeof(*tp));
  (void)err;
  tp->default_world = mp_xstrdup(default_world);
  pthread_mutex_init(&tp->log_lock, NULL);
  tp->log_fd = -1;
  mp__prov_base_init(&tp->base, &test_vt, pkg, version);
  *out = &tp->base.hdr;
  return 0;
}
