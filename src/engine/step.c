#include "engine/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

mp_step *mp_step_new(mp_step_op op, const char *urn) {
  mp_step *s = mp_xcalloc(1, sizeof(*s));
  s->op = op;
  s->urn = mp_xstrdup(urn);
  mp_diff_init(&s->detailed);
  mp_strv_init(&s->warnings);
  mp_strv_init(&s->import_keep);
  return s;
}

void mp_step_free(mp_step *s) {
  if (s == NULL) return;
  free(s->urn);
  mp_resource_free(s->old);
  mp_resource_free(s->new_);
  free(s->provider);
  mp_strv_destroy(&s->keys);
  mp_strv_destroy(&s->diffs);
  mp_diff_destroy(&s->detailed);
  free(s->error);
  for (size_t i = 0; i < s->nrewrites; i++) mp_resource_free(s->rewrites[i]);
  free(s->rewrites);
  mp_value_free(s->goal_inputs);
  if (s->import_diff) mp_res_diff_destroy(s->import_diff);
  free(s->import_diff);
  mp_strv_destroy(&s->import_keep);
  mp_strv_destroy(&s->warnings);
  free(s);
}

mp_chain *mp_chain_new(void *reg) {
  mp_chain *c = mp_xcalloc(1, sizeof(*c));
  c->reg = reg;
  c->dbr = -1;
  return c;
}

void mp_chain_push(mp_chain *c, mp_step *s) {
  if (c->len == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 4;
    c->steps = mp_xreallocarray(c->steps, c->cap, sizeof(*c->steps));
  }
  c->steps[c->len++] = s;
}

void mp_chain_insert(mp_chain *c, size_t pos, mp_step *s) {
  mp_chain_push(c, s);
  memmove(&c->steps[pos + 1], &c->steps[pos],
          (c->len - 1 - pos) * sizeof(*c->steps));
  c->steps[pos] = s;
}

void mp_chain_free(mp_chain *c) {
  if (c == NULL) return;
  for (size_t i = 0; i < c->len; i++) mp_step_free(c->steps[i]);
  free(c->steps);
  mp_strv_destroy(&c->waits);
  free(c->error);
  free(c->error_urn);
  free(c);
}

char *mp_uuid_new(void) {
  unsigned char b[16];
  if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof(b), f) : 0;
    if (f) fclose(f);
    if (got != sizeof(b)) MP_BUG("no randomness for a provider id");
  }
  b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
  b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
  return mp_xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                      "%02x%02x%02x%02x%02x%02x",
                      b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8],
                      b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

int mp_step_hook_kind(mp_step_op op, int after) {
  switch (op) {
  case MP_OP_CREATE:
  case MP_OP_CREATE_REPLACEMENT:
    return after ? MP_HOOK_AFTER_CREATE : MP_HOOK_BEFORE_CREATE;
  case MP_OP_UPDATE:
    return after ? MP_HOOK_AFTER_UPDATE : MP_HOOK_BEFORE_UPDATE;
  case MP_OP_DELETE:
  case MP_OP_DELETE_REPLACED:
    return after ? MP_HOOK_AFTER_DELETE : MP_HOOK_BEFORE_DELETE;
  default:
    return -1;
  }
}

const mp_strv *mp_step_hook_names(const mp_step *s, int kind) {
  if (kind < 0) return NULL;
  int del = kind == MP_HOOK_BEFORE_DELETE || kind == MP_HOOK_AFTER_DELETE ||
            (kind == MP_HOOK_ON_ERROR && (s->op == MP_OP_DELETE ||
                                          s->op == MP_OP_DELETE_REPLACED));
  const mp_resource *r = del ? s->old : s->new_;
  return r && mp_resource_hooks(r, kind)->len ? mp_resource_hooks(r, kind)
                                               : NULL;
}

int mp_step_has_hooks(const mp_step *s) {
  return mp_step_hook_names(s, mp_step_hook_kind(s->op, 0)) ||
         mp_step_hook_names(s, mp_step_hook_kind(s->op, 1));
}
