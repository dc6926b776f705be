/* The Pulumi YAML language host: registers the stack, then every resource
 * as soon as everything it references is known (all ready registrations
 * are issued at once), and finally the stack outputs. A component's body
 * (a Pulumi YAML component provider's Construct, yaml_plugin.c) runs the
 * same way, with the component in the stack's place (mp__body_start). */
#include "lang/yaml_host.h"

#include <stdlib.h>
#include <string.h>

#include "engine/value_pb.h"
#include "lang/prog.h"

/* Owner: the loop thread. */
typedef struct yaml_source {
  mp_source base;
  mp_project *proj;
  mp__prog prog;
  mp_monitor *m;
  char *stack, *organization;
  char *stack_urn;     /* once the stack is registered */
  size_t outstanding;  /* registrations, reads and invokes in flight */
  int broken;          /* some resource failed under continue-on-error */
  int started, failed, canceled, finished;
  int prepared;        /* the program is analysed (prepare) */
  int last_use;        /* then the project's document goes */
  int prep_rc;         /* and how that went: 0 or an MP_E code in prep_err */
  mp_err prep_err;
  char *fail_msg;      /* the first error */
  /* The packages' schemas, asked before the stack is registered. */
  mp__yschemas schemas;
  size_t schemas_pending;
  /* A component's body (mp__body_start): |root| is registered in the
   * stack's place and parents the body's resources; the outputs are
   * kept, with the URNs each depends on, for |on_end|, which is told of
   * the end in place of the monitor. The source frees itself after. */
  Pulumirpc__RegisterResourceRequest *root;
  mp__body_end on_end;
  void *end_ud;
  mp_value *outputs, *output_deps;
  int ended;
  mp_project *own_proj; /* the body's project, freed with it */
  /* Nodes before these indexes have left WAIT/INVOKE (for good), and are
   * DONE (for good): pump starts its scans there, so that answering N
   * registrations does not cost N scans of every node. */
  size_t scan_from, done_upto;
} yaml_source;

/* One call in flight. */
typedef struct call {
  yaml_source *s;
  size_t idx;        /* resource index */
  mp__yexpr *invoke; /* for an invoke */
  char *urn;         /* for a resource reference read (getResource) */
} call;

static void pump(yaml_source *s);
static void src_free(mp_source *base);

/* The program is over: the monitor is told, or a component's |on_end|. */
static void end(yaml_source *s, int failed, const char *msg) {
  if (s->root == NULL) {
    mp_monitor_program_done(s->m, failed, msg);
    return;
  }
  s->ended = 1;
  const char *why = msg && *msg ? msg
                    : s->canceled ? "the deployment was canceled"
                                  : "the component's body failed";
  s->on_end(s->end_ud, failed ? NULL : s->stack_urn,
            failed ? NULL : s->outputs, failed ? NULL : s->output_deps,
            failed ? why : NULL);
}

/* After each answer of the monitor: a component's body that has ended
 * goes (nothing is in flight then: it ends only when nothing is). */
static void settle(yaml_source *s) {
  if (s->ended) src_free(&s->base);
}

/* Ends a failed or cancelled program once nothing is in flight (the
 * successful end is in pump, after the outputs). */
static void finish(yaml_source *s) {
  if (s->finished || s->outstanding > 0 || !(s->failed || s->canceled))
    return;
  s->finished = 1;
  end(s, 1, s->failed && s->fail_msg ? s->fail_msg : "");
}

static void fail(yaml_source *s, const char *msg) {
  if (!s->failed) {
    s->failed = 1;
    s->fail_msg = mp_xstrdup(msg);
  }
  finish(s);
}

static call *call_new(yaml_source *s, size_t idx, mp__yexpr *invoke) {
  call *c = mp_xcalloc(1, sizeof(*c));
  c->s = s;
  c->idx = idx;
  c->invoke = invoke;
  s->outstanding++;
  return c;
}

