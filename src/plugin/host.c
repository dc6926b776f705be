/* The plugin host: its loop thread, jobs posted to it, the provider
 * factory and diagnostics routing (plugin/plugin.h). */
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin_int.h"
#include "providers/builtin.h"

/* ---- the loop thread ---- */

static void on_wake(uv_async_t *a) {
  mp_plugin_host *h = a->data;
  pthread_mutex_lock(&h->mu);
  mp__task *t = h->tasks;
  h->tasks = h->tasks_tail = NULL;
  int stopping = h->stopping;
  pthread_mutex_unlock(&h->mu);
  while (t) {
    mp__task *next = t->next;
    t->fn(t->arg);
    if (t->wait) {
      /* The poster frees |t| once it sees done: touch it no more. */
      pthread_mutex_lock(&t->mu);
      t->done = 1;
      pthread_cond_signal(&t->cv);
      pthread_mutex_unlock(&t->mu);
    } else {
      free(t);
    }
    t = next;
  }
  if (stopping) uv_close((uv_handle_t *)&h->wake, NULL);
}

static void loop_main(void *arg) {
  mp_plugin_host *h = arg;
  uv_run(&h->loop, UV_RUN_DEFAULT);
}

static void enqueue(mp_plugin_host *h, mp__task *t) {
  pthread_mutex_lock(&h->mu);
  if (h->tasks_tail) h->tasks_tail->next = t;
  else h->tasks = t;
  h->tasks_tail = t;
  pthread_mutex_unlock(&h->mu);
  uv_async_send(&h->wake);
}

void mp__host_run(mp_plugin_host *h, void (*fn)(void *), void *arg) {
  mp__task t = {fn, arg, 1, 0, PTHREAD_MUTEX_INITIALIZER,
                PTHREAD_COND_INITIALIZER, NULL};
  enqueue(h, &t);
  pthread_mutex_lock(&t.mu);
  while (!t.done) pthread_cond_wait(&t.cv, &t.mu);
  pthread_mutex_unlock(&t.mu);
  pthread_mutex_destroy(&t.mu);
  pthread_cond_destroy(&t.cv);
}

void mp__host_post(mp_plugin_host *h, void (*fn)(void *), void *arg) {
  mp__task *t = mp_xcalloc(1, sizeof(*t));
  t->fn = fn;
  t->arg = arg;
  enqueue(h, t);
}

/* ---- options ---- */

static void copy_opts(mp_plugin_host *h, const mp_plugin_host_opts *o) {
  h->project_dir = mp_xstrdup(o->project_dir ? o->project_dir : ".");
  h->program_dir = mp_xstrdup(o->program_dir ? o->program_dir
                                             : h->project_dir);
  h->project = mp_xstrdup(o->project ? o->project : "");
  h->stack = mp_xstrdup(o->stack ? o->stack : "");
  h->organization = mp_xstrdup(o->organization);
  h->config_json = mp_xstrdup(o->config_json ? o->config_json : "{}");
  h->search_path = o->search_path ? mp_xstrdup(o->search_path) : NULL;
  h->cache_dir = o->cache_dir ? mp_xstrdup(o->cache_dir) : NULL;
  h->plugin_dir = o->plugin_dir ? mp_xstrdup(o->plugin_dir) : NULL;
  h->nspecs = o->nspecs;
  h->specs = mp_xcalloc(o->nspecs ? o->nspecs : 1, sizeof(*h->specs));
  for (size_t i = 0; i < o->nspecs; i++) {
    h->specs[i].name = mp_xstrdup(o->specs[i].name);
    h->specs[i].path = mp_xstrdup(o->specs[i].path);
    h->specs[i].version = mp_xstrdup(o->specs[i].version);
  }
  h->builtins = o->builtins;
  h->yaml_plugin = o->yaml_plugin;
  h->call_timeout_ms = o->call_timeout_ms;
  h->log = o->log;
  /* Starting a plugin (a Node.js one takes seconds on a busy machine) is
   * not held to a short resource deadline. */
  uint64_t setup = o->setup_timeout_ms ? o->setup_timeout_ms : 60000;
  h->setup_timeout_ms = h->call_timeout_ms > setup ? h->call_timeout_ms
                                                   : setup;
}

static void free_opts(mp_plugin_host *h) {
  free(h->project_dir);
  free(h->program_dir);
  free(h->project);
  free(h->stack);
  free(h->organization);
  free(h->config_json);
  free(h->search_path);
  free(h->cache_dir);
  free(h->plugin_dir);
  for (size_t i = 0; i < h->nspecs; i++) {
    free((char *)h->specs[i].name);
    free((char *)h->specs[i].path);
    free((char *)h->specs[i].version);
  }
  free(h->specs);
}

