/* What each step asks of its provider (worker thread). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/res_diff.h"
#include "engine/urn.h"
#include "stepexec/exec_int.h"

int mp__exec_needs_worker(const mp_step *s) {
  if (mp_step_has_hooks(s)) return 1; /* the hooks call the program */
  if (s->op == MP_OP_REFRESH) return !(s->flags & MP_STEP_NO_CALL);
  if (s->flags & MP_STEP_PROVIDER_RES)
    return s->op == MP_OP_CREATE || s->op == MP_OP_CREATE_REPLACEMENT ||
           s->op == MP_OP_UPDATE || s->op == MP_OP_SAME;
  if (s->flags & MP_STEP_NO_CALL) return 0;
  return (mp_op_info_of(s->op)->flags & MP_OP_CALLS_PROVIDER) != 0;
}

static void set_str(char **dst, const char *v) {
  free(*dst);
  *dst = mp_xstrdup(v);
}

static void stamp(mp_resource *r, int created) {
  char *now = mp_now_rfc3339();
  if (created || r->created == NULL) set_str(&r->created, now);
  set_str(&r->modified, now);
  free(now);
}

/* Outputs named in additionalSecretOutputs, and plain outputs whose
 * same-named input is secret, become secret (S16). */
static void mark_secrets(mp_resource *r) {
  if (r->outputs == NULL || r->outputs->kind != MP_VALUE_OBJECT) return;
  for (size_t i = 0; i < r->outputs->u.obj.len; i++) {
    mp_value_entry *e = &r->outputs->u.obj.items[i];
    if (e->value->kind == MP_VALUE_SECRET) continue;
    const mp_value *in = mp_value_object_get(r->inputs, e->key);
    int secret = mp_strv_contains(&r->additional_secret_outputs, e->key) ||
                 (in && in->kind == MP_VALUE_SECRET);
    if (secret && strcmp(e->key, "id") != 0)
      e->value = mp_value_new_secret(e->value);
  }
}

/* Provider resources: the engine makes the id and configures the plugin;
 * outputs are the inputs without __internal. */
static int provider_resource(mp_registry *registry, mp_step *s, int preview,
                             mp_err *err) {
  mp_resource *n = s->new_;
  if (s->op == MP_OP_CREATE || s->op == MP_OP_CREATE_REPLACEMENT) {
    free(n->id);
    n->id = preview ? mp_xstrdup(MP_UNKNOWN_SENTINEL) : mp_uuid_new();
    stamp(n, 1);
  } else if (s->op == MP_OP_UPDATE) {
    stamp(n, 0);
  }
  if (n->id == NULL && s->old) n->id = mp_xstrdup(s->old->id);
  mp_value_free(n->outputs);
  n->outputs = n->inputs ? mp_value_dup(n->inputs) : mp_value_new_object();
  mp_value_object_del(n->outputs, "__internal");
  return mp_registry_load(registry, n, err);
}

static mp_provider *provider_of(mp_registry *registry, const mp_step *s,
                                mp_err *err) {
  if (s->provider == NULL)
    return mp_err_set(err, MP_EINVAL, "resource '%s' has no provider", s->urn),
           NULL;
  /* An extension's resource: the instance loaded with its extension
   * (from the program, or the prior snapshot for an old state). */
  const mp_resource *st = s->new_ ? s->new_ : s->old;
  mp_provider *p = mp_registry_get_for(registry, s->provider,
                                       st ? st->extension_ref : NULL, err);
  if (p == NULL) mp_err_prefix(err, "resource '%s'", s->urn);
  return p;
}

static void name_of(const char *urn, char *buf, size_t cap) {
  size_t n = 0;
  const char *p = mp_urn_name(urn, &n);
  if (p == NULL) p = "", n = 0;
  if (n >= cap) n = cap - 1;
  memcpy(buf, p, n);
  buf[n] = '\0';
}

/* A request naming |res| (urn, name, type, id); |name| is caller storage
 * for the name part of the URN. */
static void req_for(mp_prov_req *q, const mp_resource *res, char *name,
                    size_t cap) {
  memset(q, 0, sizeof(*q));
  name_of(res->urn, name, cap);
  q->urn = res->urn;
  q->name = name;
  q->type = res->type;
  q->id = res->id;
}