/* Common start of every callback: returns 1 if the answer is to be used. */
static int call_done(call *c, const void *resp, const mp_err *err,
                     const char *what) {
  yaml_source *s = c->s;
  s->outstanding--;
  if (resp != NULL && (err == NULL || err->code == 0)) {
    if (!s->failed && !s->canceled)
      return 1;
    finish(s);
    return 0;
  }
  if (err && err->code == MP_ECANCELED) {
    s->canceled = 1;
  } else if (!s->failed) {
    mp_err e;
    mp_err_set(&e, MP_EPLUGIN, "%s: %s", what,
               err && err->msg[0] ? err->msg : "failed");
    fail(s, e.msg);
  }
  finish(s);
  return 0;
}

/* ---- callbacks ---- */

static int set_outputs(yaml_source *s, mp__yres *r,
                       const Google__Protobuf__Struct *obj, int unknown) {
  mp_err e;
  mp_err_clear(&e);
  if (unknown && s->prog.dry_run)
    return 0;
  if (mp_value_from_pb_struct(obj, &r->outputs, &e) < 0) {
    char *msg = mp_xasprintf("%s:%d:%d: resource '%s': bad outputs: %s",
                             s->prog.file, r->line, r->col, r->key, e.msg);
    fail(s, msg);
    free(msg);
    return -1;
  }
  return 0;
}

static void resource_done(yaml_source *s, size_t idx) {
  s->prog.nodes[idx].state = MP_N_DONE;
  pump(s);
  finish(s);
}

static char *res_what(yaml_source *s, size_t idx) {
  const mp__yres *r = &s->prog.res[idx];
  return mp_xasprintf("%s:%d:%d: resource '%s'", s->prog.file, r->line,
                      r->col, r->key);
}

/* The start of a resource's answer (registered or read) |resp| with
 * |result| and |urn|: frees the call |ud| and sets *sp and *idxp. Returns
 * the resource, its URN set, when it succeeded and the answer is to be
 * read; else NULL. */
static mp__yres *resource_answered(void *ud, const void *resp, int result,
                                   const char *urn, const mp_err *err,
                                   yaml_source **sp, size_t *idxp) {
  call *c = ud;
  yaml_source *s = *sp = c->s;
  size_t idx = *idxp = c->idx;
  char *what = res_what(s, idx);
  int use = call_done(c, resp, err, what);
  free(what);
  free(c);
  if (!use)
    return NULL;
  if (result != PULUMIRPC__RESULT__SUCCESS) {
    /* continue-on-error: the engine reported the failure; what depends on
     * this resource can never run, everything else goes on. */
    s->prog.nodes[idx].state = MP_N_BROKEN;
    s->broken = 1;
    pump(s);
    return NULL;
  }
  mp__yres *r = &s->prog.res[idx];
  r->urn = mp_xstrdup(urn);
  return r;
}

static void
on_registered_answer(void *ud, const Pulumirpc__RegisterResourceResponse *resp,
                     const mp_err *err) {
  yaml_source *s;
  size_t idx;
  mp__yres *r = resource_answered(ud, resp, resp ? (int)resp->result : 0,
                                  resp ? resp->urn : NULL, err, &s, &idx);
  if (r == NULL)
    return;
  if (resp->id && (resp->id[0] || !s->prog.dry_run))
    r->id = mp_xstrdup(resp->id);
  if (set_outputs(s, r, resp->object, resp->unknown) == 0)
    resource_done(s, idx);
}

static void on_registered(void *ud,
                          const Pulumirpc__RegisterResourceResponse *resp,
                          const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_registered_answer(ud, resp, err);
  settle(s);
}

static void on_read_answer(void *ud,
                           const Pulumirpc__ReadResourceResponse *resp,
                           const mp_err *err) {
  yaml_source *s;
  size_t idx;
  mp__yres *r = resource_answered(ud, resp, resp ? (int)resp->result : 0,
                                  resp ? resp->urn : NULL, err, &s, &idx);
  if (r == NULL)
    return;
  mp_value *id = NULL;
  mp_err e;
  mp_err_clear(&e);
  /* The id is the one the program asked for. */
  mp__evalctx ec = {.p = &s->prog};
  id = r->get_id ? mp__eval(&ec, r->get_id, &e)
                 : mp_value_new_cstring(r->read_id ? r->read_id : "");
  mp_value *plain = id ? mp_value_strip_secrets(id) : NULL;
  if (plain && plain->kind == MP_VALUE_STRING)
    r->id = mp_xstrdup(plain->u.str.ptr);
  mp_value_free(plain);
  mp_value_free(id);
  if (set_outputs(s, r, resp->properties, resp->unknown) == 0)
    resource_done(s, idx);
}

