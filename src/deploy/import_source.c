/* The `import` command's program (import_source.h): the stack first, then
 * the prior state's resources one after another, in its order, then every
 * resource to import at once, then the end. Pulumi's importer, too, emits
 * the prior state's steps before the imports (pkg/resource/deploy/
 * import.go): a parent or provider the import names is recorded before
 * the imported child, and a prior child after its parent, whatever the
 * timing of the steps. The stack's outputs are not
 * registered: the deployment keeps the stack's own (import_only). */
#include "deploy/import_source.h"

#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "engine/urn.h"
#include "engine/value_pb.h"

/* Owner: the loop thread. */
typedef struct import_source {
  mp_source base;
  const mp_import_list *l;
  char *stack_name;
  mp_monitor *m;
  char *stack_urn;
  size_t outstanding; /* registrations in flight */
  size_t next_old;    /* the prior state's next entry to register */
  int started, ended, stopped;
  char *fail_msg; /* the first failure, or NULL */
} import_source;

/* One registration in flight: the stack (|item| and |old| NULL), a
 * resource to import, or one of the prior state. */
typedef struct call {
  import_source *s;
  const mp_import_item *item;
  const mp_resource *old;
} call;

/* Tells the monitor the program is done once nothing is in flight. */
static void maybe_end(import_source *s) {
  if (s->ended || s->outstanding > 0) return;
  s->ended = 1;
  mp_monitor_program_done(s->m, s->stopped, s->fail_msg ? s->fail_msg : "");
}

static void stop(import_source *s, const char *what, const mp_err *err) {
  if (!s->stopped && err && err->code != MP_ECANCELED)
    s->fail_msg = mp_xasprintf("%s: %s", what,
                               err->msg[0] ? err->msg : "failed");
  s->stopped = 1;
}

static void on_registered(void *ud,
                          const Pulumirpc__RegisterResourceResponse *resp,
                          const mp_err *err);

static int register_one(import_source *s, const mp_import_item *it,
                        const mp_resource *old, mp_err *err) {
  Pulumirpc__RegisterResourceRequest req =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  size_t nlen = 0;
  const char *nm = old ? mp_urn_name(old->urn, &nlen) : NULL;
  char *old_name = nm ? mp_xstrndup(nm, nlen) : NULL;
  if (old) {
    /* not a target: the deployment keeps its prior state */
    req.type = (char *)old->type;
    req.name = old_name;
    req.parent = old->parent ? old->parent : s->stack_urn;
    req.custom = old->custom;
    req.provider = (char *)(old->provider ? old->provider : "");
  } else if (it) {
    req.type = it->type;
    req.name = it->name;
    req.parent = (char *)(s->l->parent ? s->l->parent : s->stack_urn);
    req.provider = (char *)(s->l->provider ? s->l->provider : "");
    req.custom = 1;
    req.importid = it->id;
    req.protect_opt_case =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
    req.protect = s->l->protect;
  } else {
    req.type = "pulumi:pulumi:Stack";
    req.name = s->stack_name;
  }
  req.acceptsecrets = 1;
  req.acceptresources = 1;
  req.supportspartialvalues = 1;
  req.aliasspecs = 1;
  req.supportsresultreporting = 1;
  mp_value *empty = mp_value_new_object();
  int rc = mp_value_to_pb_struct(empty, MP_PB_KEEP_SECRETS, &req.object, err);
  mp_value_free(empty);
  if (rc == 0) {
    call *c = mp_xcalloc(1, sizeof(*c));
    c->s = s;
    c->item = it;
    c->old = old;
    s->outstanding++;
    rc = mp_monitor_register_resource(s->m, &req, on_registered, c, err);
    if (rc < 0) {
      s->outstanding--;
      free(c);
    }
  }
  mp_value_pb_struct_free(req.object);
  free(old_name);
  return rc;
}

/* After the stack or a prior resource: the prior state's next resource,
 * or, once they are all in, the resources to import. */
static void register_next(import_source *s) {
  mp_err e;
  mp_err_clear(&e);
  const mp_snapshot *ex = s->l->existing;
  while (ex && s->next_old < ex->nres) {
    const mp_resource *r = ex->res[s->next_old++];
    if (r->delete_ || !strcmp(r->type, "pulumi:pulumi:Stack")) continue;
    if (register_one(s, NULL, r, &e) < 0) stop(s, "import", &e);
    return;
  }
  for (size_t i = 0; i < s->l->len && !s->stopped; i++)
    if (register_one(s, &s->l->items[i], NULL, &e) < 0)
      stop(s, "import", &e);
}

static void on_registered(void *ud,
                          const Pulumirpc__RegisterResourceResponse *resp,
                          const mp_err *err) {
  call *c = ud;
  import_source *s = c->s;
  const mp_import_item *it = c->item;
  const mp_resource *old = c->old;
  free(c);
  s->outstanding--;
  if (resp == NULL || (err && err->code)) {
    char *what = it    ? mp_xasprintf("resource '%s'", it->name)
                 : old ? mp_xasprintf("resource '%s'", old->urn)
                       : mp_xstrdup("cannot register the stack");
    stop(s, what, err);
    free(what);
  } else if (it == NULL && !s->stopped) {
    /* The stack is not a target: its answer is a skip, with its URN. A
     * resource's failure (continue-on-error) the engine reported. */
    if (old == NULL) s->stack_urn = mp_xstrdup(resp->urn);
    register_next(s);
  }
  maybe_end(s);
}

static int src_start(mp_source *base, mp_monitor *m,
                     const mp_source_info *info, mp_err *err) {
  import_source *s = (import_source *)base;
  if (s->started)
    return mp_err_set(err, MP_EINVAL, "the import was already started");
  s->started = 1;
  s->m = m;
  s->stack_name = mp_xasprintf("%s-%s", info->project, info->stack);
  return register_one(s, NULL, NULL, err);
}

static void src_cancel(mp_source *base) {
  import_source *s = (import_source *)base;
  if (!s->started || s->ended) return;
  s->stopped = 1;
  maybe_end(s);
}

static void src_free(mp_source *base) {
  import_source *s = (import_source *)base;
  if (s == NULL) return;
  free(s->stack_name);
  free(s->stack_urn);
  free(s->fail_msg);
  free(s);
}

static const mp_source_vtable import_vtable = {src_start, src_cancel,
                                               src_free, NULL, NULL};

mp_source *mp_import_source_new(const mp_import_list *l) {
  import_source *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &import_vtable;
  s->l = l;
  return &s->base;
}

const mp_strv *mp_import_properties_of(void *ud, const char *urn) {
  const mp_import_list *l = ud;
  for (size_t i = 0; i < l->len; i++)
    if (l->items[i].urn && strcmp(l->items[i].urn, urn) == 0)
      return l->items[i].props.len ? &l->items[i].props : NULL;
  return NULL;
}
