#include "monitor/marshal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "engine/asset_hash.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"

static char *opt_str(const char *s) { return (s && s[0]) ? mp_xstrdup(s) : NULL; }

static void strv_from(mp_strv *v, char **items, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (items[i] && items[i][0]) mp_strv_push(v, items[i]);
}

int mp__monitor_parse_duration(const char *s, double *out, mp_err *err) {
  double total = 0;
  const char *p = s;
  if (s == NULL || *s == '\0') {
    *out = 0;
    return 0;
  }
  while (*p) {
    char *end = NULL;
    double n = strtod(p, &end);
    if (end == p) break;
    double unit = 0;
    if (strncmp(end, "ms", 2) == 0) unit = 0.001, end += 2;
    else if (*end == 'h') unit = 3600, end++;
    else if (*end == 'm') unit = 60, end++;
    else if (*end == 's') unit = 1, end++;
    else break;
    total += n * unit;
    p = end;
  }
  if (*p)
    return mp_err_set(err, MP_EINVAL,
                      "invalid duration '%s': use a number with a unit, e.g. "
                      "\"5m\" or \"1h30m\"",
                      s);
  *out = total;
  return 0;
}

static int timeouts(mp_goal *g,
                    const Pulumirpc__RegisterResourceRequest__CustomTimeouts *t,
                    mp_err *err) {
  if (t == NULL) return 0;
  const char *v[4] = {t->create, t->update, t->delete_, t->read};
  double *d[4] = {&g->timeouts.create, &g->timeouts.update, &g->timeouts.del,
                  &g->timeouts.read};
  for (int i = 0; i < 4; i++) {
    *d[i] = 0;
    if (v[i] && v[i][0]) {
      if (mp__monitor_parse_duration(v[i], d[i], err) < 0) return err->code;
      g->has_timeouts = 1;
    }
  }
  return 0;
}

static void aliases(mp_goal *g, const Pulumirpc__RegisterResourceRequest *q) {
  for (size_t i = 0; i < q->n_aliases; i++) {
    const Pulumirpc__Alias *a = q->aliases[i];
    mp_alias x = {0};
    if (a->alias_case == PULUMIRPC__ALIAS__ALIAS_URN) {
      x.urn = a->urn;
    } else if (a->alias_case == PULUMIRPC__ALIAS__ALIAS_SPEC && a->spec) {
      const Pulumirpc__Alias__Spec *s = a->spec;
      x.name = (s->name && s->name[0]) ? s->name : NULL;
      x.type = (s->type && s->type[0]) ? s->type : NULL;
      x.stack = (s->stack && s->stack[0]) ? s->stack : NULL;
      x.project = (s->project && s->project[0]) ? s->project : NULL;
      if (s->parent_case == PULUMIRPC__ALIAS__SPEC__PARENT_PARENT_URN)
        x.parent_urn = (s->parenturn && s->parenturn[0]) ? s->parenturn : NULL;
      else if (s->parent_case == PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT)
        x.no_parent = s->noparent;
    } else {
      continue;
    }
    mp_goal_add_alias(g, &x);
  }
  for (size_t i = 0; i < q->n_aliasurns; i++) {
    mp_alias x = {0};
    x.urn = q->aliasurns[i];
    if (x.urn && x.urn[0]) mp_goal_add_alias(g, &x);
  }
}

/* An explicit provider resource asked for a plugin version or download URL
 * has them among its inputs, as a default provider does (Pulumi's
 * RegisterResource, pkg/resource/deploy/source_eval.go). */
static void provider_plugin_inputs(mp_goal *g,
                                   const Pulumirpc__RegisterResourceRequest *q) {
  if (!mp_type_is_provider(g->type) || g->inputs == NULL ||
      g->inputs->kind != MP_VALUE_OBJECT)
    return;
  if (g->version) mp_provider_inputs_set_version(g->inputs, g->version);
  if (g->plugin_download_url)
    mp_provider_inputs_set_url(g->inputs, g->plugin_download_url);
  if (q->n_envvarmappings > 0) {
    mp_value *m = mp_value_new_object();
    for (size_t i = 0; i < q->n_envvarmappings; i++)
      if (q->envvarmappings[i]->key)
        mp_value_object_set(m, q->envvarmappings[i]->key,
                            mp_value_new_cstring(q->envvarmappings[i]->value
                                                     ? q->envvarmappings[i]->value
                                                     : ""));
    mp_provider_inputs_set_env_vars(g->inputs, m);
  }
}

/* A SourcePosition as the state keeps it ("<uri>#<line>,<column>"), or
 * NULL. */