static void on_read(void *ud, const Pulumirpc__ReadResourceResponse *resp,
                    const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_read_answer(ud, resp, err);
  settle(s);
}

static void on_stack_answer(void *ud,
                            const Pulumirpc__RegisterResourceResponse *resp,
                            const mp_err *err) {
  call *c = ud;
  yaml_source *s = c->s;
  int use = call_done(c, resp, err, "cannot register the stack");
  free(c);
  if (!use)
    return;
  s->stack_urn = mp_xstrdup(resp->urn);
  pump(s);
  finish(s);
}

static void on_stack(void *ud, const Pulumirpc__RegisterResourceResponse *resp,
                     const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_stack_answer(ud, resp, err);
  settle(s);
}

static void on_invoke_answer(void *ud,
                             const Pulumirpc__ResourceInvokeResponse *resp,
                             const mp_err *err) {
  call *c = ud;
  yaml_source *s = c->s;
  mp__yexpr *x = c->invoke;
  char *what =
      mp_xasprintf("%s:%d:%d: fn::invoke", s->prog.file, x->line, x->col);
  int use = call_done(c, resp, err, what);
  free(c);
  if (use && resp->n_failures > 0) {
    char *msg =
        mp_xasprintf("%s failed: %s%s%s", what, resp->failures[0]->reason,
                     resp->failures[0]->property[0] ? " at " : "",
                     resp->failures[0]->property);
    fail(s, msg);
    free(msg);
    use = 0;
  }
  mp_err e;
  mp_err_clear(&e);
  if (use && resp->unknown) {
    x->invoke_result = mp_value_new_unknown();
  } else if (use && mp_value_from_pb_struct(resp->return_, &x->invoke_result,
                                            &e) < 0) {
    char *msg = mp_xasprintf("%s: bad result: %s", what, e.msg);
    fail(s, msg);
    free(msg);
    use = 0;
  }
  free(what);
  if (!use)
    return;
  x->invoke_state = 2;
  pump(s);
  finish(s);
}

static void on_invoke(void *ud, const Pulumirpc__ResourceInvokeResponse *resp,
                      const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_invoke_answer(ud, resp, err);
  settle(s);
}

/* A resource reference's resource as the engine answers getResource:
 * kept for every access through the reference. */
static void
on_get_resource_answer(void *ud, const Pulumirpc__ResourceInvokeResponse *resp,
                       const mp_err *err) {
  call *c = ud;
  yaml_source *s = c->s;
  char *urn = c->urn;
  char *what = mp_xasprintf("%s: cannot read the resource %s of a resource "
                            "reference", s->prog.file, urn);
  int use = call_done(c, resp, err, what);
  free(c);
  if (use && resp->n_failures > 0) {
    char *msg = mp_xasprintf("%s: %s", what, resp->failures[0]->reason);
    fail(s, msg);
    free(msg);
    use = 0;
  }
  mp_value *got = NULL;
  mp_err e;
  mp_err_clear(&e);
  if (use && mp_value_from_pb_struct(resp->return_, &got, &e) < 0) {
    char *msg = mp_xasprintf("%s: bad answer: %s", what, e.msg);
    fail(s, msg);
    free(msg);
    use = 0;
  }
  free(what);
  if (use) {
    if (s->prog.hydrated == NULL)
      s->prog.hydrated = mp_value_new_object();
    mp_value_object_set(s->prog.hydrated, urn, got);
    pump(s);
    finish(s);
  }
  free(urn);
}

static void on_get_resource(void *ud,
                            const Pulumirpc__ResourceInvokeResponse *resp,
                            const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_get_resource_answer(ud, resp, err);
  settle(s);
}