int mp_plugin_host_new(const mp_plugin_host_opts *o, mp_plugin_host **out,
                       mp_err *err) {
  *out = NULL;
  mp_plugin_host *h = mp_xcalloc(1, sizeof(*h));
  copy_opts(h, o);
  pthread_mutex_init(&h->mu, NULL);
  int rc = uv_loop_init(&h->loop);
  if (rc == 0) {
    rc = uv_async_init(&h->loop, &h->wake, on_wake);
    h->wake.data = h;
    if (rc == 0) rc = uv_thread_create(&h->thread, loop_main, h);
    if (rc < 0) {
      uv_close((uv_handle_t *)&h->wake, NULL);
      uv_run(&h->loop, UV_RUN_DEFAULT);
      uv_loop_close(&h->loop);
    }
  }
  if (rc < 0) {
    pthread_mutex_destroy(&h->mu);
    free_opts(h);
    free(h);
    return mp_err_from_uv(err, rc, "cannot start the plugin host");
  }
  *out = h;
  return 0;
}

void mp_plugin_host_shutdown(mp_plugin_host *h) {
  if (h == NULL) return;
  for (;;) {
    pthread_mutex_lock(&h->mu);
    mp__plugin *p = h->plugins;
    pthread_mutex_unlock(&h->mu);
    if (p == NULL) break;
    mp_provider_free(&p->base); /* unlinks itself */
  }
  pthread_mutex_lock(&h->mu);
  h->stopping = 1;
  pthread_mutex_unlock(&h->mu);
  uv_async_send(&h->wake);
  uv_thread_join(&h->thread);
  uv_loop_close(&h->loop);
  pthread_mutex_destroy(&h->mu);
  free_opts(h);
  free(h);
}

/* ---- launching ---- */

static void link_plugin(mp__plugin *p) {
  mp_plugin_host *h = p->h;
  pthread_mutex_lock(&h->mu);
  p->next = h->plugins;
  h->plugins = p;
  pthread_mutex_unlock(&h->mu);
}

/* Removes |p| from its host's list; the provider's free calls it. */
static void unlink_plugin(mp__plugin *p) {
  mp_plugin_host *h = p->h;
  pthread_mutex_lock(&h->mu);
  for (mp__plugin **pp = &h->plugins; *pp; pp = &(*pp)->next)
    if (*pp == p) {
      *pp = p->next;
      break;
    }
  pthread_mutex_unlock(&h->mu);
}

static void free_plugin(mp__plugin *p) {
  mp_strv_destroy(&p->pending);
  mp_buf_destroy(&p->out_line);
  mp_buf_destroy(&p->err_line);
  pthread_mutex_destroy(&p->mu);
  free(p->version);
  free(p->cwd);
  mp_strv_destroy(&p->env_map);
  for (size_t i = 0; p->tail && p->tail[i]; i++) free(p->tail[i]);
  free(p->tail);
  free(p->bin);
  free(p->name);
  free(p->base.pkg);
  free(p);
}

void mp__plugin_release(mp__plugin *p) {
  unlink_plugin(p);
  mp__plugin_stop(p);
  free_plugin(p);
}

int mp__plugin_spawn(mp_plugin_host *h, const char *pkg,
                     const char *const *argv, const char *cwd,
                     const char *const *tail, const mp_strv *env_map,
                     mp__plugin **out, mp_err *err) {
  *out = NULL;
  mp__plugin *p = mp_xcalloc(1, sizeof(*p));
  mp_strv_init(&p->env_map);
  if (env_map) mp_strv_copy(&p->env_map, env_map);
  p->base.vt = &mp__plugin_vtable;
  p->base.pkg = mp_xstrdup(pkg);
  p->h = h;
  p->bin = mp_xstrdup(argv[0]);
  const char *slash = strrchr(argv[0], '/');
  p->name = mp_xstrdup(slash ? slash + 1 : argv[0]);
  if (cwd) p->cwd = mp_xstrdup(cwd);
  size_t n = 0;
  while (tail && tail[n]) n++;
  if (n) {
    p->tail = mp_xcalloc(n + 1, sizeof(*p->tail));
    for (size_t i = 0; i < n; i++) p->tail[i] = mp_xstrdup(tail[i]);
  }
  pthread_mutex_init(&p->mu, NULL);
  mp_strv_init(&p->pending);
  mp_buf_init(&p->out_line);
  mp_buf_init(&p->err_line);
  int rc = mp__plugin_start(p, argv, err);
  if (rc < 0) {
    free_plugin(p);
    return rc;
  }
  link_plugin(p);
  *out = p;
  return 0;
}

static int launch_env(mp_plugin_host *h, const char *pkg,
                      const char *const *argv, const mp_strv *env_map,
                      mp_provider **out, mp_err *err) {
  *out = NULL;
  mp__plugin *p = NULL;
  int rc = mp__plugin_spawn(h, pkg, argv, NULL, NULL, env_map, &p, err);
  if (rc < 0) return rc;
  rc = mp__plugin_setup(p, err);
  if (rc < 0) {
    mp__plugin_release(p);
    return rc;
  }
  *out = &p->base;
  return 0;
}

