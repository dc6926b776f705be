#include "cli/policy_run.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/stepgen.h"

void mp_policy_run_init(mp_policy_run *p) {
  memset(p, 0, sizeof(*p));
  mp_strv_init(&p->problems);
  pthread_mutex_init(&p->mu, NULL);
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int mp_policy_run_start(mp_policy_run *out, const mp_op_policy *f,
                        mp_plugin_host *h, mp_err *err) {
  if (f->packs.len == 0) return 0;
  out->packs = mp_xcalloc(f->packs.len, sizeof(*out->packs));
  out->dirs = mp_xcalloc(f->packs.len, sizeof(*out->dirs));
  out->names = mp_xcalloc(f->packs.len, sizeof(*out->names));
  out->versions = mp_xcalloc(f->packs.len, sizeof(*out->versions));
  int invalid = 0; /* a config that fails its schema: the others go on */
  for (size_t i = 0; i < f->packs.len; i++) {
    mp_value *config = NULL;
    mp_analyzer *a = NULL;
    size_t before = out->problems.len;
    int rc = i < f->configs.len ? mp_op_policy_read_config(f->configs.items[i],
                                                      &config, err)
                                : 0;
    if (rc == 0)
      rc = mp_analyzer_start(h, f->packs.items[i], config, &out->problems, &a,
                             err);
    mp_value_free(config);
    if (rc < 0 && out->problems.len > before) {
      invalid = 1;
      continue;
    }
    if (rc < 0) return rc;
    size_t k = out->n++;
    out->packs[k] = a;
    out->dirs[k] = mp_xstrdup(f->packs.items[i]);
    out->names[k] = mp_xstrdup(mp_analyzer_name(a));
    out->versions[k] = mp_xstrdup(mp_analyzer_version(a));
  }
  if (!invalid) return 0;
  /* Pulumi's order: every pack's lines, sorted */
  qsort(out->problems.items, out->problems.len, sizeof(char *), by_text);
  return mp_err_set(err, MP_EINVAL, "validating policy config");
}

static void keep(mp_policy_run *p, mp_policy_diags *found) {
  pthread_mutex_lock(&p->mu);
  for (size_t i = 0; i < found->len; i++) {
    if (p->found.len == p->found.cap) {
      p->found.cap = p->found.cap ? 2 * p->found.cap : 8;
      p->found.items =
          mp_xrealloc(p->found.items, p->found.cap * sizeof(*p->found.items));
    }
    p->found.items[p->found.len++] = found->items[i];
  }
  pthread_mutex_unlock(&p->mu);
  found->len = 0; /* moved */
}

static int count_mandatory(const mp_policy_diags *d, const char **first) {
  int n = 0;
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].level == MP_POLICY_MANDATORY && n++ == 0 && first)
      *first = d->items[i].policy;
  return n;
}

/* The step generator's hook: every pack's Remediate (each sees the
 * previous one's result), then every pack's Analyze of the result. */
static int analyze(void *ud, mp_resource *st, mp_diags *diags, mp_err *err) {
  (void)diags;
  mp_policy_run *p = ud;
  size_t nlen = 0;
  const char *nm = mp_urn_name(st->urn, &nlen);
  char *name = mp_xstrndup(nm ? nm : "", nm ? nlen : 0);
  mp_policy_diags found = {0};
  int rc = 0;
  for (size_t i = 0; i < p->n && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn, st->type, name, st->parent, st->inputs};
    mp_value *fixed = NULL;
    rc = mp_analyzer_remediate(p->packs[i], &r, &fixed, &found, err);
    if (fixed) {
      mp_value_free(st->inputs);
      st->inputs = fixed;
    }
  }
  for (size_t i = 0; i < p->n && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn, st->type, name, st->parent, st->inputs};
    rc = mp_analyzer_analyze(p->packs[i], &r, &found, err);
  }
  const char *policy = NULL;
  int mandatory = rc == 0 ? count_mandatory(&found, &policy) : 0;
  if (mandatory)
    rc = mp_err_set(err, MP_EINVAL,
                    "%s violates %d mandatory polic%s (first: '%s'); no step "
                    "of it runs",
                    st->urn, mandatory, mandatory == 1 ? "y" : "ies", policy);
  keep(p, &found);
  mp_policy_diags_destroy(&found);
  free(name);
  return rc;
}

static int analyze_stack(void *ud, const mp_resource *const *rs, size_t n,
                         mp_err *err) {
  mp_policy_run *p = ud;
  mp_analyzer_resource *ar = mp_xcalloc(n ? n : 1, sizeof(*ar));
  char **names = mp_xcalloc(n ? n : 1, sizeof(*names));
  for (size_t i = 0; i < n; i++) {
    size_t nlen = 0;
    const char *nm = mp_urn_name(rs[i]->urn, &nlen);
    names[i] = mp_xstrndup(nm ? nm : "", nm ? nlen : 0);
    const mp_value *props = rs[i]->outputs ? rs[i]->outputs : rs[i]->inputs;
    ar[i] = (mp_analyzer_resource){rs[i]->urn, rs[i]->type, names[i],
                                   rs[i]->parent, props};
  }
  mp_policy_diags found = {0};
  int rc = 0;
  for (size_t i = 0; i < p->n && rc == 0; i++)
    rc = mp_analyzer_analyze_stack(p->packs[i], ar, n, &found, err);
  const char *policy = NULL;
  int mandatory = rc == 0 ? count_mandatory(&found, &policy) : 0;
  if (mandatory)
    rc = mp_err_set(err, MP_EINVAL,
                    "the stack violates %d mandatory polic%s (first: '%s')",
                    mandatory, mandatory == 1 ? "y" : "ies", policy);
  keep(p, &found);
  mp_policy_diags_destroy(&found);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  free(ar);
  return rc;
}