static char *source_position(const Pulumirpc__SourcePosition *sp) {
  if (sp == NULL || sp->uri == NULL || sp->uri[0] == '\0') return NULL;
  return mp_xasprintf("%s#%d,%d", sp->uri, sp->line, sp->column);
}

/* replacementTrigger: any value; a null one is no trigger. */
static int replacement_trigger(mp_goal *g, const Google__Protobuf__Value *pb,
                               mp_err *err) {
  if (pb == NULL ||
      pb->kind_case == GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET ||
      pb->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE)
    return 0;
  int rc = mp_value_from_pb(pb, &g->replacement_trigger, err);
  return rc < 0 ? mp_err_prefix(err, "replacementTrigger") : 0;
}

int mp__monitor_goal_from_register(const Pulumirpc__RegisterResourceRequest *q,
                                   const mp_asset_hash_opts *assets,
                                   mp_goal **out, mp_err *err) {
  *out = NULL;
  if (q->type == NULL || q->type[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "RegisterResource: missing type");
  if (q->name == NULL || q->name[0] == '\0')
    return mp_err_set(err, MP_EINVAL,
                      "RegisterResource of a '%s': missing name", q->type);
  /* What we do not act on is refused, not ignored: state migrations (a
   * feature we do not advertise), plugin checksums (no download here
   * checks them) and snippets. */
  const char *refused = q->n_state_migrations > 0 ? "state migrations"
                        : q->n_pluginchecksums > 0 ? "pluginChecksums"
                        : q->snippetid && q->snippetid[0] ? "snippetId"
                                                          : NULL;
  if (refused)
    return mp_err_set(err, MP_EINVAL,
                      "RegisterResource '%s': %s are not supported by this "
                      "engine; remove them from the resource",
                      q->name, refused);
  /* Pulumi's monitor refuses the option on anything but a provider
   * (lifecycletest TestEnvVarMappingsOnNonProviderFails). */
  if (q->n_envvarmappings > 0 && !mp_type_is_provider(q->type))
    return mp_err_set(err, MP_EINVAL,
                      "RegisterResource '%s': envVarMappings can only be used "
                      "with provider resources, and '%s' is not a provider; "
                      "set it on the provider resource that serves it",
                      q->name, q->type);
  mp_goal *g = mp_goal_new(q->type, q->name, q->custom);
  mp_value_free(g->inputs);
  g->inputs = NULL;
  int rc = mp_value_from_pb_struct(q->object, &g->inputs, err);
  /* Pulumi's monitor computes the hashes of the assets it is sent. */
  if (rc == 0 && assets) rc = mp_value_hash_assets(g->inputs, assets, err);
  if (rc == 0 && !assets) mp_value_hash_text_assets(g->inputs);
  if (rc == 0) rc = timeouts(g, q->customtimeouts, err);
  if (rc == 0) rc = replacement_trigger(g, q->replacement_trigger, err);
  if (rc == 0 && assets)
    rc = mp_value_hash_assets(g->replacement_trigger, assets, err);
  if (rc == 0 && !assets) mp_value_hash_text_assets(g->replacement_trigger);
  if (rc < 0) {
    mp_err_prefix(err, "RegisterResource '%s'", q->name);
    mp_goal_free(g);
    return rc;
  }
  g->parent = opt_str(q->parent);
  g->provider = opt_str(q->provider);
  strv_from(&g->dependencies, q->dependencies, q->n_dependencies);
  for (size_t i = 0; i < q->n_propertydependencies; i++) {
    const Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *e =
        q->propertydependencies[i];
    mp_propdep *pd = mp_propdeps_get(&g->propdeps, e->key);
    if (e->value) strv_from(&pd->urns, e->value->urns, e->value->n_urns);
    g->has_propdeps = 1;
  }
  if (q->protect_opt_case == PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT)
    g->protect = q->protect ? 1 : 0;
  if (q->retain_on_delete_opt_case ==
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE)
    g->retain_on_delete = q->retainondelete ? 1 : 0;
  if (q->deletebeforereplacedefined) g->dbr = q->deletebeforereplace ? 1 : 0;
  else if (q->deletebeforereplace) g->dbr = 1;
  strv_from(&g->ignore_changes, q->ignorechanges, q->n_ignorechanges);
  strv_from(&g->replace_on_changes, q->replaceonchanges, q->n_replaceonchanges);
  strv_from(&g->additional_secret_outputs, q->additionalsecretoutputs,
            q->n_additionalsecretoutputs);
  strv_from(&g->hide_diffs, q->hidediffs, q->n_hidediffs);
  if (q->hooks) {
    const Pulumirpc__RegisterResourceRequest__ResourceHooksBinding *h = q->hooks;
    strv_from(&g->hooks[MP_HOOK_BEFORE_CREATE], h->before_create, h->n_before_create);
    strv_from(&g->hooks[MP_HOOK_AFTER_CREATE], h->after_create, h->n_after_create);
    strv_from(&g->hooks[MP_HOOK_BEFORE_UPDATE], h->before_update, h->n_before_update);
    strv_from(&g->hooks[MP_HOOK_AFTER_UPDATE], h->after_update, h->n_after_update);
    strv_from(&g->hooks[MP_HOOK_BEFORE_DELETE], h->before_delete, h->n_before_delete);
    strv_from(&g->hooks[MP_HOOK_AFTER_DELETE], h->after_delete, h->n_after_delete);
    strv_from(&g->hooks[MP_HOOK_ON_ERROR], h->on_error, h->n_on_error);
  }
  strv_from(&g->replace_with, q->replace_with, q->n_replace_with);
  aliases(g, q);
  g->deleted_with = opt_str(q->deletedwith);
  g->import_id = opt_str(q->importid);
  g->version = opt_str(q->version);
  g->plugin_download_url = opt_str(q->plugindownloadurl);
  provider_plugin_inputs(g, q);
  g->source_position = source_position(q->sourceposition);
  *out = g;
  return 0;
}

int mp__monitor_goal_from_read(const Pulumirpc__ReadResourceRequest *q,
                               mp_goal **out, mp_err *err) {
  *out = NULL;
  if (q->type == NULL || q->type[0] == '\0' || q->name == NULL ||
      q->name[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "ReadResource: missing type or name");
  if (q->id == NULL || q->id[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "ReadResource '%s': missing id", q->name);
  if (q->n_pluginchecksums > 0)
    return mp_err_set(err, MP_EINVAL,
                      "ReadResource '%s': pluginChecksums are not supported "
                      "by this engine; remove them from the read",
                      q->name);
  mp_goal *g = mp_goal_new(q->type, q->name, 1);
  mp_value_free(g->inputs);
  g->inputs = NULL;
  int rc = mp_value_from_pb_struct(q->properties, &g->inputs, err);
  if (rc < 0) {
    mp_goal_free(g);
    return rc;
  }
  g->is_read = 1;
  g->read_id = mp_xstrdup(q->id);
  g->parent = opt_str(q->parent);
  g->provider = opt_str(q->provider);
  g->version = opt_str(q->version);
  /* The default provider's download URL, and the state's source position,
   * as Pulumi's ReadResource keeps them. */
  g->plugin_download_url = opt_str(q->plugindownloadurl);
  g->source_position = source_position(q->sourceposition);
  strv_from(&g->dependencies, q->dependencies, q->n_dependencies);
  strv_from(&g->additional_secret_outputs, q->additionalsecretoutputs,
            q->n_additionalsecretoutputs);
  *out = g;
  return 0;
}

static Google__Protobuf__Struct *outputs_struct(const mp_resource *st,
                                                unsigned flags) {
  Google__Protobuf__Struct *s = NULL;
  const mp_value *outs = st->outputs;
  /* Components get empty outputs back (S07). */
  if (!st->custom) outs = NULL;
  if (mp_value_to_pb_struct(outs, flags, &s, NULL) < 0) s = NULL;
  return s;
}

Pulumirpc__RegisterResourceResponse *
mp__monitor_register_response(const mp_resource *st, unsigned flags,
                              int preview) {
  Pulumirpc__RegisterResourceResponse *r = mp_xcalloc(1, sizeof(*r));
  pulumirpc__register_resource_response__init(r);
  r->urn = mp_xstrdup(st->urn);
  r->id = mp_xstrdup(st->id ? st->id : "");
  if (preview && st->id && strcmp(st->id, MP_UNKNOWN_SENTINEL) == 0) {
    free(r->id);
    r->id = mp_xstrdup("");
  }
  r->object = outputs_struct(st, flags);
  r->result = PULUMIRPC__RESULT__SUCCESS;
  return r;
}

void mp__monitor_register_response_free(Pulumirpc__RegisterResourceResponse *r) {
  if (r == NULL) return;
  free(r->urn);
  free(r->id);
  mp_value_pb_struct_free(r->object);
  free(r);
}

Pulumirpc__ReadResourceResponse *mp__monitor_read_response(const mp_resource *st,
                                                           unsigned flags) {
  Pulumirpc__ReadResourceResponse *r = mp_xcalloc(1, sizeof(*r));
  pulumirpc__read_resource_response__init(r);
  r->urn = mp_xstrdup(st->urn);
  r->properties = outputs_struct(st, flags);
  return r;
}

void mp__monitor_read_response_free(Pulumirpc__ReadResourceResponse *r) {
  if (r == NULL) return;
  free(r->urn);
  mp_value_pb_struct_free(r->properties);
  free(r);
}
