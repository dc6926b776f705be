/* Registrations and invokes through the program's transforms. */
#include "monitor/transforms.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"

typedef struct cbref {
  char *target, *token;
} cbref;

typedef struct cblist {
  cbref *v;
  size_t n, cap;
} cblist;

struct mp_transforms {
  mp_callbacks *cbs;
  cblist stack, invoke;
  mp_map own;     /* URN -> cblist*: a resource's own transforms */
  mp_map parents; /* URN -> char*: its parent's URN */
};

/* Allocations a registration's view points into, freed at its end. */
typedef struct keep {
  void **ptrs;
  size_t n, cap;
  ProtobufCMessage **msgs; /* unpacked responses */
  size_t nmsgs, capmsgs;
} keep;

struct mp_tx_reg {
  mp_transforms *t;
  Pulumirpc__RegisterResourceRequest *q; /* as the program sent it */
  Pulumirpc__RegisterResourceRequest cur; /* the view the transforms made */
  cblist run;
  size_t next;
  keep k;
  mp_transformed_fn done;
  void *arg;
};

static void cblist_push(cblist *l, const char *target, const char *token) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 4;
    l->v = mp_xreallocarray(l->v, l->cap, sizeof(*l->v));
  }
  l->v[l->n].target = mp_xstrdup(target ? target : "");
  l->v[l->n].token = mp_xstrdup(token ? token : "");
  l->n++;
}

static void cblist_append(cblist *l, const cblist *from) {
  for (size_t i = 0; from && i < from->n; i++)
    cblist_push(l, from->v[i].target, from->v[i].token);
}

static void cblist_destroy(cblist *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].target);
    free(l->v[i].token);
  }
  free(l->v);
  memset(l, 0, sizeof(*l));
}

static void *kalloc(keep *k, size_t n) {
  if (k->n == k->cap) {
    k->cap = k->cap ? k->cap * 2 : 8;
    k->ptrs = mp_xreallocarray(k->ptrs, k->cap, sizeof(*k->ptrs));
  }
  return k->ptrs[k->n++] = mp_xcalloc(1, n ? n : 1);
}

static void kmsg(keep *k, ProtobufCMessage *m) {
  if (k->nmsgs == k->capmsgs) {
    k->capmsgs = k->capmsgs ? k->capmsgs * 2 : 4;
    k->msgs = mp_xreallocarray(k->msgs, k->capmsgs, sizeof(*k->msgs));
  }
  k->msgs[k->nmsgs++] = m;
}

static void keep_destroy(keep *k) {
  for (size_t i = 0; i < k->n; i++) free(k->ptrs[i]);
  for (size_t i = 0; i < k->nmsgs; i++)
    protobuf_c_message_free_unpacked(k->msgs[i], NULL);
  free(k->ptrs);
  free(k->msgs);
}

mp_transforms *mp_transforms_new(mp_callbacks *cbs) {
  mp_transforms *t = mp_xcalloc(1, sizeof(*t));
  t->cbs = cbs;
  mp_map_init(&t->own);
  mp_map_init(&t->parents);
  return t;
}

void mp_transforms_free(mp_transforms *t) {
  if (t == NULL) return;
  cblist_destroy(&t->stack);
  cblist_destroy(&t->invoke);
  for (size_t i = 0; i < t->own.cap; i++)
    if (t->own.slots[i].key) {
      cblist_destroy(t->own.slots[i].value);
      free(t->own.slots[i].value);
    }
  for (size_t i = 0; i < t->parents.cap; i++)
    if (t->parents.slots[i].key) free(t->parents.slots[i].value);
  mp_map_destroy(&t->own);
  mp_map_destroy(&t->parents);
  free(t);
}

void mp_transforms_stop(mp_transforms *t) { t->cbs = NULL; }

