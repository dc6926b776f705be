#include "cli/policy_run.h"

#include <stdlib.h>
#include <string.h>

void mp_policy_run_init(mp_policy_run *p) {
  memset(p, 0, sizeof(*p));
  mp_strv_init(&p->problems);
  mp_strv_init(&p->summary_packs);
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

void mp_policy_run_stop(mp_policy_run *p) {
  for (size_t i = 0; i < p->n; i++) {
    if (p->packs[i]) p->failed[i] = (unsigned char)mp_analyzer_failed(p->packs[i]);
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
}
