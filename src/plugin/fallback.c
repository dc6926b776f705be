/* A built-in provider with its package's plugin behind it (plugin_int.h
 * mp__plugin_fallback_new). A built-in stands in for a package's
 * versions, but implements only some of its types (command: local:Command
 * and local:run of pulumi-command's local and remote modules); a program
 * using another one (command:remote:Command) is served by the real
 * plugin, started on first use and configured with what the built-in was
 * configured with, so that one provider resource serves both. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/prog_name.h"
#include "plugin/plugin_int.h"
#include "providers/builtin.h"

typedef struct fallback {
  mp_provider base;
  mp_provider_vtable vt;
  mp_provider *builtin;
  mp_plugin_host *h;
  char *version; /* NULL: any */
  pthread_mutex_t mu;
  mp_value *config;    /* the last Configure's config, NULL: none yet */
  mp_provider *plugin; /* launched and configured, NULL: not yet */
} fallback;

/* The plugin, started and configured on first use. Returns 0 or an error
 * that names |tok| (a function's if |function|: Pulumi's "unknown
 * function" first, as the built-in answered before it had a plugin behind
 * it) and says what to do. */
static int plugin_of(fallback *f, const char *tok, int function,
                     mp_provider **out, mp_err *err) {
  pthread_mutex_lock(&f->mu);
  int rc = 0;
  if (f->plugin == NULL) {
    mp_err e;
    mp_err_clear(&e);
    mp_provider *p = NULL;
    rc = mp__plugin_make_found(f->h, f->base.pkg, f->version, NULL, &p, &e);
    if (rc == MP_ENOENT)
      rc = mp_err_set(
          err, MP_ENOENT,
          "%s%s%s is not implemented by minipulumi's built-in '%s' "
          "provider, and no '%s' plugin%s%s is installed to serve it; "
          "install it with `%s plugin install resource %s%s%s`",
          function ? "unknown function " : "'", tok, function ? ": it" : "'",
          f->base.pkg, f->base.pkg, f->version ? " v" : "",
          f->version ? f->version : "", mp_prog_name(), f->base.pkg,
          f->version ? " " : "", f->version ? f->version : "");
    else if (rc < 0)
      mp_err_set(err, rc, "%s", e.msg);
    if (rc == 0 && f->config && p->vt->configure) {
      /* the plugin checks the config itself, then takes it */
      mp_prov_req q = {0};
      q.news = f->config;
      mp_prov_resp checked;
      mp_prov_resp_init(&checked);
      if (p->vt->check_config) {
        q.olds = f->config;
        rc = p->vt->check_config(p, &q, &checked, err);
        if (rc == 0 && checked.inputs)
          q.news = checked.inputs;
      }
      mp_prov_resp r;
      mp_prov_resp_init(&r);
      if (rc == 0)
        rc = p->vt->configure(p, &q, &r, err);
      mp_prov_resp_destroy(&r);
      mp_prov_resp_destroy(&checked);
    }
    if (rc == 0)
      f->plugin = p;
    else
      mp_provider_free(p);
  }
  *out = f->plugin;
  pthread_mutex_unlock(&f->mu);
  return rc;
}

typedef int (*method)(mp_provider *, const mp_prov_req *, mp_prov_resp *,
                      mp_err *);

/* The method |m| (its offset in the table) of the provider that serves
 * |tok|; NULL when that provider lacks it (the engine's fallback). */
static int route(mp_provider *self, size_t off, const char *tok, int function,
                 const mp_prov_req *q, mp_prov_resp *r, mp_err *err) {
  fallback *f = (fallback *)self;
  mp_provider *p = f->builtin;
  if (tok && !mp_builtin_implements(f->base.pkg, tok, function)) {
    int rc = plugin_of(f, tok, function, &p, err);
    if (rc)
      return rc;
  }
  method m = *(const method *)((const char *)p->vt + off);
  if (m)
    return m(p, q, r, err);
  /* The built-ins lack only Read (command): the engine's refresh echoes
   * the state then, as it does for a provider without Read. */
  if (off == offsetof(mp_provider_vtable, read)) {
    if (q->olds == NULL)
      return mp_err_set(err, MP_EPLUGIN, "provider has no Read");
    r->id = mp_xstrdup(q->id);
    r->outputs = mp_value_dup(q->olds);
    return 0;
  }
  return mp_err_set(err, MP_EPLUGIN, "the provider of '%s' has no such method",
                    tok ? tok : f->base.pkg);
}

#define ROUTED(name, function)                                                 \
  static int f_##name(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,   \
                      mp_err *err) {                                           \
    return route(p, offsetof(mp_provider_vtable, name),                        \
                 function ? q->tok : q->type, function, q, r, err);            \
  }
ROUTED(check, 0)
ROUTED(diff, 0)
ROUTED(create, 0)
ROUTED(read, 0)
ROUTED(update, 0)
ROUTED(del, 0)
ROUTED(invoke, 1)

/* Configure goes to the built-in, and is kept for the plugin. */
static int f_configure(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                       mp_err *err) {
  fallback *f = (fallback *)p;
  pthread_mutex_lock(&f->mu);
  mp_value_free(f->config);
  f->config = q->news ? mp_value_dup(q->news) : NULL;
  pthread_mutex_unlock(&f->mu);
  return f->builtin->vt->configure
             ? f->builtin->vt->configure(f->builtin, q, r, err)
             : 0;
}

static void f_cancel(mp_provider *p) {
  fallback *f = (fallback *)p;
  if (f->builtin->vt->cancel)
    f->builtin->vt->cancel(f->builtin);
  pthread_mutex_lock(&f->mu);
  if (f->plugin && f->plugin->vt->cancel)
    f->plugin->vt->cancel(f->plugin);
  pthread_mutex_unlock(&f->mu);
}

static void f_free(mp_provider *p) {
  fallback *f = (fallback *)p;
  mp_provider_free(f->builtin);
  mp_provider_free(f->plugin);
  mp_value_free(f->config);
  pthread_mutex_destroy(&f->mu);
  free(f->version);
  free(f->base.pkg);
  free(f);
}

mp_provider *mp__plugin_fallback_new(mp_plugin_host *h, mp_provider *builtin,
                                     const char *pkg, const char *version) {
  if (mp_builtin_implements(pkg, NULL, 0))
    return builtin; /* it implements every type (test) */
  static const mp_provider_vtable vt = {
      .configure = f_configure,
      .check = f_check,
      .diff = f_diff,
      .create = f_create,
      .read = f_read,
      .update = f_update,
      .del = f_del,
      .invoke = f_invoke,
      .cancel = f_cancel,
      .free = f_free,
  };
  fallback *f = mp_xcalloc(1, sizeof(*f));
  /* the provider's own config methods and info are the built-in's */
  f->vt = vt;
  f->vt.check_config = builtin->vt->check_config;
  f->vt.diff_config = builtin->vt->diff_config;
  f->vt.get_plugin_info = builtin->vt->get_plugin_info;
  f->base.vt = &f->vt;
  f->base.pkg = mp_xstrdup(pkg);
  f->builtin = builtin;
  f->h = h;
  f->version = version && *version ? mp_xstrdup(version) : NULL;
  pthread_mutex_init(&f->mu, NULL);
  return &f->base;
}
