/* Policy packs as analyzer plugins (plugin/analyzer.h). */
#include "plugin/analyzer.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/urn.h"
#include "engine/value_pb.h"
#include "google/protobuf/empty.pb-c.h"
#include "plugin/plugin_int.h"
#include "plugin/policy_schema.h"
#include "pulumi/analyzer.pb-c.h"

#define SVC "/pulumirpc.Analyzer/"
#define RUN_POLICY_PACK "node_modules/@pulumi/pulumi/cmd/run-policy-pack"

struct mp_analyzer {
  mp__plugin *p;
  char *dir, *name, *version;
  int remediates; /* a policy is configured at the remediate level */
  atomic_int failed; /* an analysis call failed (any thread sets it) */
};

const char *mp_policy_level_name(mp_policy_level l) {
  switch (l) {
  case MP_POLICY_MANDATORY: return "mandatory";
  case MP_POLICY_DISABLED: return "disabled";
  case MP_POLICY_REMEDIATE: return "remediate";
  default: return "advisory";
  }
}

static int level_of(const char *s, mp_policy_level *l) {
  static const mp_policy_level all[] = {MP_POLICY_ADVISORY,
                                        MP_POLICY_MANDATORY,
                                        MP_POLICY_DISABLED,
                                        MP_POLICY_REMEDIATE};
  for (size_t i = 0; i < MP_ARRAY_LEN(all); i++)
    if (strcmp(s, mp_policy_level_name(all[i])) == 0) {
      *l = all[i];
      return 1;
    }
  return 0;
}

void mp_policy_diags_destroy(mp_policy_diags *d) {
  for (size_t i = 0; i < d->len; i++) {
    mp_policy_diag *x = &d->items[i];
    free(x->policy);
    free(x->pack);
    free(x->pack_version);
    free(x->description);
    free(x->message);
    free(x->urn);
    free(x->diff);
    mp_value_free(x->before);
    mp_value_free(x->after);
  }
  free(d->items);
  memset(d, 0, sizeof(*d));
}

static mp_policy_diag *diag_push(mp_policy_diags *d) {
  if (d->len == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 4;
    d->items = mp_xrealloc(d->items, d->cap * sizeof(*d->items));
  }
  mp_policy_diag *x = &d->items[d->len++];
  memset(x, 0, sizeof(*x));
  return x;
}

static char *dup0(const char *s) { return mp_xstrdup(s ? s : ""); }

/* ---- finding node and run-policy-pack ---- */

static char *find_on_path(const char *search_path, const char *exe) {
  const char *s = search_path ? search_path : "";
  while (*s) {
    size_t n = strcspn(s, ":");
    char *cand = mp_xasprintf("%.*s/%s", (int)n, s, exe);
    if (n && access(cand, X_OK) == 0) return cand;
    free(cand);
    s += n;
    if (*s == ':') s++;
  }
  return NULL;
}

/* run-policy-pack in the node_modules of |dir| or of a folder above it,
 * as node resolves a module. */
static char *find_run_policy_pack(const char *dir) {
  char *d = mp_xstrdup(dir);
  for (;;) {
    char *cand = mp_xasprintf("%s/" RUN_POLICY_PACK, d);
    struct stat st;
    if (stat(cand, &st) == 0) {
      free(d);
      return cand;
    }
    free(cand);
    char *slash = strrchr(d, '/');
    if (slash == NULL || slash == d) break;
    *slash = '\0';
  }
  free(d);
  return NULL;
}

/* ---- calls ---- */

/* Calls |method|; a failure names the pack and carries what the pack
 * printed meanwhile (its stderr, usually the reason). */
