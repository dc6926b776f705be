#include "cli/policy_run.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli/json_out.h"
#include "engine/urn.h"
#include "stepgen/stepgen.h"

void mp_policy_run_init(mp_policy_run *p) {
  memset(p, 0, sizeof(*p));
  mp_strv_init(&p->problems);
  mp_strv_init(&p->summary_packs);
  pthread_mutex_init(&p->mu, NULL);
}

/* A pack's folder as Pulumi's engine names it in events
 * (abbreviateFilePath): beyond 75 characters, its first two and last two
 * parts around "...". */
static char *abbreviated(const char *path) {
  if (strlen(path) <= 75) return mp_xstrdup(path);
  mp_strv parts;
  mp_strv_init(&parts);
  for (const char *s = path;;) {
    size_t n = strcspn(s, "/");
    mp_strv_push_take(&parts, mp_xstrndup(s, n));
    if (s[n] == '\0') break;
    s += n + 1;
  }
  char *out;
  if (parts.len > 4)
    out = mp_xasprintf("%s/%s/.../%s/%s", parts.items[0], parts.items[1],
                       parts.items[parts.len - 2], parts.items[parts.len - 1]);
  else
    out = mp_xstrdup(path);
  mp_strv_destroy(&parts);
  return out;
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
  out->failed = mp_xcalloc(f->packs.len, sizeof(*out->failed));
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
  for (size_t k = 0; !invalid && !out->refresh && k < out->n; k++) {
    char *path = abbreviated(out->dirs[k]);
    mp_strv_push_take(&out->summary_packs,
                      mp_xasprintf("%s|local|%s", out->names[k], path));
    mp_strv_push(&out->summary_packs, out->versions[k]);
    free(path);
  }
  if (!invalid) return 0;
  /* Pulumi's order: every pack's lines, sorted */
  if (out->problems.len > 1)
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

/* Notes that pack |i|'s call failed (|rc| < 0): the display marks it. */
static int note_failure(mp_policy_run *p, size_t i, int rc) {
  if (rc < 0) {
    pthread_mutex_lock(&p->mu);
    p->failed[i] = 1;
    pthread_mutex_unlock(&p->mu);
  }
  return rc;
}

static int count_mandatory(const mp_policy_diags *d) {
  int n = 0;
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].level == MP_POLICY_MANDATORY) n++;
  return n;
}

/* The step generator's hook: every pack's Remediate (each sees the
 * previous one's result), then every pack's Analyze of the result. */
static int analyze(void *ud, mp_resource *st, const mp_sg_analyzed *x,
                   mp_diags *diags, mp_err *err) {
  (void)diags;
  mp_policy_run *p = ud;
  size_t nlen = 0;
  const char *nm = mp_urn_name(st->urn, &nlen);
  char *name = mp_xstrndup(nm ? nm : "", nm ? nlen : 0);
  mp_policy_diags found = {0};
  int rc = 0;
  for (size_t i = 0; i < p->n && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn,    st->type, name,
                              st->parent, st->inputs, st,
                              x->delete_before_replace, x->provider};
    mp_value *fixed = NULL;
    rc = note_failure(
        p, i, mp_analyzer_remediate(p->packs[i], &r, &fixed, &found, err));
    if (fixed) {
      mp_value_free(st->inputs);
      st->inputs = fixed;
    }
  }
  for (size_t i = 0; i < p->n && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn,    st->type, name,
                              st->parent, st->inputs, st,
                              x->delete_before_replace, x->provider};
    rc = note_failure(p, i, mp_analyzer_analyze(p->packs[i], &r, &found, err));
  }
  int mandatory = rc == 0 ? count_mandatory(&found) : 0;
  if (mandatory) { /* the generator decides: bail in an update, go on in
                      a preview; the policy events tell why */
    mp_err_set(err, MP_EINVAL, "resource %s is invalid", st->urn);
    rc = 1;
  }
  keep(p, &found);
  mp_policy_diags_destroy(&found);
  free(name);
  return rc;
}