/* Calls |cb| unless the deployment is over. */
static int call(mp_transforms *t, const cbref *c, const ProtobufCMessage *req,
                mp_callbacks_done done, void *arg, mp_err *err) {
  if (t->cbs == NULL)
    return mp_err_set(err, MP_ECANCELED, "the deployment is over");
  Pulumirpc__Callback cb = PULUMIRPC__CALLBACK__INIT;
  cb.target = c->target;
  cb.token = c->token;
  return mp_callbacks_call(t->cbs, &cb, req, done, arg, err);
}

static int add(mp_transforms *t, cblist *l, const Pulumirpc__Callback *cb,
               mp_err *err) {
  int rc = mp_callbacks_dial(t->cbs, cb, err);
  if (rc == 0) cblist_push(l, cb->target, cb->token);
  return rc;
}

int mp_transforms_add_stack(mp_transforms *t, const Pulumirpc__Callback *cb,
                            mp_err *err) {
  return add(t, &t->stack, cb, err);
}

int mp_transforms_add_invoke(mp_transforms *t, const Pulumirpc__Callback *cb,
                             mp_err *err) {
  return add(t, &t->invoke, cb, err);
}

/* ---- options: the request's view <-> TransformResourceOptions ---- */

#define RR(x) PULUMIRPC__REGISTER_RESOURCE_REQUEST__##x
#define TO(x) PULUMIRPC__TRANSFORM_RESOURCE_OPTIONS__##x

/* The options a transform sees, pointing into |c| (Pulumi passes string
 * aliases as Alias{urn}). */
static void opts_of(keep *k, const Pulumirpc__RegisterResourceRequest *c,
                    Pulumirpc__TransformResourceOptions *o) {
  o->n_depends_on = c->n_dependencies;
  o->depends_on = c->dependencies;
  if (c->protect_opt_case == RR(PROTECT_OPT_PROTECT)) {
    o->protect_opt_case = TO(PROTECT_OPT_PROTECT);
    o->protect = c->protect;
  }
  o->n_ignore_changes = c->n_ignorechanges;
  o->ignore_changes = c->ignorechanges;
  o->n_replace_on_changes = c->n_replaceonchanges;
  o->replace_on_changes = c->replaceonchanges;
  o->version = c->version;
  o->n_aliases = c->n_aliasurns + c->n_aliases;
  o->aliases = kalloc(k, o->n_aliases * sizeof(*o->aliases));
  Pulumirpc__Alias *byurn = kalloc(k, c->n_aliasurns * sizeof(*byurn));
  for (size_t i = 0; i < c->n_aliasurns; i++) {
    pulumirpc__alias__init(&byurn[i]);
    byurn[i].alias_case = PULUMIRPC__ALIAS__ALIAS_URN;
    byurn[i].urn = c->aliasurns[i];
    o->aliases[i] = &byurn[i];
  }
  for (size_t i = 0; i < c->n_aliases; i++)
    o->aliases[c->n_aliasurns + i] = c->aliases[i];
  o->provider = c->provider;
  o->custom_timeouts = c->customtimeouts;
  o->plugin_download_url = c->plugindownloadurl;
  if (c->retain_on_delete_opt_case == RR(RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE)) {
    o->retain_on_delete_opt_case = TO(RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE);
    o->retain_on_delete = c->retainondelete;
  }
  o->deleted_with = c->deletedwith;
  if (c->deletebeforereplacedefined || c->deletebeforereplace) {
    o->delete_before_replace_opt_case =
        TO(DELETE_BEFORE_REPLACE_OPT_DELETE_BEFORE_REPLACE);
    o->delete_before_replace = c->deletebeforereplace;
  }
  o->n_additional_secret_outputs = c->n_additionalsecretoutputs;
  o->additional_secret_outputs = c->additionalsecretoutputs;
  o->n_providers = c->n_providers;
  o->providers = kalloc(k, c->n_providers * sizeof(*o->providers));
  Pulumirpc__TransformResourceOptions__ProvidersEntry *pe =
      kalloc(k, c->n_providers * sizeof(*pe));
  for (size_t i = 0; i < c->n_providers; i++) {
    pulumirpc__transform_resource_options__providers_entry__init(&pe[i]);
    pe[i].key = c->providers[i]->key;
    pe[i].value = c->providers[i]->value;
    o->providers[i] = &pe[i];
  }
  o->hooks = c->hooks;
  o->import = c->importid;
  o->n_hide_diff = c->n_hidediffs;
  o->hide_diff = c->hidediffs;
  o->n_replace_with = c->n_replace_with;
  o->replace_with = c->replace_with;
  o->replacement_trigger = c->replacement_trigger;
}

