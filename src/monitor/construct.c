/* Remote components (RegisterResource with remote: true): the
 * ConstructRequest the package's provider gets, and the registration's
 * answer made from its ConstructResponse (Pulumi's
 * pkg/resource/deploy/source_eval.go, RegisterResource's remote branch).
 * The component provider registers the component and its children through
 * the monitor endpoint it is given, like a program. Loop thread. */
#include <stdlib.h>
#include <string.h>

#include "engine/pb_deps.h"
#include "engine/value_pb.h"
#include "monitor/monitor_int.h"

/* ---- what Construct and Call both carry ---- */

int mp__monitor_info_init(mp__monitor_info *i, const mp_monitor_opts *o,
                          const char *what, mp_err *err) {
  memset(i, 0, sizeof(*i));
  i->endpoint = o->hooks.endpoint ? o->hooks.endpoint(o->hooks.ud, err) : NULL;
  if (i->endpoint == NULL)
    return mp_err_set(err, err->code ? err->code : MP_EINVAL,
                      "cannot %s: %s", what,
                      err->msg[0] ? err->msg : "no monitor endpoint");
  mp_strv_init(&i->keys);
  mp_strv_init(&i->values);
  mp_strv_init(&i->secret_keys);
  const mp_value *cfg = o->config;
  for (size_t k = 0; cfg && cfg->kind == MP_VALUE_OBJECT && k < cfg->u.obj.len;
       k++) {
    const mp_value_entry *e = &cfg->u.obj.items[k];
    if (mp_value_contains_secrets(e->value))
      mp_strv_push(&i->secret_keys, e->key);
    mp_value *plain = mp_value_strip_secrets(e->value);
    mp_buf b;
    mp_buf_init(&b);
    if (plain->kind == MP_VALUE_STRING)
      mp_buf_append(&b, plain->u.str.ptr, plain->u.str.len);
    else
      mp_value_to_json(plain, NULL, 0, &b, NULL);
    mp_buf_putc(&b, '\0');
    mp_strv_push(&i->keys, e->key);
    mp_strv_push(&i->values, b.data);
    mp_buf_destroy(&b);
    mp_value_free(plain);
  }
  return 0;
}

void mp__monitor_info_destroy(mp__monitor_info *i) {
  mp_strv_destroy(&i->keys);
  mp_strv_destroy(&i->values);
  mp_strv_destroy(&i->secret_keys);
}

/* ---- the request ---- */

static char *s_or_empty(const char *s) { return (char *)(s ? s : ""); }

int mp__monitor_construct_request(const mp_monitor_opts *o,
                                  const Pulumirpc__RegisterResourceRequest *q,
                                  const mp_strv *providers, mp_buf *out,
                                  mp_err *err) {
  mp__monitor_info info;
  char *what = mp_xasprintf("construct '%s' (a remote component of type %s)",
                            q->name, q->type);
  int rc = mp__monitor_info_init(&info, o, what, err);
  free(what);
  if (rc < 0) return rc;
  Pulumirpc__ConstructRequest m = PULUMIRPC__CONSTRUCT_REQUEST__INIT;
  m.project = s_or_empty(o->project);
  m.stack = s_or_empty(o->stack);
  m.organization = s_or_empty(o->organization);
  m.dryrun = o->preview != 0;
  m.parallel = o->parallel;
  m.monitorendpoint = (char *)info.endpoint;
  size_t nc = info.keys.len;
  Pulumirpc__ConstructRequest__ConfigEntry *ce =
      mp_xcalloc(nc ? nc : 1, sizeof(*ce));
  Pulumirpc__ConstructRequest__ConfigEntry **cp =
      mp_xcalloc(nc ? nc : 1, sizeof(*cp));
  for (size_t i = 0; i < nc; i++) {
    pulumirpc__construct_request__config_entry__init(&ce[i]);
    ce[i].key = info.keys.items[i];
    ce[i].value = info.values.items[i];
    cp[i] = &ce[i];
  }
  m.n_config = nc;
  m.config = cp;
  m.n_configsecretkeys = info.secret_keys.len;
  m.configsecretkeys = info.secret_keys.items;
  m.type = s_or_empty(q->type);
  m.name = s_or_empty(q->name);
  m.parent = s_or_empty(q->parent);
  m.inputs = q->object;
  /* The dependencies per input, as the program sent them (the SDK sends
   * them for every remote registration). */
  mp_pb_deps deps;
  mp_pb_deps_copy(&m.base, "inputDependencies", &q->base,
                  "propertyDependencies", &deps);
  if (q->protect_opt_case ==
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT) {
    m.protect_opt_case = PULUMIRPC__CONSTRUCT_REQUEST__PROTECT_OPT_PROTECT;
    m.protect = q->protect;
  }
  size_t np = providers->len / 2;
  Pulumirpc__ConstructRequest__ProvidersEntry *pe =
      mp_xcalloc(np ? np : 1, sizeof(*pe));
  Pulumirpc__ConstructRequest__ProvidersEntry **pp =
      mp_xcalloc(np ? np : 1, sizeof(*pp));
  for (size_t i = 0; i < np; i++) {
    pulumirpc__construct_request__providers_entry__init(&pe[i]);
    pe[i].key = providers->items[2 * i];
    pe[i].value = providers->items[2 * i + 1];
    pp[i] = &pe[i];
  }
  m.n_providers = np;
  m.providers = pp;
  m.n_dependencies = q->n_dependencies;
  m.dependencies = q->dependencies;
  m.n_additionalsecretoutputs = q->n_additionalsecretoutputs;
  m.additionalsecretoutputs = q->additionalsecretoutputs;
  Pulumirpc__ConstructRequest__CustomTimeouts ct =
      PULUMIRPC__CONSTRUCT_REQUEST__CUSTOM_TIMEOUTS__INIT;
  if (q->customtimeouts) {
    ct.create = s_or_empty(q->customtimeouts->create);
    ct.update = s_or_empty(q->customtimeouts->update);
    ct.delete_ = s_or_empty(q->customtimeouts->delete_);
    ct.read = s_or_empty(q->customtimeouts->read);
    m.customtimeouts = &ct;
  }
  m.deletedwith = s_or_empty(q->deletedwith);
  if (q->deletebeforereplacedefined || q->deletebeforereplace) {
    m.delete_before_replace_opt_case =
        PULUMIRPC__CONSTRUCT_REQUEST__DELETE_BEFORE_REPLACE_OPT_DELETE_BEFORE_REPLACE;
    m.deletebeforereplace = q->deletebeforereplace;
  }
  m.n_ignorechanges = q->n_ignorechanges;
  m.ignorechanges = q->ignorechanges;
  m.n_replaceonchanges = q->n_replaceonchanges;
  m.replaceonchanges = q->replaceonchanges;
  if (q->retain_on_delete_opt_case ==
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE) {
    m.retain_on_delete_opt_case =
        PULUMIRPC__CONSTRUCT_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE;
    m.retainondelete = q->retainondelete;
  }
  /* The aliases go to the component provider, which gives them to the
   * component it registers: its children's aliases follow from them. */
  m.n_aliases = q->n_aliases;
  m.aliases = q->aliases;
  mp_pb_pack(&m.base, out);
  free(ce);
  free(cp);
  mp_pb_deps_free(&deps);
  free(pe);
  free(pp);
  mp__monitor_info_destroy(&info);
  return 0;
}