/* One provider call: the request naming a resource, and the answer. */
typedef struct call {
  char name[256]; /* the name part of the URN; q.name points here */
  mp_prov_req q;
  mp_prov_resp r;
} call;

/* A request naming |res| and an empty answer. |c| must not move. */
static void call_begin(call *c, const mp_resource *res) {
  req_for(&c->q, res, c->name, sizeof(c->name));
  mp_prov_resp_init(&c->r);
}

/* The request is about the prior state |o|: its id, outputs and inputs. */
static void about_old(call *c, const mp_resource *o) {
  c->q.id = o->id;
  c->q.olds = o->outputs;
  c->q.old_inputs = o->inputs;
}

/* Moves the provider's warnings to the step, to be shown when it ends,
 * frees the answer and returns |rc|. */
static int call_end(mp_step *s, call *c, int rc) {
  for (size_t i = 0; i < c->r.warnings.len; i++)
    mp_strv_push(&s->warnings, c->r.warnings.items[i]);
  mp_prov_resp_destroy(&c->r);
  return rc;
}

static int take_result(mp_step *s, mp_prov_resp *r, int *partial) {
  mp_resource *n = s->new_;
  if (r->id && r->id[0]) set_str(&n->id, r->id);
  if (r->outputs) {
    mp_value_free(n->outputs);
    n->outputs = r->outputs;
    r->outputs = NULL;
  }
  mp_strv_destroy(&n->init_errors);
  if (r->partial) {
    *partial = 1;
    mp_strv_copy(&n->init_errors, &r->init_errors);
  }
  mark_secrets(n);
  return 0;
}

static int do_create(mp_provider *p, mp_step *s, int preview, int *partial,
                     mp_err *err) {
  mp_resource *n = s->new_;
  call c;
  call_begin(&c, n);
  c.q.news = n->inputs;
  c.q.preview = preview;
  c.q.timeout = n->has_custom_timeouts ? n->custom_timeouts.create : 0;
  int rc = p->vt->create ? p->vt->create(p, &c.q, &c.r, err)
                         : mp_err_set(err, MP_EPLUGIN, "provider has no Create");
  if (rc == 0 || c.r.partial) take_result(s, &c.r, partial);
  if (rc == 0 && !preview && (n->id == NULL || n->id[0] == '\0'))
    rc = mp_err_set(err, MP_EPLUGIN, "provider did not return an ID from Create");
  if (!preview) stamp(n, 1);
  return call_end(s, &c, rc);
}

static int do_update(mp_provider *p, mp_step *s, int preview, int *partial,
                     mp_err *err) {
  mp_resource *n = s->new_;
  call c;
  call_begin(&c, n);
  about_old(&c, s->old);
  c.q.news = n->inputs;
  c.q.ignore_changes = &n->ignore_changes;
  c.q.preview = preview;
  c.q.timeout = n->has_custom_timeouts ? n->custom_timeouts.update : 0;
  set_str(&n->id, s->old->id);
  int rc = p->vt->update ? p->vt->update(p, &c.q, &c.r, err)
                         : mp_err_set(err, MP_EPLUGIN, "provider has no Update");
  if (rc == 0 || c.r.partial) take_result(s, &c.r, partial);
  if (!preview) stamp(n, 0);
  return call_end(s, &c, rc);
}

static int do_delete(mp_provider *p, mp_step *s, mp_err *err) {
  const mp_resource *o = s->old;
  call c;
  call_begin(&c, o);
  about_old(&c, o);
  c.q.timeout = o->has_custom_timeouts ? o->custom_timeouts.del : 0;
  int rc = p->vt->del ? p->vt->del(p, &c.q, &c.r, err) : 0;
  return call_end(s, &c, rc);
}

/* ---- error hooks: a failed create, update or delete tried again ---- */

/* The provider call of a create, update or delete step. */
static int do_write(mp_provider *p, mp_step *s, int preview, int *partial,
                    mp_err *err) {
  switch (s->op) {
  case MP_OP_CREATE:
  case MP_OP_CREATE_REPLACEMENT:
    return do_create(p, s, preview, partial, err);
  case MP_OP_UPDATE:
    return do_update(p, s, preview, partial, err);
  default:
    return do_delete(p, s, err);
  }
}