/* The transform's options replace the view's (as Pulumi's do: whatever
 * the transform left out is gone). */
static void opts_into(keep *k, const Pulumirpc__TransformResourceOptions *o,
                      Pulumirpc__RegisterResourceRequest *c) {
  c->n_dependencies = o->n_depends_on;
  c->dependencies = o->depends_on;
  c->protect_opt_case = o->protect_opt_case == TO(PROTECT_OPT_PROTECT)
                            ? RR(PROTECT_OPT_PROTECT)
                            : RR(PROTECT_OPT__NOT_SET);
  c->protect = o->protect;
  c->n_ignorechanges = o->n_ignore_changes;
  c->ignorechanges = o->ignore_changes;
  c->n_replaceonchanges = o->n_replace_on_changes;
  c->replaceonchanges = o->replace_on_changes;
  c->version = o->version;
  c->n_aliasurns = 0;
  c->aliasspecs = 1;
  c->n_aliases = o->n_aliases;
  c->aliases = o->aliases;
  c->provider = o->provider;
  c->customtimeouts = o->custom_timeouts;
  c->plugindownloadurl = o->plugin_download_url;
  c->retain_on_delete_opt_case =
      o->retain_on_delete_opt_case == TO(RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE)
          ? RR(RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE)
          : RR(RETAIN_ON_DELETE_OPT__NOT_SET);
  c->retainondelete = o->retain_on_delete;
  c->deletedwith = o->deleted_with;
  c->deletebeforereplacedefined =
      o->delete_before_replace_opt_case ==
      TO(DELETE_BEFORE_REPLACE_OPT_DELETE_BEFORE_REPLACE);
  c->deletebeforereplace = o->delete_before_replace;
  c->n_additionalsecretoutputs = o->n_additional_secret_outputs;
  c->additionalsecretoutputs = o->additional_secret_outputs;
  c->n_providers = o->n_providers;
  c->providers = kalloc(k, o->n_providers * sizeof(*c->providers));
  Pulumirpc__RegisterResourceRequest__ProvidersEntry *pe =
      kalloc(k, o->n_providers * sizeof(*pe));
  for (size_t i = 0; i < o->n_providers; i++) {
    pulumirpc__register_resource_request__providers_entry__init(&pe[i]);
    pe[i].key = o->providers[i]->key;
    pe[i].value = o->providers[i]->value;
    c->providers[i] = &pe[i];
  }
  c->hooks = o->hooks;
  c->importid = o->import;
  c->n_hidediffs = o->n_hide_diff;
  c->hidediffs = o->hide_diff;
  c->n_replace_with = o->n_replace_with;
  c->replace_with = o->replace_with;
  c->replacement_trigger = o->replacement_trigger;
}

/* After the resource's own transforms, Pulumi takes its dependencies from
 * the options again; the inputs' dependencies stay for the inputs that are
 * still there, and count as dependencies too. */