static int start_get_resource(void *ud, const char *urn, mp_err *err) {
  yaml_source *s = ud;
  Pulumirpc__ResourceInvokeRequest req =
      PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
  req.tok = (char *)"pulumi:pulumi:getResource";
  req.acceptresources = 1;
  mp_value *args = mp_value_new_object();
  mp_value_object_set(args, "urn", mp_value_new_cstring(urn));
  int rc = mp_value_to_pb_struct(args, 0, &req.args, err);
  mp_value_free(args);
  if (rc < 0)
    return rc;
  call *c = call_new(s, 0, NULL);
  c->urn = mp_xstrdup(urn);
  rc = mp_monitor_invoke(s->m, &req, on_get_resource, c, err);
  mp_value_pb_struct_free(req.args);
  if (rc < 0) {
    s->outstanding--;
    free(c->urn);
    free(c);
  }
  return rc;
}

/* ---- scheduling ---- */

static int start_invoke(void *ud, mp__yexpr *x, const mp_value *args,
                        const char *token, const char *provider,
                        mp_err *err) {
  yaml_source *s = ud;
  Pulumirpc__ResourceInvokeRequest req =
      PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
  /* An extension's function goes by its schema's token (schemas.c). */
  if (x->invoke_token) token = x->invoke_token;
  req.tok = (char *)token;
  req.provider = provider ? (char *)provider : req.provider;
  req.acceptresources = 1;
  char *version = NULL, *url = NULL, *pkg = NULL;
  const char *colon = strchr(token, ':');
  pkg = colon ? mp_xstrndup(token, (size_t)(colon - token)) : NULL;
  /* A parameterized package's function goes with its packageRef, as
   * Pulumi YAML's InvokePackageRaw sends it. */
  const char *ref =
      x->invoke_ref ? x->invoke_ref : mp__prog_package_ref(&s->prog, pkg);
  if (ref) req.packageref = (char *)ref;
  if (provider == NULL) {
    mp__pkgdecls_apply(s->prog.proj, pkg, &version, &url);
    req.version = version ? version : req.version;
    req.plugindownloadurl = url ? url : req.plugindownloadurl;
  }
  int rc = mp_value_to_pb_struct(args, 0, &req.args, err);
  call *c = rc < 0 ? NULL : call_new(s, 0, x);
  if (rc == 0) rc = mp_monitor_invoke(s->m, &req, on_invoke, c, err);
  mp_value_pb_struct_free(req.args);
  free(version);
  free(url);
  free(pkg);
  if (c == NULL)
    return rc;
  if (rc < 0) {
    s->outstanding--;
    free(c);
  }
  return rc;
}

static mp__evalctx ctx(yaml_source *s) {
  mp__evalctx c = {.p = &s->prog, .start_invoke = start_invoke,
                   .start_get_resource = start_get_resource, .ud = s};
  return c;
}

static int deps_done(const mp__prog *p, const mp__gnode *g) {
  for (size_t i = 0; i < g->ndeps; i++)
    if (p->nodes[g->deps[i]].state != MP_N_DONE)
      return 0;
  return 1;
}

static int run_variable(yaml_source *s, mp__gnode *g, mp_err *err) {
  mp__yvar *v = &s->prog.vars[g->idx];
  mp__evalctx c = ctx(s);
  mp_strv_destroy(&v->deps);
  c.deps = &v->deps;
  v->value = mp__eval(&c, v->expr, err);
  if (v->value != NULL)
    g->state = MP_N_DONE;
  else if (err->code == 0)
    g->state = MP_N_INVOKE;
  return err->code;
}

static int run_resource(yaml_source *s, mp__gnode *g, mp_err *err) {
  mp__evalctx c = ctx(s);
  Pulumirpc__RegisterResourceRequest *reg;
  Pulumirpc__ReadResourceRequest *read;
  int rc = mp__request_build(&c, g->idx, s->stack_urn, &reg, &read, err);
  if (rc == 1) {
    g->state = MP_N_INVOKE;
    return 0;
  }
  if (rc < 0)
    return rc;
  call *cl = call_new(s, g->idx, NULL);
  if (reg)
    rc = mp_monitor_register_resource(s->m, reg, on_registered, cl, err);
  else
    rc = mp_monitor_read_resource(s->m, read, on_read, cl, err);
  mp__request_free(reg);
  mp__read_free(read);
  if (rc < 0) {
    s->outstanding--;
    free(cl);
    return rc;
  }
  g->state = MP_N_RUNNING;
  return 0;
}