static const char *write_name(mp_step_op op) {
  if (op == MP_OP_CREATE || op == MP_OP_CREATE_REPLACEMENT) return "create";
  return op == MP_OP_UPDATE ? "update" : "delete";
}

/* do_write, asking the resource's error hooks after each failure whether
 * to try again, as Pulumi's withRetries does: they see every error so
 * far, newest first; the provider is called at most
 * MP_ERROR_HOOK_MAX_TRIES times, the last failure not offered to them. A
 * hook that fails ends the step with its error, a "no" with the
 * provider's. */
static int write_with_retries(mp_provider *p, const mp_stepexec_hooks *h,
                              mp_step *s, int preview, int *partial,
                              mp_err *err) {
  const char *op = write_name(s->op);
  int hooked = h && h->error_hooks && mp_step_hook_names(s, MP_HOOK_ON_ERROR);
  mp_strv errors; /* newest first */
  mp_strv_init(&errors);
  int rc;
  for (;;) {
    *partial = 0;
    mp_err_clear(err);
    rc = do_write(p, s, preview, partial, err);
    if (rc == 0 || !hooked) break;
    mp_strv_push(&errors, err->msg); /* then moved to the front */
    char *newest = errors.items[errors.len - 1];
    memmove(&errors.items[1], &errors.items[0],
            (errors.len - 1) * sizeof(errors.items[0]));
    errors.items[0] = newest;
    if (errors.len >= MP_ERROR_HOOK_MAX_TRIES) {
      mp_strv_push_take(&s->warnings,
                        mp_xasprintf("maximum number of error hook retries "
                                     "(%d) reached",
                                     MP_ERROR_HOOK_MAX_TRIES));
      rc = mp_err_set(err, MP_EPLUGIN,
                      "maximum number of error hook retries reached");
      break;
    }
    int retry = 0;
    mp_err herr;
    mp_err_clear(&herr);
    if (h->error_hooks(h->ud, s, op, &errors, &retry, &herr) < 0) {
      rc = mp_err_set(err, herr.code, "error hooks execution failed: %s",
                      herr.msg);
      break;
    }
    if (!retry) break;
    mp_strv_push_take(&s->warnings,
                      mp_xasprintf("retrying %s due to on-error hook request "
                                   "(%zu/%d)",
                                   op, errors.len, MP_ERROR_HOOK_MAX_TRIES));
  }
  mp_strv_destroy(&errors);
  if (rc < 0 && *partial && s->op == MP_OP_UPDATE) {
    /* A partial update keeps the old inputs (S13). */
    mp_value_free(s->new_->inputs);
    s->new_->inputs = mp_value_dup(s->old->inputs);
  }
  return rc;
}

/* Read (external resources) and import (read by id, no inputs). */
/* Drops every key of object |inputs| that |keep| does not name (Pulumi's
 * import with supplied properties); an empty |keep| keeps all. */
static void keep_only(mp_value *inputs, const mp_strv *keep) {
  if (keep->len == 0 || inputs == NULL || inputs->kind != MP_VALUE_OBJECT)
    return;
  for (size_t i = inputs->u.obj.len; i-- > 0;) {
    int wanted = 0;
    for (size_t k = 0; k < keep->len && !wanted; k++)
      wanted = strcmp(inputs->u.obj.items[i].key, keep->items[k]) == 0;
    if (wanted) continue;
    char *key = mp_xstrdup(inputs->u.obj.items[i].key);
    mp_value_free(mp_value_object_take(inputs, key));
    free(key);
  }
}

static int do_read(mp_provider *p, mp_step *s, int import, int *partial,
                   mp_err *err) {
  mp_resource *n = s->new_;
  call c;
  call_begin(&c, n);
  c.q.id = n->id;
  if (!import) {
    c.q.olds = n->inputs;
    c.q.old_inputs = n->inputs;
  }
  int rc = p->vt->read ? p->vt->read(p, &c.q, &c.r, err)
                       : mp_err_set(err, MP_EPLUGIN, "provider has no Read");
  if (rc == 0 && (c.r.outputs == NULL || c.r.id == NULL || c.r.id[0] == '\0'))
    rc = mp_err_set(err, MP_EPLUGIN, "resource '%s' does not exist", n->id);
  if (rc == 0 && import && c.r.inputs == NULL) {
    char *pkg = mp_type_package(n->type);
    rc = mp_err_set(err, MP_EPLUGIN,
                    "provider does not support importing resources; please "
                    "try updating the '%s' plugin",
                    pkg ? pkg : "");
    free(pkg);
  }
  if (rc == 0 || c.r.partial) {
    if (import && c.r.inputs) {
      mp_value_free(n->inputs);
      n->inputs = c.r.inputs;
      c.r.inputs = NULL;
      keep_only(n->inputs, &s->import_keep);
    }
    take_result(s, &c.r, partial);
    stamp(n, 1);
  }
  return call_end(s, &c, rc);
}