static void redo_dependencies(keep *k, Pulumirpc__RegisterResourceRequest *c) {
  const Google__Protobuf__Struct *obj = c->object;
  size_t n = 0;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry **pd =
      kalloc(k, c->n_propertydependencies * sizeof(*pd));
  mp_strv all = {0};
  for (size_t i = 0; i < c->n_dependencies; i++)
    if (!mp_strv_contains(&all, c->dependencies[i]))
      mp_strv_push(&all, c->dependencies[i]);
  for (size_t i = 0; i < c->n_propertydependencies; i++) {
    const char *key = c->propertydependencies[i]->key;
    int present = 0;
    for (size_t j = 0; obj && j < obj->n_fields; j++)
      present |= key && obj->fields[j]->key.len == strlen(key) &&
                 memcmp(obj->fields[j]->key.data, key, strlen(key)) == 0;
    if (!present) continue;
    pd[n++] = c->propertydependencies[i];
    const Pulumirpc__RegisterResourceRequest__PropertyDependencies *v =
        c->propertydependencies[i]->value;
    for (size_t j = 0; v && j < v->n_urns; j++)
      if (!mp_strv_contains(&all, v->urns[j])) mp_strv_push(&all, v->urns[j]);
  }
  c->n_propertydependencies = n;
  c->propertydependencies = pd;
  c->n_dependencies = all.len;
  c->dependencies = kalloc(k, all.len * sizeof(char *));
  for (size_t i = 0; i < all.len; i++) {
    c->dependencies[i] = kalloc(k, strlen(all.items[i]) + 1);
    strcpy(c->dependencies[i], all.items[i]);
  }
  mp_strv_destroy(&all);
}

/* ---- a registration through its transforms ---- */

static void reg_next(mp_tx_reg *x);

static void reg_fail(mp_tx_reg *x, const mp_err *err) {
  mp_err e = *err;
  mp_err_prefix(&e, "transform of %s '%s' failed", x->q->type ? x->q->type : "",
                x->q->name ? x->q->name : "");
  x->done(x->arg, x, NULL, &e);
}

static void reg_answered(void *arg, const uint8_t *resp, size_t len,
                         const mp_err *err) {
  mp_tx_reg *x = arg;
  if (resp == NULL) {
    reg_fail(x, err);
    return;
  }
  Pulumirpc__TransformResponse *r =
      pulumirpc__transform_response__unpack(NULL, len, resp);
  if (r == NULL) {
    mp_err e;
    mp_err_set(&e, MP_EPROTO, "the answer is not a TransformResponse");
    reg_fail(x, &e);
    return;
  }
  kmsg(&x->k, &r->base);
  if (r->properties) x->cur.object = r->properties;
  if (r->options) opts_into(&x->k, r->options, &x->cur);
  reg_next(x);
}

static void reg_next(mp_tx_reg *x) {
  if (x->next == x->run.n) {
    if (x->q->n_transforms > 0) redo_dependencies(&x->k, &x->cur);
    x->done(x->arg, x, &x->cur, NULL);
    return;
  }
  const cbref *c = &x->run.v[x->next++];
  Pulumirpc__TransformResourceOptions o =
      PULUMIRPC__TRANSFORM_RESOURCE_OPTIONS__INIT;
  opts_of(&x->k, &x->cur, &o);
  Pulumirpc__TransformRequest q = PULUMIRPC__TRANSFORM_REQUEST__INIT;
  q.type = x->cur.type;
  q.name = x->cur.name;
  q.custom = x->cur.custom;
  q.parent = x->cur.parent;
  q.properties = x->cur.object;
  q.options = &o;
  mp_err err;
  mp_err_clear(&err);
  if (call(x->t, c, &q.base, reg_answered, x, &err) < 0)
    reg_fail(x, &err);
}

void mp_transforms_reg(mp_transforms *t, Pulumirpc__RegisterResourceRequest *q,
                       mp_transformed_fn done, void *arg) {
  mp_tx_reg *x = mp_xcalloc(1, sizeof(*x));
  x->t = t;
  x->q = q;
  x->cur = *q;
  x->done = done;
  x->arg = arg;
  for (size_t i = 0; i < q->n_transforms; i++)
    cblist_push(&x->run, q->transforms[i]->target, q->transforms[i]->token);
  for (const char *p = q->parent; p && p[0]; p = mp_map_get(&t->parents, p))
    cblist_append(&x->run, mp_map_get(&t->own, p));
  cblist_append(&x->run, &t->stack);
  reg_next(x);
}