/* Evaluates the outputs and registers them; 1 while an invoke is pending. */
static int register_outputs(yaml_source *s, mp_err *err) {
  mp__evalctx c = ctx(s);
  mp_value *outs = mp_value_new_object();
  mp_value *all_deps = mp_value_new_object();
  int rc = 0;
  for (size_t i = 0; i < s->prog.nouts; i++) {
    mp_strv deps;
    mp_strv_init(&deps);
    c.deps = &deps;
    mp_value *v = mp__eval(&c, s->prog.outs[i].expr, err);
    if (v == NULL) {
      mp_strv_destroy(&deps);
      rc = err->code < 0 ? err->code : 1;
      if (rc < 0)
        break;
      continue;
    }
    mp_value_object_set(outs, s->prog.outs[i].key, v);
    mp_value *urns = mp_value_new_array();
    for (size_t k = 0; k < deps.len; k++)
      mp_value_array_push(urns, mp_value_new_cstring(deps.items[k]));
    mp_value_object_set(all_deps, s->prog.outs[i].key, urns);
    mp_strv_destroy(&deps);
  }
  if (rc == 0) {
    Pulumirpc__RegisterResourceOutputsRequest req =
        PULUMIRPC__REGISTER_RESOURCE_OUTPUTS_REQUEST__INIT;
    req.urn = s->stack_urn;
    rc = mp_value_to_pb_struct(outs, MP_PB_KEEP_SECRETS, &req.outputs, err);
    if (rc == 0)
      rc = mp_monitor_register_outputs(s->m, &req, err);
    mp_value_pb_struct_free(req.outputs);
  }
  if (rc == 0 && s->root) {
    /* A component answers its Construct with them. */
    s->outputs = outs;
    s->output_deps = all_deps;
    return 0;
  }
  mp_value_free(outs);
  mp_value_free(all_deps);
  return rc;
}

/* Starts every node whose dependencies are done, repeating until nothing
 * changes; when everything is done, registers the outputs. */
static int waiting(const mp__gnode *g) {
  return g->state == MP_N_WAIT || g->state == MP_N_INVOKE;
}

static void pump(yaml_source *s) {
  mp__prog *p = &s->prog;
  int changed = 1;
  mp_err err;
  mp_err_clear(&err);
  while (changed && !s->failed && !s->canceled && s->stack_urn) {
    changed = 0;
    for (size_t i = s->scan_from; i < p->nnodes; i++) {
      mp__gnode *g = &p->nodes[i];
      if (waiting(g) && deps_done(p, g)) {
        mp__nstate before = g->state;
        int rc = g->is_res ? run_resource(s, g, &err)
                           : run_variable(s, g, &err);
        if (rc == MP_ECANCELED) {
          /* The engine refused and reported it on the resource. */
          s->canceled = 1;
          finish(s);
          return;
        }
        if (rc < 0) {
          fail(s, err.msg);
          return;
        }
        changed |= g->state != before;
      }
      if (i == s->scan_from && !waiting(g))
        s->scan_from++;
    }
  }
  if (s->failed || s->canceled || !s->stack_urn)
    return;
  while (s->done_upto < p->nnodes &&
         p->nodes[s->done_upto].state == MP_N_DONE)
    s->done_upto++;
  int blocked = s->done_upto < p->nnodes;
  if (blocked && s->broken && s->outstanding == 0 && !s->finished) {
    /* Nothing more can run. The engine reported the failures and fails the
     * update; the program itself ends normally, as Pulumi's SDKs do under
     * continue-on-error, so that the delete phase still runs. */
    s->finished = 1;
    /* A component's body that cannot finish has no outputs to answer:
     * its Construct fails. */
    if (s->root) end(s, 1, "a resource of the component failed");
    else end(s, 0, NULL);
    return;
  }
  if (blocked)
    return;
  if (s->outstanding > 0 || s->finished)
    return;
  int rc = register_outputs(s, &err);
  if (rc < 0) {
    fail(s, err.msg);
  } else if (rc == 0) {
    s->finished = 1;
    end(s, 0, NULL);
  }
}