/* What follows an import (Pulumi's continueStepsFromImport, then its
 * generateStepsFromDiff): the program's inputs, the imported values of
 * their ignoreChanges paths kept, are checked against the imported inputs
 * and diffed by the provider with the imported state, replaceOnChanges
 * applied; the loop thread acts on the outcome (stepexec.c,
 * import_followup). */
static int import_diff(mp_provider *p, mp_step *s, int preview, mp_err *err) {
  mp_resource *n = s->new_;
  int rc = 0;
  if (n->ignore_changes.len > 0 && n->inputs)
    (void)mp_value_apply_ignore_changes(n->inputs, s->goal_inputs,
                                        &n->ignore_changes, NULL, NULL);
  if (p->vt->check) {
    call c;
    call_begin(&c, n);
    c.q.id = NULL;
    c.q.olds = n->inputs;
    c.q.news = s->goal_inputs;
    c.q.preview = preview;
    rc = p->vt->check(p, &c.q, &c.r, err);
    if (rc == 0 && c.r.nfailures > 0) {
      mp_resource checked = *n;
      checked.inputs = s->goal_inputs;
      rc = mp_res_check_failures(&checked, &c.r, err);
    }
    if (rc == 0 && c.r.inputs) {
      mp_value_free(s->goal_inputs);
      s->goal_inputs = c.r.inputs;
      c.r.inputs = NULL;
    }
    if ((rc = call_end(s, &c, rc)) < 0) return rc;
  }
  mp_res_diff *d = mp_xcalloc(1, sizeof(*d));
  mp_res_diff_init(d);
  s->import_diff = d;
  call c;
  call_begin(&c, n);
  c.q.olds = n->outputs;
  c.q.old_inputs = n->inputs;
  c.q.news = s->goal_inputs;
  c.q.ignore_changes = &n->ignore_changes;
  c.q.preview = preview;
  if (p->vt->diff) rc = p->vt->diff(p, &c.q, &c.r, err);
  if (rc == 0 && mp_res_diff_no_opinion(&c.r))
    mp_res_diff_compare(n->inputs, s->goal_inputs, d);
  else if (rc == 0)
    mp_res_diff_from_answer(&c.r, d);
  if (rc == 0)
    mp_res_diff_replace_on_changes(&n->replace_on_changes,
                                   n->init_errors.len > 0, d);
  if (rc < 0) mp_err_prefix(err, "diffing %s", s->urn);
  return call_end(s, &c, rc);
}

/* Pulumi's refresh diff (RefreshStep.Apply): the Diff an `up` of the
 * unchanged program would see right after this refresh, with what was read
 * (inputs and outputs) as the old side and the inputs before as the new
 * one, turned around so that it reads from the state to the world. Where
 * the provider has no opinion the engine compares the inputs, the
 * resource's ignoreChanges paths kept as read. */
static int refresh_diff(mp_provider *p, mp_step *s, mp_err *err) {
  const mp_resource *o = s->old;
  const mp_resource *n = s->new_;
  call c;
  call_begin(&c, n);
  c.q.id = n->id;
  c.q.olds = n->outputs;
  c.q.old_inputs = n->inputs;
  c.q.news = o->inputs;
  c.q.ignore_changes = &o->ignore_changes;
  int rc = p->vt->diff ? p->vt->diff(p, &c.q, &c.r, err) : 0;
  mp_res_diff d;
  mp_res_diff_init(&d);
  if (rc == 0 && mp_res_diff_no_opinion(&c.r)) {
    mp_value *cmp = mp_value_dup(o->inputs);
    if (o->ignore_changes.len > 0 && n->inputs && cmp)
      rc = mp_value_apply_ignore_changes(n->inputs, cmp, &o->ignore_changes,
                                         NULL, err);
    if (rc == 0) mp_res_diff_compare(n->inputs, cmp, &d);
    mp_value_free(cmp);
  } else if (rc == 0) {
    mp_res_diff_from_answer(&c.r, &d);
  }
  if (rc == 0 && d.changed) {
    mp_res_diff_invert(&d);
    s->refresh_result = MP_OP_UPDATE;
    mp_strv_destroy(&s->diffs);
    s->diffs = d.diffs;
    mp_strv_init(&d.diffs);
    mp_diff_destroy(&s->detailed);
    s->detailed = d.detailed;
    mp_diff_init(&d.detailed);
    s->has_detailed = d.has_detailed;
  }
  mp_res_diff_destroy(&d);
  if (rc < 0) mp_err_prefix(err, "diffing %s", s->urn);
  return call_end(s, &c, rc);
}