static int rpc(mp_analyzer *a, const char *method, const ProtobufCMessage *req,
               const ProtobufCMessageDescriptor *d, void *out, int *unimpl,
               mp_err *err) {
  char path[96];
  snprintf(path, sizeof(path), SVC "%s", method);
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int dummy = 0;
  mp_err e;
  mp_err_clear(&e);
  int rc = mp__plugin_rpc(a->p, path, req, d, out, a->p->h->setup_timeout_ms,
                          &r, unimpl ? unimpl : &dummy, &e);
  if (rc < 0 && !(unimpl && *unimpl)) {
    mp_buf b;
    mp_buf_init(&b);
    for (size_t i = 0; i < r.warnings.len; i++) {
      mp_buf_puts(&b, "\n");
      mp_buf_puts(&b, r.warnings.items[i]);
    }
    mp_buf_putc(&b, '\0');
    mp_err_set(err, rc, "policy pack %s: %s failed: %s%s",
               a->name ? a->name : a->dir, method, e.msg, b.data);
    mp_buf_destroy(&b);
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

static Google__Protobuf__Struct *to_struct(const mp_value *v) {
  Google__Protobuf__Struct *s = NULL;
  if (mp_value_to_pb_struct(v, MP_PB_KEEP_SECRETS, &s,
                            NULL) < 0)
    mp_value_to_pb_struct(NULL, 0, &s, NULL);
  return s;
}

/* ---- configuration ---- */

/* The schema's defaults (properties.<key>.default). */
static mp_value *schema_defaults(const Pulumirpc__PolicyConfigSchema *schema) {
  mp_value *props = NULL, *out = mp_value_new_object();
  if (schema && schema->properties &&
      mp_value_from_pb_struct(schema->properties, &props, NULL) == 0) {
    for (size_t i = 0; i < props->u.obj.len; i++) {
      const mp_value *def =
          mp_value_object_get(props->u.obj.items[i].value, "default");
      if (def)
        mp_value_object_set(out, props->u.obj.items[i].key, mp_value_dup(def));
    }
  }
  mp_value_free(props);
  return out;
}

/* A config entry's level ("mandatory" or {"enforcementLevel": ...}). */
static int entry_level(const mp_value *entry, mp_policy_level *l) {
  if (entry && entry->kind == MP_VALUE_OBJECT)
    entry = mp_value_object_get(entry, "enforcementLevel");
  return entry && entry->kind == MP_VALUE_STRING &&
         level_of(entry->u.str.ptr, l);
}

/* Checks a policy's reconciled config |props| against its schema, as
 * Pulumi does before Configure, adding Pulumi's lines to |problems|; a
 * schema that cannot be loaded (a "$ref" that does not resolve) fails
 * the pack as Pulumi's ReconcilePolicyPackConfig error does. */
static int check_config(const mp_analyzer *a, const char *dir,
                        const Pulumirpc__PolicyInfo *pi, const mp_value *props,
                        mp_strv *problems, mp_err *err) {
  const Pulumirpc__PolicyConfigSchema *schema = pi->configschema;
  if (schema == NULL) return 0;
  mp_value *sprops = NULL, *required = mp_value_new_array();
  if (schema->properties &&
      mp_value_from_pb_struct(schema->properties, &sprops, NULL) < 0)
    sprops = NULL;
  for (size_t i = 0; i < schema->n_required; i++)
    mp_value_array_push(required, mp_value_new_cstring(schema->required[i]));
  mp_strv errs;
  mp_strv_init(&errs);
  mp_err e;
  mp_err_clear(&e);
  int rc = mp_policy_schema_check(sprops, required, props, &errs, &e);
  if (rc < 0)
    mp_err_set(err, e.code,
               "reconciling policy config for \"%s\" at \"%s\": %s", a->name,
               dir, e.msg);
  for (size_t i = 0; i < errs.len; i++)
    mp_strv_push_take(problems,
                      mp_xasprintf("validating policy config: %s %s  %s: %s",
                                   a->name, a->version, pi->name,
                                   errs.items[i]));
  mp_strv_destroy(&errs);
  mp_value_free(sprops);
  mp_value_free(required);
  return rc;
}

static int configure(mp_analyzer *a, const char *dir,
                     const Pulumirpc__AnalyzerInfo *info,
                     const mp_value *config, mp_strv *problems, mp_err *err) {
  size_t n = info->n_policies;
  Pulumirpc__ConfigureAnalyzerRequest req =
      PULUMIRPC__CONFIGURE_ANALYZER_REQUEST__INIT;
  Pulumirpc__ConfigureAnalyzerRequest__PolicyConfigEntry *entries =
      mp_xcalloc(n ? n : 1, sizeof(*entries));
  Pulumirpc__ConfigureAnalyzerRequest__PolicyConfigEntry **ptrs =
      mp_xcalloc(n ? n : 1, sizeof(*ptrs));
  Pulumirpc__PolicyConfig *pcs = mp_xcalloc(n ? n : 1, sizeof(*pcs));
  mp_policy_level all_level = MP_POLICY_ADVISORY;
  int invalid = 0, failed = 0;
  int has_all =
      config && entry_level(mp_value_object_get(config, "all"), &all_level);
  for (size_t i = 0; i < n; i++) {
    const Pulumirpc__PolicyInfo *pi = info->policies[i];
    pulumirpc__configure_analyzer_request__policy_config_entry__init(
        &entries[i]);
    pulumirpc__policy_config__init(&pcs[i]);
    mp_value *props = schema_defaults(pi->configschema);
    const mp_value *entry = config ? mp_value_object_get(config, pi->name)
                                   : NULL;
    mp_policy_level l = (mp_policy_level)pi->enforcementlevel;
    if (has_all) l = all_level;
    entry_level(entry, &l);
    for (size_t k = 0; entry && entry->kind == MP_VALUE_OBJECT &&
                       k < entry->u.obj.len; k++)
      if (strcmp(entry->u.obj.items[k].key, "enforcementLevel"))
        mp_value_object_set(props, entry->u.obj.items[k].key,
                            mp_value_dup(entry->u.obj.items[k].value));
    size_t before = problems->len;
    if (!failed && check_config(a, dir, pi, props, problems, err) < 0)
      failed = 1;
    if (problems->len > before) invalid = 1;
    pcs[i].enforcementlevel = (Pulumirpc__EnforcementLevel)l;
    if (l == MP_POLICY_REMEDIATE) a->remediates = 1;
    pcs[i].properties = to_struct(props);
    mp_value_free(props);
    entries[i].key = pi->name;
    entries[i].value = &pcs[i];
    ptrs[i] = &entries[i];
  }
  req.n_policyconfig = n;
  req.policyconfig = ptrs;
  Google__Protobuf__Empty *ans = NULL;
  int unimpl = 0;
  int rc = failed    ? -1
           : invalid ? mp_err_set(err, MP_EINVAL, "validating policy config")
                     : rpc(a, "Configure", &req.base,
                         &google__protobuf__empty__descriptor, &ans, &unimpl,
                         err);
  if (ans) protobuf_c_message_free_unpacked(&ans->base, NULL);
  if (unimpl) rc = 0;
  for (size_t i = 0; i < n; i++) mp_value_pb_struct_free(pcs[i].properties);
  free(pcs);
  free(ptrs);
  free(entries);
  return rc;
}

/* ---- start and stop ---- */

static int setup(mp_analyzer *a, const char *dir, const mp_value *config,
                 mp_strv *problems, mp_err *err) {
  Pulumirpc__AnalyzerHandshakeRequest hq =
      PULUMIRPC__ANALYZER_HANDSHAKE_REQUEST__INIT;
  char addr[32];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d",
           mp_rpc_server_port(a->p->srv));
  hq.engine_address = addr;
  hq.root_directory_opt_case =
      PULUMIRPC__ANALYZER_HANDSHAKE_REQUEST__ROOT_DIRECTORY_OPT_ROOT_DIRECTORY;
  hq.root_directory = a->dir;
  hq.program_directory_opt_case =
      PULUMIRPC__ANALYZER_HANDSHAKE_REQUEST__PROGRAM_DIRECTORY_OPT_PROGRAM_DIRECTORY;
  hq.program_directory = a->dir;
  Pulumirpc__AnalyzerHandshakeResponse *hr = NULL;
  int unimpl = 0;
  int rc = rpc(a, "Handshake", &hq.base,
               &pulumirpc__analyzer_handshake_response__descriptor, &hr,
               &unimpl, err);
  if (hr) protobuf_c_message_free_unpacked(&hr->base, NULL);
  if (rc < 0 && !unimpl) return rc; /* UNIMPLEMENTED: an older pack */
  Google__Protobuf__Empty empty = GOOGLE__PROTOBUF__EMPTY__INIT;
  Pulumirpc__AnalyzerInfo *info = NULL;
  rc = rpc(a, "GetAnalyzerInfo", &empty.base,
           &pulumirpc__analyzer_info__descriptor, &info, NULL, err);
  if (rc < 0) return rc;
  a->name = dup0(info->name);
  a->version = dup0(info->version);
  if (!info->supportsconfig) { /* Pulumi: no Configure call then */
    rc = config ? mp_err_set(err, MP_EINVAL,
                             "policy pack \"%s\" at \"%s\" does not support "
                             "config",
                             a->name, dir)
                : 0;
  } else {
    rc = configure(a, dir, info, config, problems, err);
  }
  protobuf_c_message_free_unpacked(&info->base, NULL);
  return rc;
}

int mp_analyzer_start(mp_plugin_host *h, const char *dir,
                      const mp_value *config, mp_strv *problems,
                      mp_analyzer **out, mp_err *err) {
  *out = NULL;
  char real[PATH_MAX];
  if (realpath(dir, real) == NULL)
    return mp_err_set(err, MP_EIO, "policy pack %s: no such folder", dir);
  char *node = find_on_path(h->search_path, "node");
  char *run = find_run_policy_pack(real);
  if (node == NULL || run == NULL) {
    free(node);
    free(run);
    return mp_err_set(
        err, MP_EIO,
        node ? "policy pack %s: it looks like the policy pack's dependencies "
               "are not installed; try running npm install or yarn install "
               "in \"%s\""
             : "policy pack %s: node is not on the PATH (a Node.js policy "
               "pack runs with node)%s",
        dir, node ? real : "");
  }
  mp_analyzer *a = mp_xcalloc(1, sizeof(*a));
  a->dir = mp_xstrdup(real);
  const char *argv[] = {node, run, NULL};
  const char *tail[] = {".", NULL};
  mp_err e;
  mp_err_clear(&e);
  int rc = mp__plugin_spawn(h, "policy", argv, real, tail, NULL, &a->p, &e);
  free(node);
  free(run);
  if (rc < 0) mp_err_set(err, MP_EIO, "policy pack %s failed to start: %s",
                         dir, e.msg);
  else rc = setup(a, dir, config, problems, err);
  if (rc < 0) {
    mp_analyzer_stop(a);
    return rc < 0 ? rc : MP_EIO;
  }
  *out = a;
  return 0;
}

const char *mp_analyzer_name(const mp_analyzer *a) { return a->name; }
const char *mp_analyzer_version(const mp_analyzer *a) { return a->version; }

int mp_analyzer_failed(const mp_analyzer *a) {
  return atomic_load(&((mp_analyzer *)a)->failed);
}

/* Notes that an analysis call of |a| failed (|rc| < 0). */
static int noted(mp_analyzer *a, int rc) {
  if (rc < 0) atomic_store(&a->failed, 1);
  return rc;
}

void mp_analyzer_stop(mp_analyzer *a) {
  if (a == NULL) return;
  if (a->p) mp__plugin_release(a->p);
  free(a->dir);
  free(a->name);
  free(a->version);
  free(a);
}

/* ---- the analyses ---- */

/* |urn|: the resource analyzed (a pack may leave a diagnostic's own
 * empty), or NULL for the stack. */
static void add_diags(Pulumirpc__AnalyzeResponse *resp, const char *urn,
                      mp_policy_diags *out) {
  for (size_t i = 0; i < resp->n_diagnostics; i++) {
    const Pulumirpc__AnalyzeDiagnostic *d = resp->diagnostics[i];
    mp_policy_diag *x = diag_push(out);
    x->policy = dup0(d->policyname);
    x->pack = dup0(d->policypackname);
    x->pack_version = dup0(d->policypackversion);
    x->description = dup0(d->description);
    x->message = dup0(d->message);
    x->urn = dup0(d->urn && *d->urn ? d->urn : urn);
    x->level = (mp_policy_level)d->enforcementlevel;
    /* a stack policy cannot remediate: Pulumi's AnalyzeResources takes
     * the level as mandatory */
    if (urn == NULL && x->level == MP_POLICY_REMEDIATE)
      x->level = MP_POLICY_MANDATORY;
  }
}

/* What a request carries beside the resource's own fields: its options
 * and its provider, as Pulumi's marshalResourceOptions and
 * marshalProvider make them. The pointers borrow from |r|. */
typedef struct req_extra {
  Pulumirpc__AnalyzerResourceOptions o;
  Pulumirpc__AnalyzerResourceOptions__CustomTimeouts t;
  Pulumirpc__AnalyzerProviderResource p;
  char *provider_name;
} req_extra;

/* |props| without the engine's "__" keys (Pulumi: SkipInternalKeys). */
static mp_value *without_internal_keys(const mp_value *props) {
  mp_value *out = mp_value_new_object();
  for (size_t i = 0; props && props->kind == MP_VALUE_OBJECT &&
                     i < props->u.obj.len;
       i++)
    if (strncmp(props->u.obj.items[i].key, "__", 2) != 0)
      mp_value_object_set(out, props->u.obj.items[i].key,
                          mp_value_dup(props->u.obj.items[i].value));
  return out;
}

static void extra_init(req_extra *x, const mp_analyzer_resource *r) {
  memset(x, 0, sizeof(*x));
  pulumirpc__analyzer_resource_options__init(&x->o);
  pulumirpc__analyzer_resource_options__custom_timeouts__init(&x->t);
  pulumirpc__analyzer_provider_resource__init(&x->p);
  const mp_resource *st = r->state;
  if (st) {
    x->o.protect = st->protect;
    x->o.parent = st->parent ? st->parent : (char *)"";
    x->o.n_ignorechanges = st->ignore_changes.len;
    x->o.ignorechanges = st->ignore_changes.items;
    x->o.n_additionalsecretoutputs = st->additional_secret_outputs.len;
    x->o.additionalsecretoutputs = st->additional_secret_outputs.items;
    x->o.n_aliases = st->aliases.len;
    x->o.aliases = st->aliases.items;
    if (st->has_custom_timeouts) {
      x->t.create = st->custom_timeouts.create;
      x->t.update = st->custom_timeouts.update;
      x->t.delete_ = st->custom_timeouts.del;
    }
  }
  x->o.customtimeouts = &x->t; /* Pulumi always sends them */
  x->o.deletebeforereplacedefined = r->delete_before_replace >= 0;
  x->o.deletebeforereplace = r->delete_before_replace > 0;
  if (r->provider) {
    size_t nlen = 0;
    const char *nm = mp_urn_name(r->provider->urn, &nlen);
    x->provider_name = mp_xstrndup(nm ? nm : "", nm ? nlen : 0);
    x->p.type = r->provider->type;
    x->p.urn = r->provider->urn;
    x->p.name = x->provider_name;
    mp_value *props = without_internal_keys(r->provider->inputs);
    x->p.properties = to_struct(props);
    mp_value_free(props);
  }
}

static void extra_destroy(req_extra *x) {
  if (x->p.properties) mp_value_pb_struct_free(x->p.properties);
  free(x->provider_name);
}

static void fill_request(Pulumirpc__AnalyzeRequest *q, req_extra *x,
                         const mp_analyzer_resource *r) {
  pulumirpc__analyze_request__init(q);
  extra_init(x, r);
  q->type = (char *)r->type;
  q->urn = (char *)r->urn;
  q->name = (char *)r->name;
  q->properties = to_struct(r->props);
  q->options = &x->o;
  q->provider = r->provider ? &x->p : NULL;
}

int mp_analyzer_analyze(mp_analyzer *a, const mp_analyzer_resource *r,
                        mp_policy_diags *out, mp_err *err) {
  Pulumirpc__AnalyzeRequest q;
  req_extra x;
  fill_request(&q, &x, r);
  Pulumirpc__AnalyzeResponse *resp = NULL;
  int rc = rpc(a, "Analyze", &q.base, &pulumirpc__analyze_response__descriptor,
               &resp, NULL, err);
  mp_value_pb_struct_free(q.properties);
  extra_destroy(&x);
  if (rc == 0) add_diags(resp, r->urn, out);
  if (resp) protobuf_c_message_free_unpacked(&resp->base, NULL);
  return noted(a, rc);
}

/* The keys of |v| (an OBJECT or NULL) that |pick| keeps, sorted. */
static void put_keys(mp_buf *b, const char *sym, const mp_value *from,
                     const mp_value *other, int changed) {
  int n = 0;
  for (size_t i = 0; from && from->kind == MP_VALUE_OBJECT &&
                     i < from->u.obj.len;
       i++) {
    const char *k = from->u.obj.items[i].key;
    const mp_value *o = other ? mp_value_object_get(other, k) : NULL;
    int keep = changed ? o && !mp_value_equal(o, from->u.obj.items[i].value, 0)
                       : o == NULL;
    if (!keep) continue;
    mp_buf_printf(b, "%s%s", n++ ? "," : sym, k);
  }
}

/* Pulumi's short diff of a remediation: "+added-deleted~updated". Object
 * keys are kept sorted (engine/value.h), as Pulumi sorts them. */
static char *short_diff(const mp_value *before, const mp_value *after) {
  mp_buf b;
  mp_buf_init(&b);
  put_keys(&b, "+", after, before, 0);
  put_keys(&b, "-", before, after, 0);
  put_keys(&b, "~", after, before, 1);
  return b.data ? mp_buf_detach(&b, NULL) : mp_xstrdup("");
}

int mp_analyzer_remediate(mp_analyzer *a, const mp_analyzer_resource *r,
                          mp_value **props, mp_policy_diags *out,
                          mp_err *err) {
  *props = NULL;
  /* A pack remediates only with policies at that level (@pulumi/policy
   * skips the others): no round trip for nothing. */
  if (!a->remediates) return 0;
  Pulumirpc__AnalyzeRequest q;
  req_extra x;
  fill_request(&q, &x, r);
  Pulumirpc__RemediateResponse *resp = NULL;
  int unimpl = 0;
  int rc = rpc(a, "Remediate", &q.base,
               &pulumirpc__remediate_response__descriptor, &resp, &unimpl, err);
  mp_value_pb_struct_free(q.properties);
  extra_destroy(&x);
  if (unimpl) rc = 0;
  for (size_t i = 0; rc == 0 && resp && i < resp->n_remediations; i++) {
    const Pulumirpc__Remediation *m = resp->remediations[i];
    mp_policy_diag *x = diag_push(out);
    x->policy = dup0(m->policyname);
    x->pack = dup0(m->policypackname);
    x->pack_version = dup0(m->policypackversion);
    x->description = dup0(m->description);
    x->message = dup0(m->diagnostic);
    x->urn = dup0(r->urn);
    x->level = MP_POLICY_REMEDIATE;
    if (m->diagnostic && m->diagnostic[0]) {
      /* a remediation that could not run (@pulumi/policy: it read a
       * value unknown in a preview): Pulumi's step generator reports it
       * as an advisory violation and keeps the inputs */
      x->level = MP_POLICY_ADVISORY;
      continue;
    }
    if (m->properties) {
      mp_value *v = NULL;
      if (mp_value_from_pb_struct(m->properties, &v, err) < 0) {
        rc = MP_EPROTO;
        break;
      }
      x->diff = short_diff(*props ? *props : r->props, v);
      x->before = mp_value_dup(*props ? *props : r->props);
      x->after = mp_value_dup(v);
      mp_value_free(*props);
      *props = v;
    } else {
      x->diff = mp_xstrdup("");
    }
  }
  if (resp) protobuf_c_message_free_unpacked(&resp->base, NULL);
  if (rc < 0) {
    mp_value_free(*props);
    *props = NULL;
  }
  return noted(a, rc);
}

/* A resource's property dependencies as AnalyzerResource's map. */
static void set_propdeps(Pulumirpc__AnalyzerResource *res,
                         const mp_resource *st) {
  size_t n = st ? st->property_dependencies.len : 0;
  if (n == 0) return;
  res->n_propertydependencies = n;
  res->propertydependencies = mp_xcalloc(n, sizeof(void *));
  for (size_t i = 0; i < n; i++) {
    const mp_propdep *pd = &st->property_dependencies.items[i];
    Pulumirpc__AnalyzerResource__PropertyDependenciesEntry *e =
        mp_xcalloc(1, sizeof(*e));
    Pulumirpc__AnalyzerPropertyDependencies *v = mp_xcalloc(1, sizeof(*v));
    pulumirpc__analyzer_resource__property_dependencies_entry__init(e);
    pulumirpc__analyzer_property_dependencies__init(v);
    v->n_urns = pd->urns.len;
    v->urns = pd->urns.items;
    e->key = pd->key;
    e->value = v;
    res->propertydependencies[i] = e;
  }
}

static void free_propdeps(Pulumirpc__AnalyzerResource *res) {
  for (size_t i = 0; i < res->n_propertydependencies; i++) {
    free(res->propertydependencies[i]->value);
    free(res->propertydependencies[i]);
  }
  free(res->propertydependencies);
}

int mp_analyzer_analyze_stack(mp_analyzer *a, const mp_analyzer_resource *rs,
                              size_t n, mp_policy_diags *out, mp_err *err) {
  Pulumirpc__AnalyzerResource *res = mp_xcalloc(n ? n : 1, sizeof(*res));
  Pulumirpc__AnalyzerResource **ptrs = mp_xcalloc(n ? n : 1, sizeof(*ptrs));
  req_extra *xs = mp_xcalloc(n ? n : 1, sizeof(*xs));
  for (size_t i = 0; i < n; i++) {
    pulumirpc__analyzer_resource__init(&res[i]);
    extra_init(&xs[i], &rs[i]);
    res[i].type = (char *)rs[i].type;
    res[i].urn = (char *)rs[i].urn;
    res[i].name = (char *)rs[i].name;
    res[i].parent = (char *)(rs[i].parent ? rs[i].parent : "");
    res[i].properties = to_struct(rs[i].props);
    res[i].options = &xs[i].o;
    res[i].provider = rs[i].provider ? &xs[i].p : NULL;
    if (rs[i].state) {
      res[i].n_dependencies = rs[i].state->dependencies.len;
      res[i].dependencies = rs[i].state->dependencies.items;
    }
    set_propdeps(&res[i], rs[i].state);
    ptrs[i] = &res[i];
  }
  Pulumirpc__AnalyzeStackRequest q = PULUMIRPC__ANALYZE_STACK_REQUEST__INIT;
  q.n_resources = n;
  q.resources = ptrs;
  Pulumirpc__AnalyzeResponse *resp = NULL;
  int unimpl = 0;
  int rc = rpc(a, "AnalyzeStack", &q.base,
               &pulumirpc__analyze_response__descriptor, &resp, &unimpl, err);
  if (unimpl) rc = 0;
  if (rc == 0 && resp) add_diags(resp, NULL, out);
  if (resp) protobuf_c_message_free_unpacked(&resp->base, NULL);
  for (size_t i = 0; i < n; i++) {
    mp_value_pb_struct_free(res[i].properties);
    free_propdeps(&res[i]);
    extra_destroy(&xs[i]);
  }
  free(xs);
  free(res);
  free(ptrs);
  return noted(a, rc);
}