/* ---- the source ---- */

/* Analyses the program for |info|'s stack, once: start's first half. */
static void src_prepare(mp_source *base, const mp_source_info *info) {
  yaml_source *s = (yaml_source *)base;
  if (s->prepared) return;
  s->prepared = 1;
  s->stack = mp_xstrdup(info->stack);
  s->organization = mp_xstrdup(info->organization ? info->organization
                                                  : "organization");
  s->prog.stack = s->stack;
  s->prog.organization = s->organization;
  s->prog.dry_run = info->dry_run;
  mp_err_clear(&s->prep_err);
  s->prep_rc = mp__prog_analyze(&s->prog, s->proj, info->config, &s->prep_err);
  if (s->last_use) mp__project_drop_program(s->proj);
}

static int register_stack(yaml_source *s, mp_err *err) {
  Pulumirpc__RegisterResourceRequest *req =
      s->root ? s->root : mp__request_stack(s->proj->name, s->stack);
  call *c = call_new(s, 0, NULL);
  int rc = mp_monitor_register_resource(s->m, req, on_stack, c, err);
  if (req != s->root) mp__request_free(req);
  if (rc < 0) {
    s->outstanding--;
    free(c);
  }
  return rc;
}

/* Every schema answered: the types are resolved, then the program runs
 * (a type a schema lacks stops it before anything is registered). */
static void schemas_known(yaml_source *s) {
  mp_err e;
  mp_err_clear(&e);
  if (mp__schemas_apply(&s->prog, &s->schemas, &e) < 0 ||
      register_stack(s, &e) < 0) {
    if (e.code == MP_ECANCELED) s->canceled = 1;
    else fail(s, e.msg);
  }
  mp__schemas_free(&s->schemas);
}

static void on_schema_answer(void *ud, const char *json,
                             const mp_err *err) {
  call *c = ud;
  yaml_source *s = c->s;
  size_t i = c->idx;
  free(c);
  s->outstanding--;
  s->schemas_pending--;
  if (json) {
    mp__schemas_answer(&s->schemas, i, json);
  } else if (err && err->code == MP_ECANCELED) {
    s->canceled = 1;
  } else if (err) {
    /* No schema: the package's types stay as written (schemas.c); the
     * registration reports a plugin that cannot be found or started. */
    char *msg = mp_xasprintf("package '%s' has no schema: %s",
                             s->schemas.items[i].pkg, err->msg);
    mp_monitor_log(s->m, MP_LOG_DEBUG, NULL, msg);
    free(msg);
  }
  if (s->schemas_pending == 0 && !s->failed && !s->canceled)
    schemas_known(s);
  finish(s);
}

static void on_schema(void *ud, const char *json, const mp_err *err) {
  yaml_source *s = ((call *)ud)->s;
  on_schema_answer(ud, json, err);
  settle(s);
}

/* Asks the schema of every package whose types need one; 0 when none is
 * pending (a question the monitor cannot take has no schema). */
static size_t ask_schemas(yaml_source *s) {
  mp__schemas_plan(&s->prog, &s->schemas);
  for (size_t i = 0; i < s->schemas.n; i++) {
    const mp__yschema *q = &s->schemas.items[i];
    call *c = call_new(s, i, NULL);
    mp_err e;
    mp_err_clear(&e);
    int rc = q->ref ? mp_monitor_get_package_schema(s->m, q->ref, on_schema,
                                                    c, &e)
                    : mp_monitor_get_schema(s->m, q->pkg, q->version, q->url,
                                            on_schema, c, &e);
    if (rc < 0) {
      s->outstanding--;
      free(c);
      continue;
    }
    s->schemas_pending++;
  }
  return s->schemas_pending;
}

/* After the preparation: asks the schemas the types need (the program
 * goes on in schemas_known), or resolves the types and registers the
 * stack (or the component) at once. */