/* The drift of an external resource: its outputs only, with no provider
 * Diff (Pulumi diffs only the outputs of what it does not manage). */
static void external_drift(mp_step *s) {
  const mp_resource *o = s->old;
  if (mp_value_equal(o->outputs, s->new_->outputs, 0)) return;
  s->refresh_result = MP_OP_UPDATE;
  mp_strv_destroy(&s->diffs);
  mp_strv_init(&s->diffs);
  mp_diff_destroy(&s->detailed);
  mp_diff_init(&s->detailed);
  mp_value_diff(o->outputs, s->new_->outputs, MP_VALUE_EQ_IGNORE_SECRETS,
                &s->detailed, &s->diffs);
  s->has_detailed = 1;
}

/* Classic refresh (S55/S56): read the resource; gone = no id or no
 * outputs. The result is `update` when the refresh diff (refresh_diff)
 * finds a change, which may show only in the outputs (X66); external
 * resources compare outputs. An update carries the drift as the step's
 * diff, which the display shows as Pulumi's does: `~ update [diff:
 * ~content]`. */
static int do_refresh(mp_registry *registry, mp_step *s, mp_err *err) {
  /* Verbatim: read earlier (refresh --run-program), its result given. */
  if (s->flags & MP_STEP_NO_CALL) {
    if (!(s->flags & MP_STEP_VERBATIM)) s->refresh_result = MP_OP_SAME;
    return 0;
  }
  s->refresh_result = MP_OP_SAME;
  mp_provider *p = provider_of(registry, s, err);
  if (p == NULL) return err->code;
  const mp_resource *o = s->old;
  mp_resource *n = s->new_;
  call c;
  /* Read names the URN the program registered, which may be a new one
   * under an alias of the recorded URN (step.go RefreshStep.Apply). */
  call_begin(&c, n ? n : o);
  about_old(&c, o);
  int rc = 0;
  if (p->vt->read) rc = p->vt->read(p, &c.q, &c.r, err);
  else {
    c.r.id = mp_xstrdup(o->id);
    c.r.outputs = mp_value_dup(o->outputs);
  }
  if (rc < 0 && c.r.partial) {
    /* An unhealthy resource does not fail the refresh: its init errors are
     * kept in the state and reported as a warning. */
    mp_buf b;
    mp_buf_init(&b);
    mp_buf_puts(&b, "Refreshed resource is in an unhealthy state:");
    for (size_t i = 0; i < c.r.init_errors.len; i++)
      mp_buf_printf(&b, "\n* %s", c.r.init_errors.items[i]);
    mp_strv_push_take(&s->warnings, mp_buf_detach(&b, NULL));
    mp_err_clear(err);
    rc = 0;
  }
  if (rc == 0) {
    if (c.r.id == NULL || c.r.id[0] == '\0' || c.r.outputs == NULL) {
      mp_resource_free(s->new_);
      s->new_ = NULL;
      s->refresh_result = MP_OP_DELETE;
    } else {
      int partial = 0;
      if (c.r.inputs && !o->external) {
        mp_value_free(n->inputs);
        n->inputs = c.r.inputs;
        c.r.inputs = NULL;
      }
      take_result(s, &c.r, &partial);
      int in_changed = !mp_value_equal(o->inputs, n->inputs, 0);
      int out_changed = !mp_value_equal(o->outputs, n->outputs, 0);
      if (in_changed || out_changed) stamp(n, 0);
      if (o->external) external_drift(s);
      else rc = refresh_diff(p, s, err);
    }
  }
  return call_end(s, &c, rc);
}