void mp_transforms_reg_end(mp_transforms *t, mp_tx_reg *x, const char *urn) {
  if (x == NULL) return;
  if (urn && urn[0]) {
    if (x->q->parent && x->q->parent[0])
      free(mp_map_put(&t->parents, urn, mp_xstrdup(x->q->parent)));
    if (x->q->n_transforms > 0) {
      cblist *own = mp_xcalloc(1, sizeof(*own));
      for (size_t i = 0; i < x->q->n_transforms; i++)
        cblist_push(own, x->q->transforms[i]->target,
                    x->q->transforms[i]->token);
      cblist *old = mp_map_put(&t->own, urn, own);
      if (old) cblist_destroy(old);
      free(old);
    }
  }
  pulumirpc__register_resource_request__free_unpacked(x->q, NULL);
  cblist_destroy(&x->run);
  keep_destroy(&x->k);
  free(x);
}

/* ---- an invoke through the stack's invoke transforms ---- */

typedef struct tx_inv {
  mp_transforms *t;
  Pulumirpc__ResourceInvokeRequest *q;
  Pulumirpc__ResourceInvokeRequest cur;
  size_t next;
  keep k;
  mp_invoke_transformed_fn done;
  void *arg;
} tx_inv;

static void inv_end(tx_inv *x, const mp_err *err) {
  if (err) {
    mp_err e = *err;
    mp_err_prefix(&e, "invoke transform of %s failed", x->q->tok ? x->q->tok : "");
    x->done(x->arg, NULL, &e);
  } else {
    x->done(x->arg, &x->cur, NULL);
  }
  pulumirpc__resource_invoke_request__free_unpacked(x->q, NULL);
  keep_destroy(&x->k);
  free(x);
}

static void inv_next(tx_inv *x);

static void inv_answered(void *arg, const uint8_t *resp, size_t len,
                         const mp_err *err) {
  tx_inv *x = arg;
  if (resp == NULL) {
    inv_end(x, err);
    return;
  }
  Pulumirpc__TransformInvokeResponse *r =
      pulumirpc__transform_invoke_response__unpack(NULL, len, resp);
  if (r == NULL) {
    mp_err e;
    mp_err_set(&e, MP_EPROTO, "the answer is not a TransformInvokeResponse");
    inv_end(x, &e);
    return;
  }
  kmsg(&x->k, &r->base);
  if (r->args) x->cur.args = r->args;
  if (r->options) {
    x->cur.provider = r->options->provider;
    x->cur.plugindownloadurl = r->options->plugin_download_url;
    x->cur.version = r->options->version;
  }
  inv_next(x);
}

static void inv_next(tx_inv *x) {
  if (x->next == x->t->invoke.n) {
    inv_end(x, NULL);
    return;
  }
  const cbref *c = &x->t->invoke.v[x->next++];
  Pulumirpc__TransformInvokeOptions o = PULUMIRPC__TRANSFORM_INVOKE_OPTIONS__INIT;
  o.provider = x->cur.provider;
  o.plugin_download_url = x->cur.plugindownloadurl;
  o.version = x->cur.version;
  Pulumirpc__TransformInvokeRequest q =
      PULUMIRPC__TRANSFORM_INVOKE_REQUEST__INIT;
  q.token = x->cur.tok;
  q.args = x->cur.args;
  q.options = &o;
  mp_err err;
  mp_err_clear(&err);
  if (call(x->t, c, &q.base, inv_answered, x, &err) < 0)
    inv_end(x, &err);
}

void mp_transforms_invoke(mp_transforms *t, Pulumirpc__ResourceInvokeRequest *q,
                          mp_invoke_transformed_fn done, void *arg) {
  tx_inv *x = mp_xcalloc(1, sizeof(*x));
  x->t = t;
  x->q = q;
  x->cur = *q;
  x->done = done;
  x->arg = arg;
  inv_next(x);
}