static int resolve_then_run(yaml_source *s, mp_err *err) {
  if (ask_schemas(s) > 0) return 0;
  int rc = mp__schemas_apply(&s->prog, &s->schemas, err);
  mp__schemas_free(&s->schemas);
  return rc < 0 ? rc : register_stack(s, err);
}

static int src_start(mp_source *base, mp_monitor *m,
                     const mp_source_info *info, mp_err *err) {
  yaml_source *s = (yaml_source *)base;
  if (s->started)
    return mp_err_set(err, MP_EINVAL, "the YAML program was already "
                      "started");
  s->started = 1;
  s->m = m;
  char *pwd = mp_project_pwd(s->proj);
  mp_monitor_set_program_dir(m, pwd);
  free(pwd);
  src_prepare(base, info);
  if (s->prep_rc < 0) {
    if (err) *err = s->prep_err;
    return s->prep_rc;
  }
  /* Before anything is registered, as Pulumi YAML's first node. */
  int vrc = mp__prog_check_version(&s->prog, info->pulumi_version,
                                   info->version_in_range, err);
  if (vrc < 0) return vrc;
  int prc = mp__prog_register_packages(&s->prog, m, err);
  if (prc < 0) return prc;
  return resolve_then_run(s, err);
}

static void src_cancel(mp_source *base) {
  yaml_source *s = (yaml_source *)base;
  if (!s->started || s->finished)
    return;
  s->canceled = 1;
  finish(s);
}

static void src_free(mp_source *base) {
  yaml_source *s = (yaml_source *)base;
  if (s == NULL)
    return;
  mp__prog_destroy(&s->prog);
  mp__schemas_free(&s->schemas);
  free(s->stack);
  free(s->organization);
  free(s->stack_urn);
  free(s->fail_msg);
  mp__request_free(s->root);
  mp_project_free(s->own_proj);
  mp_value_free(s->outputs);
  mp_value_free(s->output_deps);
  free(s);
}

static const mp_source_vtable yaml_vtable = {src_start, src_cancel, src_free,
                                             NULL, src_prepare};

int mp_yaml_source_last_use(mp_source *base) {
  if (base == NULL || base->vt != &yaml_vtable) return 0;
  ((yaml_source *)base)->last_use = 1;
  return 1;
}

int mp_yaml_source_new(mp_project *p, mp_source **out, mp_err *err) {
  *out = NULL;
  if (p->runtime && strcmp(p->runtime, "yaml") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "project '%s' has runtime '%s', not yaml; the "
                      "embedded host runs only `runtime: yaml` programs",
                      p->name, p->runtime);
  int rc = mp__project_load_program(p, err);
  if (rc < 0) return rc;
  yaml_source *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &yaml_vtable;
  s->proj = p;
  *out = &s->base;
  return 0;
}

/* ---- a component's body ---- */

int mp__body_start(mp_project *proj, mp_monitor *m, const mp_source_info *info,
                   Pulumirpc__RegisterResourceRequest *root,
                   const char *name_prefix, mp__body_end on_end, void *ud,
                   mp_err *err) {
  yaml_source *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &yaml_vtable;
  s->proj = proj;
  s->root = root;
  s->on_end = on_end;
  s->end_ud = ud;
  s->started = 1;
  s->m = m;
  src_prepare(&s->base, info);
  int rc = s->prep_rc;
  if (rc < 0) *err = s->prep_err;
  /* Pulumi YAML names a component's resources after the component
   * (`<component>-<name>`), so that two of them do not collide. */
  for (size_t i = 0; rc == 0 && name_prefix && i < s->prog.nres; i++) {
    char *n = mp_xasprintf("%s%s", name_prefix, s->prog.res[i].name);
    free(s->prog.res[i].name);
    s->prog.res[i].name = n;
  }
  if (rc == 0) rc = resolve_then_run(s, err);
  if (rc < 0) {
    s->root = NULL; /* the caller's still, and so is |proj| */
    src_free(&s->base);
    return rc;
  }
  s->own_proj = proj;
  return 0;
}