/* ---- the answer ---- */

/* |s| as the caller takes it: secrets and resources only when it accepts
 * them. NULL on a bad Struct. */
static Google__Protobuf__Struct *for_caller(const Google__Protobuf__Struct *s,
                                            unsigned flags, mp_err *err) {
  mp_value *v = NULL;
  if (mp_value_from_pb_struct(s, &v, err) < 0) return NULL;
  Google__Protobuf__Struct *out = NULL;
  if (mp_value_to_pb_struct(v, flags, &out, err) < 0) out = NULL;
  mp_value_free(v);
  return out;
}

Pulumirpc__RegisterResourceResponse *
mp__monitor_construct_answer(const mp_buf *resp, unsigned flags, mp_err *err) {
  Pulumirpc__ConstructResponse *c = pulumirpc__construct_response__unpack(
      NULL, resp->len, (const uint8_t *)resp->data);
  if (c == NULL) {
    mp_err_set(err, MP_EPROTO,
               "the component provider answered Construct with bytes that "
               "are not a ConstructResponse");
    return NULL;
  }
  if (c->urn == NULL || c->urn[0] == '\0') {
    mp_err_set(err, MP_EPROTO,
               "the component provider answered Construct without a URN");
    pulumirpc__construct_response__free_unpacked(c, NULL);
    return NULL;
  }
  Pulumirpc__RegisterResourceResponse *r = mp_xcalloc(1, sizeof(*r));
  pulumirpc__register_resource_response__init(r);
  r->urn = mp_xstrdup(c->urn);
  r->id = mp_xstrdup("");
  r->object = for_caller(c->state, flags, err);
  if (r->object == NULL) {
    mp_err_prefix(err, "the state Construct answered for %s", c->urn);
    pulumirpc__construct_response__free_unpacked(c, NULL);
    mp__monitor_construct_answer_free(r);
    return NULL;
  }
  r->result = PULUMIRPC__RESULT__SUCCESS;
  size_t n = c->n_statedependencies;
  r->n_propertydependencies = n;
  r->propertydependencies = mp_xcalloc(n ? n : 1, sizeof(void *));
  for (size_t i = 0; i < n; i++) {
    const Pulumirpc__ConstructResponse__StateDependenciesEntry *e =
        c->statedependencies[i];
    Pulumirpc__RegisterResourceResponse__PropertyDependenciesEntry *o =
        mp_xcalloc(1, sizeof(*o));
    pulumirpc__register_resource_response__property_dependencies_entry__init(o);
    Pulumirpc__RegisterResourceResponse__PropertyDependencies *d =
        mp_xcalloc(1, sizeof(*d));
    pulumirpc__register_resource_response__property_dependencies__init(d);
    o->key = mp_xstrdup(e->key);
    size_t nu = e->value ? e->value->n_urns : 0;
    d->n_urns = nu;
    d->urns = mp_xcalloc(nu ? nu : 1, sizeof(char *));
    for (size_t k = 0; k < nu; k++) d->urns[k] = mp_xstrdup(e->value->urns[k]);
    o->value = d;
    r->propertydependencies[i] = o;
  }
  pulumirpc__construct_response__free_unpacked(c, NULL);
  return r;
}

void mp__monitor_construct_answer_free(Pulumirpc__RegisterResourceResponse *r) {
  if (r == NULL) return;
  for (size_t i = 0; i < r->n_propertydependencies; i++) {
    Pulumirpc__RegisterResourceResponse__PropertyDependenciesEntry *o =
        r->propertydependencies[i];
    for (size_t k = 0; k < o->value->n_urns; k++) free(o->value->urns[k]);
    free(o->value->urns);
    free(o->value);
    free(o->key);
    free(o);
  }
  free(r->propertydependencies);
  free(r->urn);
  free(r->id);
  mp_value_pb_struct_free(r->object);
  free(r);
}