static int analyze_stack(void *ud, const mp_resource *const *rs,
                         const mp_resource *const *providers, const int *dbrs,
                         size_t n, mp_err *err) {
  mp_policy_run *p = ud;
  mp_analyzer_resource *ar = mp_xcalloc(n ? n : 1, sizeof(*ar));
  char **names = mp_xcalloc(n ? n : 1, sizeof(*names));
  for (size_t i = 0; i < n; i++) {
    size_t nlen = 0;
    const char *nm = mp_urn_name(rs[i]->urn, &nlen);
    names[i] = mp_xstrndup(nm ? nm : "", nm ? nlen : 0);
    const mp_value *props = rs[i]->outputs ? rs[i]->outputs : rs[i]->inputs;
    ar[i] = (mp_analyzer_resource){rs[i]->urn,    rs[i]->type, names[i],
                                   rs[i]->parent, props,       rs[i],
                                   dbrs[i],       providers[i]};
  }
  mp_policy_diags found = {0};
  int rc = 0;
  for (size_t i = 0; i < p->n && rc == 0; i++)
    rc = note_failure(
        p, i, mp_analyzer_analyze_stack(p->packs[i], ar, n, &found, err));
  /* a mandatory violation fails the run with no word of its own (an
   * empty message): as Pulumi's step generator, which only marks itself
   * errored, the policy events tell it, then "update failed" */
  if (rc == 0 && count_mandatory(&found))
    rc = mp_err_set(err, MP_EINVAL, "%s", "");
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
  return count_mandatory(&p->found) > 0;
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

/* A pack as Pulumi's Policies: section keys it: "<name>@v<version>". */
static char *pack_key(const char *name, const char *version) {
  return mp_xasprintf("%s@v%s", name, version);
}

static int by_key(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Pulumi's order of a pack's violations: level, policy, then URN. */
static int by_level_policy_urn(const void *a, const void *b) {
  const mp_policy_diag *x = *(const mp_policy_diag *const *)a;
  const mp_policy_diag *y = *(const mp_policy_diag *const *)b;
  int c = strcmp(mp_policy_level_name(x->level), mp_policy_level_name(y->level));
  if (c == 0) c = strcmp(x->policy, y->policy);
  if (c == 0) c = strcmp(x->urn, y->urn);
  return c;
}

static void print_violation(const mp_policy_diag *x, FILE *out) {
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

/* One pack's part: its line, the remediations counted by policy (Pulumi
 * lists them one by one only with --show-policy-remediations), then the
 * violations. Returns whether one was mandatory. */
static int print_pack(mp_policy_run *p, const char *key, FILE *out) {
  size_t n = p->found.len, nv = 0;
  const mp_policy_diag **v = mp_xcalloc(n ? n : 1, sizeof(*v));
  mp_strv fixes; /* the remediating policies, with repeats */
  mp_strv_init(&fixes);
  for (size_t k = 0; k < n; k++) {
    const mp_policy_diag *x = &p->found.items[k];
    char *xk = pack_key(x->pack, x->pack_version);
    if (strcmp(xk, key) == 0) {
      if (x->level == MP_POLICY_REMEDIATE) mp_strv_push(&fixes, x->policy);
      else v[nv++] = x;
    }
    free(xk);
  }
  int mandatory = 0, any = nv > 0;
  for (size_t k = 0; k < nv; k++)
    if (v[k]->level == MP_POLICY_MANDATORY) mandatory = 1;
  mp_buf paths; /* every folder that loaded this pack */
  mp_buf_init(&paths);
  mp_strv dirs;
  mp_strv_init(&dirs);
  int failed = 0; /* a call of the pack failed: not passed, whatever it found */
  for (size_t i = 0; i < p->n; i++) {
    char *k = pack_key(p->names[i], p->versions[i]);
    if (strcmp(k, key) == 0) {
      mp_strv_push(&dirs, p->dirs[i]);
      failed |= p->failed[i];
    }
    free(k);
  }
  if (dirs.len > 1) qsort(dirs.items, dirs.len, sizeof(char *), by_key);
  for (size_t i = 0; i < dirs.len; i++)
    mp_buf_printf(&paths, "%s%s", i ? "; " : "", dirs.items[i]);
  fprintf(out, "    %s %s (local: %s)\n",
          mandatory || failed ? "\u274c"
          : any               ? "\u26a0\ufe0f"
                              : "\u2705",
          key, paths.data ? paths.data : "");
  mp_buf_destroy(&paths);
  mp_strv_destroy(&dirs);
  /* --show-policy-remediations: each one, as it came, with its short diff
   * (none shown when it changed nothing) */
  for (size_t k = 0; p->show_remediations && k < n; k++) {
    const mp_policy_diag *x = &p->found.items[k];
    if (x->level != MP_POLICY_REMEDIATE || x->diff == NULL || !x->diff[0])
      continue;
    char *xk = pack_key(x->pack, x->pack_version);
    if (strcmp(xk, key) == 0) {
      mp_buf b;
      mp_buf_init(&b);
      subject(x->urn, &b);
      fprintf(out, "        - [remediate]  %s%s [%s]\n", x->policy,
              b.data ? b.data : "", x->diff);
      mp_buf_destroy(&b);
    }
    free(xk);
  }
  if (fixes.len > 1) qsort(fixes.items, fixes.len, sizeof(char *), by_key);
  for (size_t i = 0; !p->show_remediations && i < fixes.len;) {
    size_t j = i;
    while (j < fixes.len && strcmp(fixes.items[j], fixes.items[i]) == 0) j++;
    fprintf(out, "        - [remediate]  %s  (%zu resource%s)\n",
            fixes.items[i], j - i, j - i == 1 ? "" : "s");
    i = j;
  }
  mp_strv_destroy(&fixes);
  if (nv > 1) qsort(v, nv, sizeof(*v), by_level_policy_urn);
  for (size_t k = 0; k < nv; k++) print_violation(v[k], out);
  free(v);
  return mandatory;
}

int mp_policy_run_print(void *ud, FILE *out) {
  mp_policy_run *p = ud;
  /* Pulumi lists the packs a refresh ran as none: no section */
  if (p->n == 0 || p->refresh) return 0;
  fprintf(out, "Policies:\n");
  mp_strv keys;
  mp_strv_init(&keys);
  for (size_t i = 0; i < p->n; i++) {
    char *k = pack_key(p->names[i], p->versions[i]);
    if (!mp_strv_contains(&keys, k)) mp_strv_push(&keys, k);
    free(k);
  }
  if (keys.len > 1) qsort(keys.items, keys.len, sizeof(char *), by_key);
  pthread_mutex_lock(&p->mu);
  int mandatory = 0;
  for (size_t i = 0; i < keys.len; i++)
    mandatory |= print_pack(p, keys.items[i], out);
  pthread_mutex_unlock(&p->mu);
  mp_strv_destroy(&keys);
  fprintf(out, "\n");
  return mandatory;
}

size_t mp_policy_run_count(mp_policy_run *p) {
  pthread_mutex_lock(&p->mu);
  size_t n = p->found.len;
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* A violation's message as Pulumi's engine makes it (the policy's
 * message, then a newline: eventEmitter.policyViolationEvent), without
 * its color markers. */
static void add_message(cJSON *o, const char *message) {
  char *m = mp_xasprintf("%s\n", message ? message : "");
  cJSON_AddStringToObject(o, "message", m);
  free(m);
}

/* A remediation's property map, left out when empty (omitempty). */
static void add_props(cJSON *o, const char *key, const mp_value *v) {
  if (v && v->kind == MP_VALUE_OBJECT && v->u.obj.len > 0)
    cJSON_AddItemToObject(o, key, mp_cli_value_cjson(v, 0));
}

void mp_policy_run_json(mp_policy_run *p, size_t from, size_t to, FILE *f,
                        uint64_t first_seq, double timestamp) {
  pthread_mutex_lock(&p->mu); /* |found| may grow (and move) meanwhile */
  for (size_t k = from; k < to && k < p->found.len; k++) {
    const mp_policy_diag *x = &p->found.items[k];
    int fix = x->level == MP_POLICY_REMEDIATE;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddNumberToObject(ev, "sequence", (double)(first_seq + (k - from)));
    cJSON_AddNumberToObject(ev, "timestamp", (double)(long long)timestamp);
    cJSON *pe = cJSON_AddObjectToObject(
        ev, fix ? "policyRemediationEvent" : "policyEvent");
    if (x->urn[0]) cJSON_AddStringToObject(pe, "resourceUrn", x->urn);
    if (!fix) add_message(pe, x->message);
    /* Pulumi's engine makes both "raw"; its JSON writer (logJSONEvent)
     * cleans a violation's message for a colorless run, not a
     * remediation */
    cJSON_AddStringToObject(pe, "color", fix ? "raw" : "never");
    cJSON_AddStringToObject(pe, "policyName", x->policy);
    cJSON_AddStringToObject(pe, "policyPackName", x->pack);
    cJSON_AddStringToObject(pe, "policyPackVersion", x->pack_version);
    cJSON_AddStringToObject(pe, "policyPackVersionTag", x->pack_version);
    if (!fix)
      cJSON_AddStringToObject(pe, "enforcementLevel",
                              mp_policy_level_name(x->level));
    if (fix) { /* secrets masked: Pulumi's writer never shows them */
      add_props(pe, "before", x->before);
      add_props(pe, "after", x->after);
    }
    char *text = cJSON_PrintUnformatted(ev);
    fprintf(f, "%s\n", text);
    free(text);
    cJSON_Delete(ev);
  }
  pthread_mutex_unlock(&p->mu);
  fflush(f);
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
  free(p->failed);
  mp_policy_diags_destroy(&p->found);
  mp_strv_destroy(&p->problems);
  mp_strv_destroy(&p->summary_packs);
  pthread_mutex_destroy(&p->mu);
}
