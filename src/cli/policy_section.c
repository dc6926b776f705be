/* The "Policies:" section of the display (cli/policy_run.h), as Pulumi's
 * display prints it (pkg/backend/display/progress.go, printPolicies),
 * from the policy events the deployment sent. */
#include <stdlib.h>
#include <string.h>

#include "cli/policy_run.h"
#include "engine/urn.h"

static mp_policy_level level_of(const char *name) {
  static const mp_policy_level all[] = {MP_POLICY_MANDATORY,
                                        MP_POLICY_DISABLED,
                                        MP_POLICY_REMEDIATE};
  for (size_t i = 0; name && i < MP_ARRAY_LEN(all); i++)
    if (strcmp(name, mp_policy_level_name(all[i])) == 0) return all[i];
  return MP_POLICY_ADVISORY;
}

static char *dup0(const char *s) { return mp_xstrdup(s ? s : ""); }

void mp_policy_run_event(mp_policy_run *p, const mp_event *ev) {
  int fix = ev->kind == MP_EVENT_POLICY_REMEDIATION;
  if ((!fix && ev->kind != MP_EVENT_POLICY_VIOLATION) || ev->policy == NULL)
    return;
  mp_policy_diags *d = &p->found;
  if (d->len == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 8;
    d->items = mp_xrealloc(d->items, d->cap * sizeof(*d->items));
  }
  const mp_policy_finding *f = ev->policy;
  mp_policy_diag *x = &d->items[d->len++];
  memset(x, 0, sizeof(*x));
  x->policy = dup0(f->policy);
  x->pack = dup0(f->pack);
  x->pack_version = dup0(f->pack_version);
  x->description = dup0(f->description);
  x->message = dup0(ev->message);
  x->urn = dup0(ev->urn);
  x->level = fix ? MP_POLICY_REMEDIATE : level_of(f->level);
  if (fix) {
    x->diff = dup0(f->diff);
    x->before = f->before ? mp_value_dup(f->before) : NULL;
    x->after = f->after ? mp_value_dup(f->after) : NULL;
  }
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
  int mandatory = 0;
  for (size_t i = 0; i < keys.len; i++)
    mandatory |= print_pack(p, keys.items[i], out);
  mp_strv_destroy(&keys);
  fprintf(out, "\n");
  return mandatory;
}