void mp_policy_run_hook(mp_policy_run *p, mp_deploy_opts *o) {
  if (p->n == 0) return;
  o->steps.analyze = analyze;
  o->steps.analyze_ud = p;
  o->analyze_stack = analyze_stack;
  o->analyze_stack_ud = p;
}

int mp_policy_run_mandatory(mp_policy_run *p) {
  return count_mandatory(&p->found, NULL) > 0;
}

/* "(<type>: <name>)" of |urn|, or "" for the stack's own findings. */
static void subject(const char *urn, mp_buf *b) {
  if (urn == NULL || *urn == '\0') return;
  size_t tlen = 0, nlen = 0;
  const char *type = mp_urn_type(urn, &tlen);
  const char *nm = mp_urn_name(urn, &nlen);
  mp_buf_printf(b, "  (%.*s: %.*s)", (int)tlen, type ? type : "", (int)nlen,
                nm ? nm : "");
}

void mp_policy_run_print(mp_policy_run *p, FILE *out) {
  if (p->n == 0) return;
  fprintf(out, "Policies:\n");
  for (size_t i = 0; i < p->n; i++) {
    const char *name = p->names[i];
    int worst = -1; /* -1 none, 0 advisory or remediate, 1 mandatory */
    for (size_t k = 0; k < p->found.len; k++)
      if (strcmp(p->found.items[k].pack, name) == 0) {
        int m = p->found.items[k].level == MP_POLICY_MANDATORY;
        if (m > worst) worst = m;
      }
    fprintf(out, "    %s %s@v%s (local: %s)\n",
            worst == 1 ? "\u274c" : worst == 0 ? "\u26a0\ufe0f" : "\u2705", name,
            p->versions[i], p->dirs[i]);
    for (size_t k = 0; k < p->found.len; k++) {
      const mp_policy_diag *x = &p->found.items[k];
      if (strcmp(x->pack, name)) continue;
      mp_buf b;
      mp_buf_init(&b);
      subject(x->urn, &b);
      fprintf(out, "        - [%s]  %s%s\n", mp_policy_level_name(x->level),
              x->policy, b.data ? b.data : "");
      mp_buf_destroy(&b);
      /* @pulumi/policy's message starts with the description */
      const char *text = x->message[0] ? x->message : x->description;
      while (*text) {
        size_t n = strcspn(text, "\n");
        fprintf(out, "          %.*s\n", (int)n, text);
        text += n + (text[n] == '\n');
      }
    }
  }
  fprintf(out, "\n");
}

void mp_policy_run_json(mp_policy_run *p, FILE *f, uint64_t *sequence,
                        double timestamp) {
  for (size_t k = 0; k < p->found.len; k++) {
    const mp_policy_diag *x = &p->found.items[k];
    int fix = x->level == MP_POLICY_REMEDIATE;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddNumberToObject(ev, "sequence", (double)++*sequence);
    cJSON_AddNumberToObject(ev, "timestamp", (double)(long long)timestamp);
    cJSON *pe = cJSON_AddObjectToObject(
        ev, fix ? "policyRemediationEvent" : "policyEvent");
    if (x->urn[0]) cJSON_AddStringToObject(pe, "resourceUrn", x->urn);
    if (!fix) cJSON_AddStringToObject(pe, "message", x->message);
    cJSON_AddStringToObject(pe, "color", "never");
    cJSON_AddStringToObject(pe, "policyName", x->policy);
    cJSON_AddStringToObject(pe, "policyPackName", x->pack);
    cJSON_AddStringToObject(pe, "policyPackVersion", x->pack_version);
    cJSON_AddStringToObject(pe, "policyPackVersionTag", x->pack_version);
    if (!fix)
      cJSON_AddStringToObject(pe, "enforcementLevel",
                              mp_policy_level_name(x->level));
    char *text = cJSON_PrintUnformatted(ev);
    fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(ev);
  }
}

void mp_policy_run_stop(mp_policy_run *p) {
  for (size_t i = 0; i < p->n; i++) {
    mp_analyzer_stop(p->packs[i]);
    p->packs[i] = NULL;
  }
}

void mp_policy_run_destroy(mp_policy_run *p) {
  for (size_t i = 0; i < p->n; i++) {
    free(p->dirs[i]);
    free(p->names[i]);
    free(p->versions[i]);
  }
  free(p->packs);
  free(p->dirs);
  free(p->names);
  free(p->versions);
  mp_policy_diags_destroy(&p->found);
  mp_strv_destroy(&p->problems);
  pthread_mutex_destroy(&p->mu);
}