int mp_plugin_launch(mp_plugin_host *h, const char *pkg,
                     const char *const *argv, mp_provider **out,
                     mp_err *err) {
  return launch_env(h, pkg, argv, NULL, out, err);
}

/* envVarMappings need a process of the provider's own. */
static int no_process(const mp_strv *env_map, const char *pkg,
                      const char *what, mp_err *err) {
  if (env_map == NULL || env_map->len == 0) return 0;
  return mp_err_set(err, MP_EINVAL,
                    "provider of package '%s': envVarMappings cannot be "
                    "applied: the %s runs inside minipulumi, with no "
                    "environment of its own; set the variables themselves",
                    pkg, what);
}

/* The factory's make: spec, built-in, then a plugin found on disk, whose
 * process gets the variables of |env_map| (may be NULL) under their new
 * names. A built-in provider hands the types it lacks to the plugin
 * (fallback.c). */
static int make_with(mp_plugin_host *h, const char *pkg, const char *version,
                     const mp_strv *env_map, mp_provider **out, mp_err *err) {
  *out = NULL;
  if (pkg == NULL) return mp_err_set(err, MP_EINVAL, "no package named");
  if (!mp__plugin_named_by_spec(h, pkg, version) && h->builtins.make) {
    mp_err e;
    mp_err_clear(&e);
    int rc = h->builtins.make(h->builtins.ud, pkg, version, out, &e);
    if (rc == 0 && env_map && env_map->len > 0) {
      mp_provider_free(*out);
      *out = NULL;
      return no_process(env_map, pkg, "built-in provider", err);
    }
    if (rc == 0) *out = mp__plugin_fallback_new(h, *out, pkg, version);
    if (rc != MP_ENOENT) {
      if (rc < 0) mp_err_set(err, rc, "%s", e.msg);
      return rc;
    }
  }
  return mp__plugin_make_found(h, pkg, version, env_map, out, err);
}

int mp__plugin_make_found(mp_plugin_host *h, const char *pkg,
                          const char *version, const mp_strv *env_map,
                          mp_provider **out, mp_err *err) {
  *out = NULL;
  char *path = NULL;
  int rc = mp_plugin_find(h, pkg, version, &path, err);
  if (rc < 0) return rc;
  if (mp__plugin_is_source(path) && h->yaml_plugin) {
    char *rt = mp__plugin_source_runtime(path);
    int yaml = rt && strcmp(rt, "yaml") == 0;
    free(rt);
    if (yaml) {
      /* Served in-process by the embedded YAML host: no process. */
      rc = no_process(env_map, pkg, "YAML component provider", err);
      if (rc == 0) rc = h->yaml_plugin(pkg, path, out, err);
      free(path);
      return rc;
    }
  }
  mp_strv argv;
  mp_strv_init(&argv);
  if (mp__plugin_is_source(path))
    rc = mp__plugin_source_argv(h, pkg, path, &argv, err);
  else
    mp_strv_push(&argv, path);
  if (rc == 0) {
    mp_strv_push_take(&argv, NULL);
    rc = launch_env(h, pkg, (const char *const *)argv.items, env_map, out,
                    err);
  }
  mp_strv_destroy(&argv);
  const char *claims = mp_builtin_unclaimed(pkg, version);
  if (rc == 0 && claims) {
    /* The display says who serves a built-in package's other versions. */
    char *note = mp_xasprintf("%s %s is served by the plugin %s (the "
                              "built-in provider serves %s)",
                              pkg, version, path, claims);
    mp__plugin_diag((mp__plugin *)*out, NULL, note);
    free(note);
  }
  free(path);
  return rc;
}

static int make(void *ud, const char *pkg, const char *version,
                mp_provider **out, mp_err *err) {
  return make_with(ud, pkg, version, NULL, out, err);
}

static int make_env(void *ud, const char *pkg, const char *version,
                    const mp_strv *env_map, mp_provider **out, mp_err *err) {
  return make_with(ud, pkg, version, env_map, out, err);
}

mp_provider_factory mp_plugin_host_factory(mp_plugin_host *h) {
  mp_provider_factory f = {make, h, NULL, make_env};
  return f;
}

/* ---- diagnostics ---- */

void mp__plugin_diag(mp__plugin *p, const char *urn, const char *line) {
  pthread_mutex_lock(&p->mu);
  mp__inflight *to = NULL;
  if (urn && *urn)
    for (mp__inflight *c = p->inflight; c && !to; c = c->next)
      if (strcmp(c->urn, urn) == 0) to = c;
  if (to == NULL) to = p->inflight;
  mp_strv_push(to ? &to->diags : &p->pending, line);
  pthread_mutex_unlock(&p->mu);
}
