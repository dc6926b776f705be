#include "sg_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/op.h"
#include "engine/urn.h"

static mp_value *json(const char *text) {
  mp_value *v = NULL;
  if (mp_value_from_json(text, strlen(text), NULL, &v, NULL) < 0)
    abort();
  return v;
}

void fx_init(fx *f) {
  memset(f, 0, sizeof(*f));
  sp_world_init(&f->w);
  f->olds = mp_snapshot_new();
  f->o.stack = "s";
  f->o.project = "p";
  mp_resource *p = mp_resource_new(FX_PROV_URN, "pulumi:providers:pkgA", 1);
  p->id = mp_xstrdup("p1");
  p->inputs = mp_value_new_object();
  p->outputs = mp_value_new_object();
  mp_snapshot_append(f->olds, p);
}

mp_resource *fx_old(fx *f, const char *name, const char *inputs_json) {
  char *urn = mp_xasprintf(FX_URN("%s"), name);
  mp_resource *r = mp_resource_new(urn, FX_TYPE, 1);
  free(urn);
  r->id = mp_xasprintf("id-%s", name);
  r->provider = mp_xstrdup(FX_PROV_REF);
  r->inputs = json(inputs_json);
  r->outputs = json(inputs_json);
  mp_snapshot_append(f->olds, r);
  return r;
}

mp_resource *fx_old_component(fx *f, const char *type, const char *name,
                              const char *parent) {
  char *urn = mp_urn_new("s", "p", parent, type, name, NULL);
  mp_resource *r = mp_resource_new(urn, type, 0);
  free(urn);
  r->parent = mp_xstrdup(parent);
  r->inputs = mp_value_new_object();
  mp_snapshot_append(f->olds, r);
  return r;
}

void fx_start(fx *f) {
  f->reg = mp_registry_new(f->o.preview, sp_factory(&f->w));
  for (size_t i = 0; i < f->olds->nres; i++)
    if (mp_type_is_provider(f->olds->res[i]->type))
      mp_registry_add_known(f->reg, f->olds->res[i]);
  f->sg = mp_stepgen_new(&f->o, f->olds, f->reg);
  mp_goal *g = mp_goal_new("pulumi:providers:pkgA", "default", 1);
  if (strcmp(fx_reg(f, g), "same:default") != 0)
    abort();
  sp_calls_clear(&f->w);
}

mp_goal *fx_goal(const char *name, const char *inputs_json) {
  mp_goal *g = mp_goal_new(FX_TYPE, name, 1);
  mp_value_free(g->inputs);
  g->inputs = json(inputs_json);
  g->provider = mp_xstrdup(FX_PROV_REF);
  return g;
}

static void describe(mp_buf *b, const mp_chain *c) {
  for (size_t i = 0; i < c->len; i++) {
    size_t n = 0;
    const char *name = mp_urn_name(c->steps[i]->urn, &n);
    mp_buf_printf(b, "%s%s:%.*s", i ? " " : "",
                  mp_op_info_of(c->steps[i]->op)->name, (int)n,
                  name ? name : "?");
  }
}

static const char *keep(fx *f, mp_buf *b) {
  free(f->text);
  mp_buf_puts(b, "");
  f->text = mp_buf_detach(b, NULL);
  return f->text;
}

const char *fx_reg(fx *f, mp_goal *g) {
  mp_chain_free(f->last);
  f->last = NULL;
  mp_err_clear(&f->err);
  mp_buf b;
  mp_buf_init(&b);
  int rc = mp_stepgen_register(f->sg, g, NULL, &f->last, &f->diags, &f->err);
  if (rc < 0)
    mp_buf_printf(&b, "error: %s", f->err.msg);
  else
    describe(&b, f->last);
  return keep(f, &b);
}

const char *fx_deletes(fx *f) {
  mp_chain **layers = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  mp_buf b;
  mp_buf_init(&b);
  if (mp_stepgen_deletes(f->sg, &layers, &n, &f->diags, &err) < 0)
    mp_buf_printf(&b, "error: %s", err.msg);
  for (size_t i = 0; i < n; i++) {
    if (i)
      mp_buf_puts(&b, " | ");
    describe(&b, layers[i]);
    mp_chain_free(layers[i]);
  }
  free(layers);
  return keep(f, &b);
}

const mp_step *fx_step(const fx *f, mp_step_op op) {
  for (size_t i = 0; f->last && i < f->last->len; i++)
    if (f->last->steps[i]->op == op)
      return f->last->steps[i];
  fprintf(stderr, "no %s step in \"%s\"\n", mp_op_info_of(op)->name,
          f->text ? f->text : "");
  abort();
}

const char *fx_diags(fx *f) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < f->diags.len; i++)
    mp_buf_printf(&b, "%s%s: %s", i ? "\n" : "", f->diags.items[i].severity,
                  f->diags.items[i].message);
  return keep(f, &b);
}

void fx_destroy(fx *f) {
  mp_chain_free(f->last);
  mp_stepgen_free(f->sg);
  mp_registry_free(f->reg);
  mp_snapshot_free(f->olds);
  mp_diags_destroy(&f->diags);
  sp_world_destroy(&f->w);
  free(f->text);
}