int mp_stepexec_refresh_now(mp_registry *registry, mp_step *s, mp_err *err) {
  return do_refresh(registry, s, err);
}

static int delete_like(mp_registry *registry, const mp_stepexec_hooks *h,
                       mp_step *s, int ignore_protect, mp_err *err) {
  const mp_resource *o = s->old;
  if (o->protect && !ignore_protect && s->op == MP_OP_DELETE)
    return mp_err_set(
        err, MP_ESTATE,
        "resource \"%s\" cannot be deleted\nbecause it is protected. To "
        "unprotect the resource, either remove the `protect` flag from the "
        "resource in your Pulumi program and run `pulumi up`, or use the "
        "command:\n`pulumi state unprotect '%s'`",
        o->urn, o->urn);
  if ((s->flags & MP_STEP_NO_CALL) || (s->flags & MP_STEP_PROVIDER_RES))
    return 0;
  mp_provider *p = provider_of(registry, s, err);
  if (p == NULL) return err->code;
  int partial = 0;
  return write_with_retries(p, h, s, 0, &partial, err);
}

int mp__exec_call(mp_registry *registry, const mp_stepexec_hooks *h,
                  mp_step *s, int preview, int ignore_protect, int *partial,
                  mp_err *err) {
  *partial = 0;
  mp_resource *n = s->new_;
  switch (s->op) {
  case MP_OP_DELETE:
  case MP_OP_DELETE_REPLACED:
    if (preview) /* nothing is deleted, but protection is still reported */
      return (s->op == MP_OP_DELETE && s->old && s->old->protect &&
              !ignore_protect)
                 ? delete_like(registry, h, s, ignore_protect, err)
                 : 0;
    return delete_like(registry, h, s, ignore_protect, err);
  case MP_OP_REFRESH:
    return do_refresh(registry, s, err);
  case MP_OP_REPLACE:
  case MP_OP_DISCARD:
  case MP_OP_DISCARD_REPLACED:
  case MP_OP_REMOVE_PENDING_REPLACE:
    return 0;
  default:
    break;
  }
  if (n == NULL) return 0;
  /* A state made by the caller (refresh --run-program's provider step):
   * nothing to call or load. */
  if ((s->flags & (MP_STEP_NO_CALL | MP_STEP_VERBATIM)) ==
      (MP_STEP_NO_CALL | MP_STEP_VERBATIM))
    return 0;
  if (s->flags & MP_STEP_PROVIDER_RES) return provider_resource(registry, s, preview, err);
  if (s->op == MP_OP_SAME) {
    if (!(s->flags & (MP_STEP_VERBATIM | MP_STEP_SKIPPED_CREATE)) && s->old) {
      set_str(&n->id, s->old->id);
      mp_value_free(n->outputs);
      n->outputs = mp_value_dup(s->old->outputs);
      mark_secrets(n);
    }
    if (s->flags & MP_STEP_SKIPPED_CREATE) n->outputs = mp_value_dup(n->inputs);
    return 0;
  }
  if (!n->custom) {
    /* Components: no provider; outputs come from RegisterResourceOutputs. */
    if (s->old && n->outputs == NULL) n->outputs = mp_value_dup(s->old->outputs);
    if (s->op == MP_OP_CREATE) stamp(n, 1);
    else if (s->op == MP_OP_UPDATE) stamp(n, 0);
    return 0;
  }
  mp_provider *p = provider_of(registry, s, err);
  if (p == NULL) return err->code;
  switch (s->op) {
  case MP_OP_CREATE:
  case MP_OP_CREATE_REPLACEMENT:
  case MP_OP_UPDATE:
    return write_with_retries(p, h, s, preview, partial, err);
  case MP_OP_READ:
  case MP_OP_READ_REPLACEMENT:
    if (n->id && strcmp(n->id, MP_UNKNOWN_SENTINEL) == 0) return 0;
    return do_read(p, s, 0, partial, err);
  case MP_OP_IMPORT:
  case MP_OP_IMPORT_REPLACEMENT: {
    int rc = do_read(p, s, 1, partial, err);
    if (rc == 0 && s->goal_inputs) rc = import_diff(p, s, preview, err);
    return rc;
  }
  default:
    return 0;
  }
}
