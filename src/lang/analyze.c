/* Static analysis of a Pulumi YAML program: declarations, references,
 * options, config and the dependency graph (no monitor calls here). */
#include "engine/text.h"
#include "engine/prog_name.h"
#include "lang/prog.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Messages are cut to their buffers on purpose (at()); -O3 inlines the
 * callers' texts and warns. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static const char *const resource_fields[] = {
    "type", "name", "defaultProvider", "properties", "options", "get"};
static const char *const option_fields[] = {
    "additionalSecretOutputs", "aliases", "customTimeouts",
    "deleteBeforeReplace", "dependsOn", "ignoreChanges", "import", "parent",
    "protect", "provider", "version", "pluginDownloadURL",
    "replaceOnChanges", "retainOnDelete", "deletedWith", "hideDiffs",
    "replaceWith", "envVarMappings", "replacementTrigger", "providers"};

static int in_list(const char *const *list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], s) == 0)
      return 1;
  return 0;
}

static int at(mp_err *err, const char *file, int line, int col,
              const char *fmt, const char *a, const char *b) {
  char msg[400];
  snprintf(msg, sizeof(msg), fmt, a, b);
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", file, line, col, msg);
}

/* ---- config ---- */

/* Adds config |full| ("proj:size"), referred to as |short_key|, or when
 * NULL as |full| without the project's namespace. */
static void cfg_add(mp__prog *p, const char *full, const char *short_key,
                    mp_value *v) {
  const char *proj = p->proj->name;
  size_t pl = strlen(proj);
  if (short_key == NULL)
    short_key = full;
  if (short_key == full && strncmp(full, proj, pl) == 0 && full[pl] == ':')
    short_key = full + pl + 1;
  p->cfg = mp_xreallocarray(p->cfg, p->ncfg + 1, sizeof(*p->cfg));
  p->cfg[p->ncfg].short_key = mp_xstrdup(short_key);
  p->cfg[p->ncfg].full_key = mp_xstrdup(full);
  p->cfg[p->ncfg].value = v;
  p->ncfg++;
}

static long cfg_find(const mp__prog *p, const char *key) {
  for (size_t i = 0; i < p->ncfg; i++)
    if (strcmp(p->cfg[i].full_key, key) == 0 ||
        strcmp(p->cfg[i].short_key, key) == 0)
      return (long)i;
  return -1;
}

/* Integers are carried as doubles: beyond 2^53 they would change. */
#define MAX_EXACT_INT 9007199254740992.0

/* Parses an integer as Pulumi does (Go's strconv.Atoi: an optional sign
 * and decimal digits, nothing else, within 64 bits), and refuses what a
 * double would not carry exactly. Returns 0, or -1 with |why| set. */
static int parse_integer(const char *s, double *out, char *why, size_t cap) {
  const char *p = s + (*s == '+' || *s == '-');
  if (!*p || strspn(p, "0123456789") != strlen(p)) {
    snprintf(why, cap, "'%.64s' is not a decimal integer", s);
    return -1;
  }
  errno = 0;
  long long v = strtoll(s, NULL, 10);
  if (errno == ERANGE) {
    snprintf(why, cap, "'%.64s' is out of the range of 64-bit integers", s);
    return -1;
  }
  if (v > (1LL << 53) || v < -(1LL << 53)) {
    snprintf(why, cap,
             "'%.64s' is beyond 2^53, the largest integer carried exactly", s);
    return -1;
  }
  *out = (double)v;
  return 0;
}

/* A decimal number: sign, digits, fraction, exponent; no hex, no inf or
 * nan, no spaces. Returns 0, or -1 with |why| set. */
static int parse_number(const char *s, double *out, char *why, size_t cap) {
  const char *p = s + (*s == '+' || *s == '-');
  size_t n = strspn(p, "0123456789");
  if (p[n] == '.') n += 1 + strspn(p + n + 1, "0123456789");
  int digits = n > 0 && !(n == 1 && p[0] == '.');
  if (digits && (p[n] == 'e' || p[n] == 'E')) {
    size_t e = n + 1 + (p[n + 1] == '+' || p[n + 1] == '-');
    size_t k = strspn(p + e, "0123456789");
    n = k ? e + k : 0;
  }
  errno = 0;
  double d = digits && n && !p[n] ? strtod(s, NULL) : NAN;
  if (!isfinite(d)) {
    snprintf(why, cap, "'%.64s' is not a decimal number", s);
    return -1;
  }
  *out = d;
  return 0;
}

/* What |v| is, for messages: "an object", "the string 'x'", ... */
static void describe(const mp_value *v, int secret, char *out, size_t cap) {
  const char *t = mp__lang_value_type(v);
  if (v->kind == MP_VALUE_STRING && !secret)
    snprintf(out, cap, "it is the string '%.64s'", v->u.str.ptr);
  else
    snprintf(out, cap, "it is %s %s%s",
             strchr("aeiou", t[0]) ? "an" : "a", secret ? "secret " : "", t);
}

/* Converts a stack config value (usually a string) to |type|. Returns the
 * new value (owned), or NULL with the reason in |why|. */
static mp_value *coerce(const mp_value *v, const char *type, int secret,
                        char *why, size_t cap) {
  double d;
  const char *vt = mp__lang_value_type(v);
  if (!strcmp(vt, type) || (!strcmp(type, "number") && !strcmp(vt, "integer"))) {
    if (!strcmp(type, "integer") && fabs(v->u.number) > MAX_EXACT_INT) {
      snprintf(why, cap, "it is beyond 2^53, the largest integer carried "
                         "exactly");
      return NULL;
    }
    return mp_value_dup(v);
  }
  describe(v, secret, why, cap);
  if (v->kind == MP_VALUE_BOOL && !strcmp(type, "string"))
    return mp_value_new_cstring(v->u.boolean ? "true" : "false");
  if (v->kind != MP_VALUE_STRING)
    return NULL;
  const char *s = v->u.str.ptr;
  if (!strcmp(type, "integer") || !strcmp(type, "number")) {
    char detail[160];
    int rc = !strcmp(type, "integer")
                 ? parse_integer(s, &d, detail, sizeof(detail))
                 : parse_number(s, &d, detail, sizeof(detail));
    if (rc == 0) return mp_value_new_number(d);
    if (!secret) snprintf(why, cap, "%s", detail); /* it quotes the value */
    return NULL;
  }
  if (!strcmp(type, "boolean") && (!strcmp(s, "true") || !strcmp(s, "false")))
    return mp_value_new_bool(s[0] == 't');
  if (!strcmp(type, "array") || !strcmp(type, "object")) {
    mp_value *out = NULL;
    mp_err e;
    if (mp_value_from_json(s, v->u.str.len, NULL, &out, &e) == 0 &&
        !strcmp(mp__lang_value_type(out), type))
      return out;
    mp_value_free(out);
  }
  return NULL;
}

static int load_declared(mp__prog *p, const mp_project_config *c,
                         const mp_value *config, mp_err *err) {
  /* `name:` names the key read; the program still says |c->key|. */
  const char *read = c->name ? c->name : c->key;
  char *full = strchr(read, ':')
                   ? mp_xstrdup(read)
                   : mp_xasprintf("%s:%s", p->proj->name, read);
  const mp_value *set = config ? mp_value_object_get(config, full) : NULL;
  mp_value *v = NULL;
  if (set == NULL && c->def == NULL) {
    int rc = mp_err_set(err, MP_EINVAL,
                        "Pulumi.yaml:%d:%d: missing required configuration "
                        "variable '%s'; set it with `%s config set "
                        "%s <value>`",
                        c->line, c->col, full, mp_prog_name(), read);
    free(full);
    return rc;
  }
  if (set == NULL) {
    v = mp_value_dup(c->def);
  } else {
    int secret = set->kind == MP_VALUE_SECRET;
    const mp_value *inner = secret ? set->u.secret : set;
    char why[160] = "";
    v = c->type ? coerce(inner, c->type, secret, why, sizeof(why))
                : mp_value_dup(inner);
    if (v == NULL) {
      /* Pulumi's words, then what the value is (never a secret's text). */
      int rc = mp_err_set(err, MP_EINVAL,
                          "Pulumi.yaml:%d:%d: Stack '%s' with configuration "
                          "key '%s' must be of type '%s'; %s",
                          c->line, c->col, p->stack ? p->stack : "",
                          read, c->type, why);
      free(full);
      return rc;
    }
    if (secret)
      v = mp_value_new_secret(v);
  }
  if (c->secret && v->kind != MP_VALUE_SECRET)
    v = mp_value_new_secret(v);
  cfg_add(p, full, c->name ? c->key : NULL, v);
  free(full);
  return 0;
}

static int load_config(mp__prog *p, const mp_value *config, mp_err *err) {
  for (size_t i = 0; i < mp_project_config_count(p->proj); i++) {
    int rc = load_declared(p, mp_project_config_at(p->proj, i), config, err);
    if (rc < 0)
      return rc;
  }
  if (config == NULL || config->kind != MP_VALUE_OBJECT)
    return 0;
  for (size_t i = 0; i < config->u.obj.len; i++) {
    const mp_value_entry *e = &config->u.obj.items[i];
    int known = 0;
    for (size_t j = 0; j < p->ncfg; j++)
      known |= strcmp(p->cfg[j].full_key, e->key) == 0;
    if (!known)
      cfg_add(p, e->key, NULL, mp_value_dup(e->value));
  }
  return 0;
}

/* ---- declarations ---- */

static int build(mp__prog *p, const mp_ynode *n, mp__yexpr **out,
                 mp_err *err) {
  if (n == NULL || mp_ynode_is_null(n)) {
    *out = NULL;
    return 0;
  }
  return mp__yexpr_build(n, p->file, out, err);
}

static long res_find(const mp__prog *p, const char *key) {
  for (size_t i = 0; i < p->nres; i++)
    if (strcmp(p->res[i].key, key) == 0)
      return (long)i;
  return -1;
}

static long var_find(const mp__prog *p, const char *key) {
  for (size_t i = 0; i < p->nvars; i++)
    if (strcmp(p->vars[i].name, key) == 0)
      return (long)i;
  return -1;
}

/* The option expressions kept for evaluation at registration time. */
static int load_option_exprs(mp__prog *p, mp__yres *r, const mp_ynode *o,
                             mp_err *err) {
  struct {
    const char *key;
    mp__yexpr **slot;
  } map[] = {{"protect", &r->protect},
             {"retainOnDelete", &r->retain},
             {"deleteBeforeReplace", &r->dbr},
             {"version", &r->version},
             {"import", &r->import_id},
             {"ignoreChanges", &r->ignore},
             {"replaceOnChanges", &r->replace_on},
             {"additionalSecretOutputs", &r->aso},
             {"customTimeouts", &r->timeouts},
             {"aliases", &r->aliases},
             {"pluginDownloadURL", &r->plugin_url},
             {"hideDiffs", &r->hide_diffs},
             {"envVarMappings", &r->env_vars},
             {"replacementTrigger", &r->trigger}};
  for (size_t i = 0; i < MP_ARRAY_LEN(map); i++) {
    int rc = build(p, mp_ynode_get(o, map[i].key), map[i].slot, err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

static int check_fields(mp__prog *p, const mp_ynode *m,
                        const char *const *allowed, size_t n,
                        const char *what, const char *name, mp_err *err) {
  for (size_t i = 0; i < m->n; i++) {
    const mp_ynode *k = m->keys[i];
    if (!in_list(allowed, n, k->text)) {
      char w[200];
      snprintf(w, sizeof(w), "%s '%s'", what, name);
      return at(err, p->file, k->line, k->col, "%s has unknown field '%s'",
                w, k->text);
    }
  }
  return 0;
}

static int load_resource(mp__prog *p, mp__yres *r, const mp_ynode *k,
                         const mp_ynode *v, mp_err *err) {
  r->key = mp_xstrdup(k->text);
  r->line = k->line;
  r->col = k->col;
  r->parent = r->provider = r->deleted_with = -1;
  if (v->kind != MP_YNODE_MAP)
    return at(err, p->file, v->line, v->col,
              "resource '%s' must be a map with a 'type'%s", r->key, "");
  int rc = check_fields(p, v, resource_fields, MP_ARRAY_LEN(resource_fields),
                        "resource", r->key, err);
  if (rc < 0)
    return rc;
  const mp_ynode *t = mp_ynode_get(v, "type");
  if (t == NULL || t->kind != MP_YNODE_SCALAR)
    return at(err, p->file, v->line, v->col,
              "resource '%s' needs a 'type' string%s", r->key, "");
  r->written_type = mp_xstrdup(t->text);
  r->type_line = t->line;
  r->type_col = t->col;
  rc = mp_yaml_resolve_type(t->text, &r->type, err);
  if (rc < 0)
    return mp_err_prefix(err, "%s:%d:%d: resource '%s'", p->file, t->line,
                         t->col, r->key);
  r->is_provider = strncmp(r->type, "pulumi:providers:", 17) == 0;
  r->pkg = r->is_provider ? mp_xstrdup(r->type + 17)
                          : mp_xstrndup(r->type, strcspn(r->type, ":"));
  const mp_ynode *nm = mp_ynode_get(v, "name");
  if (nm != NULL && nm->kind != MP_YNODE_SCALAR)
    return at(err, p->file, nm->line, nm->col,
              "resource '%s': 'name' must be a string%s", r->key, "");
  r->name = mp_xstrdup(nm ? nm->text : r->key);
  const mp_ynode *dp = mp_ynode_get(v, "defaultProvider");
  if (dp != NULL) {
    mp_value *b = mp_ynode_value(dp, MP_YNODE_TYPED);
    int ok = b->kind == MP_VALUE_BOOL;
    r->default_provider = ok && b->u.boolean;
    mp_value_free(b);
    if (!ok || (r->default_provider && !r->is_provider))
      return at(err, p->file, dp->line, dp->col,
                "resource '%s': defaultProvider must be a boolean on a "
                "provider resource (type pulumi:providers:<pkg>)%s",
                r->key, "");
  }
  const mp_ynode *props = mp_ynode_get(v, "properties");
  if (props != NULL && !mp_ynode_is_null(props) &&
      props->kind != MP_YNODE_MAP)
    return at(err, p->file, props->line, props->col,
              "resource '%s': 'properties' must be a map%s", r->key, "");
  rc = build(p, props, &r->props, err);
  const mp_ynode *get = mp_ynode_get(v, "get");
  if (rc == 0 && get != NULL) {
    r->is_get = 1;
    if (get->kind != MP_YNODE_MAP || mp_ynode_get(get, "id") == NULL)
      return at(err, p->file, get->line, get->col,
                "resource '%s': 'get' needs an 'id'%s", r->key, "");
    rc = build(p, mp_ynode_get(get, "id"), &r->get_id, err);
    if (rc == 0)
      rc = build(p, mp_ynode_get(get, "state"), &r->get_state, err);
  }
  if (strcmp(r->type, "pulumi:pulumi:StackReference") == 0)
    r->is_get = r->is_stack_ref = 1;
  const mp_ynode *o = mp_ynode_get(v, "options");
  if (rc < 0 || o == NULL || mp_ynode_is_null(o))
    return rc;
  if (o->kind != MP_YNODE_MAP)
    return at(err, p->file, o->line, o->col,
              "resource '%s': 'options' must be a map%s", r->key, "");
  rc = check_fields(p, o, option_fields, MP_ARRAY_LEN(option_fields),
                    "the options of resource", r->key, err);
  if (rc == 0)
    rc = load_option_exprs(p, r, o, err);
  return rc;
}

static int load_section(const mp_ynode *doc, const char *key,
                        const char *file, const mp_ynode **out,
                        mp_err *err) {
  *out = mp_ynode_get(doc, key);
  if (*out == NULL || mp_ynode_is_null(*out)) {
    *out = NULL;
    return 0;
  }
  if ((*out)->kind != MP_YNODE_MAP)
    return at(err, file, (*out)->line, (*out)->col, "'%s' must be a map%s",
              key, "");
  return 0;
}

static int load_decls(mp__prog *p, mp_err *err) {
  const mp_ynode *doc = p->proj->program, *res = NULL, *vars = NULL,
                *outs = NULL;
  int rc = load_section(doc, "resources", p->file, &res, err);
  if (rc == 0)
    rc = load_section(doc, "variables", p->file, &vars, err);
  if (rc == 0)
    rc = load_section(doc, "outputs", p->file, &outs, err);
  if (rc < 0)
    return rc;
  size_t nres = res ? res->n : 0, nvars = vars ? vars->n : 0;
  p->res = mp_xcalloc(nres + 1, sizeof(*p->res));
  p->vars = mp_xcalloc(nvars + 1, sizeof(*p->vars));
  for (size_t i = 0; i < nres; i++) {
    p->nres++;
    rc = load_resource(p, &p->res[i], res->keys[i], res->vals[i], err);
    if (rc < 0)
      return rc;
  }
  for (size_t i = 0; i < nvars; i++) {
    mp__yvar *v = &p->vars[p->nvars++];
    v->name = mp_xstrdup(vars->keys[i]->text);
    v->line = vars->keys[i]->line;
    v->col = vars->keys[i]->col;
    mp_strv_init(&v->deps);
    if (res_find(p, v->name) >= 0)
      return at(err, p->file, v->line, v->col,
                "variable '%s' has the same name as a resource%s", v->name,
                "");
    rc = mp__yexpr_build(vars->vals[i], p->file, &v->expr, err);
    if (rc < 0)
      return rc;
  }
  const mp_ynode *pu = NULL;
  rc = load_section(doc, "pulumi", p->file, &pu, err);
  if (rc < 0)
    return rc;
  const mp_ynode *rv = pu ? mp_ynode_get(pu, "requiredVersion") : NULL;
  if (rv && !mp_ynode_is_null(rv)) {
    rc = mp__yexpr_build(rv, p->file, &p->required_version, err);
    if (rc < 0)
      return rc;
  }
  p->outs = mp_xcalloc((outs ? outs->n : 0) + 1, sizeof(*p->outs));
  for (size_t i = 0; outs && i < outs->n; i++) {
    mp__yout *o = &p->outs[p->nouts++];
    o->key = mp_xstrdup(outs->keys[i]->text);
    rc = mp__yexpr_build(outs->vals[i], p->file, &o->expr, err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* ---- references ---- */

typedef struct ref_walk {
  mp__prog *p;
  const char *what; /* "resource 'a'" */
  mp_err *err;
} ref_walk;

static const char *const pulumi_fields[] = {"stack", "project",
                                            "organization", "cwd",
                                            "rootDirectory"};


/* Pulumi YAML's type check of `${res.prop}` on a resource whose schema is
 * known: "<prop> does not exist on <res>", then the five closest
 * properties ("Existing properties are: a, b and 3 others"). */
static int check_resource_property(ref_walk *w, const mp__yres *r,
                                   const mp__yexpr *x) {
  const char *const *props = mp_yaml_type_properties(r->type);
  if (props == NULL || x->nacc == 0 || x->acc[0].key == NULL) return 0;
  /* Another provider than the built-in may serve it: no schema known. */
  if (r->provider >= 0 || r->version || r->plugin_url) return 0;
  for (size_t i = 0; i < mp_project_plugin_count(w->p->proj); i++)
    if (!strcmp(mp_project_plugin_at(w->p->proj, i)->name, r->pkg)) return 0;
  const char *want = x->acc[0].key;
  if (!strcmp(want, "id") || !strcmp(want, "urn")) return 0;
  mp_strv all;
  mp_strv_init(&all);
  mp_strv_push(&all, "id");
  mp_strv_push(&all, "urn");
  for (size_t i = 0; props[i]; i++) {
    if (!strcmp(props[i], want)) {
      mp_strv_destroy(&all);
      return 0;
    }
    mp_strv_push(&all, props[i]);
  }
  /* Alphabetical, then stably by distance: insertion sort on both keys. */
  size_t n = all.len;
  size_t *dist = mp_xcalloc(n, sizeof(*dist));
  for (size_t i = 0; i < n; i++) dist[i] = mp_text_distance(all.items[i], want, 0);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0; j--) {
      int later = dist[j - 1] > dist[j] ||
                  (dist[j - 1] == dist[j] &&
                   strcmp(all.items[j - 1], all.items[j]) > 0);
      if (!later) break;
      size_t td = dist[j];
      dist[j] = dist[j - 1];
      dist[j - 1] = td;
      char *ts = all.items[j];
      all.items[j] = all.items[j - 1];
      all.items[j - 1] = ts;
    }
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < n && i < 5; i++)
    mp_buf_printf(&b, "%s%s", i ? ", " : "", all.items[i]);
  if (n > 5)
    mp_buf_printf(&b, " and %zu other%s", n - 5, n - 5 == 1 ? "" : "s");
  char *msg = mp_xasprintf("%s: %s does not exist on %s; Existing properties "
                           "are: %s",
                           w->what, want, x->str, b.data ? b.data : "");
  int rc = at(w->err, w->p->file, x->line, x->col, "%s%s", msg, "");
  free(msg);
  mp_buf_destroy(&b);
  free(dist);
  mp_strv_destroy(&all);
  return rc;
}

static int resolve_ref(void *ud, mp__yexpr *x) {
  ref_walk *w = ud;
  mp__prog *p = w->p;
  long i;
  if ((i = res_find(p, x->str)) >= 0) {
    x->ref = MP_REF_RESOURCE;
  } else if ((i = var_find(p, x->str)) >= 0) {
    x->ref = MP_REF_VARIABLE;
  } else if ((i = cfg_find(p, x->str)) >= 0) {
    x->ref = MP_REF_CONFIG;
  } else if (strcmp(x->str, "pulumi") == 0) {
    x->ref = MP_REF_PULUMI;
    i = 0;
    if (x->nacc > 1 || (x->nacc == 1 && (x->acc[0].key == NULL ||
                                         !in_list(pulumi_fields, 5,
                                                  x->acc[0].key))))
      return at(w->err, p->file, x->line, x->col,
                "%s: unknown property of 'pulumi'; use pulumi.stack, "
                "pulumi.project or pulumi.organization%s",
                w->what, "");
  } else {
    char msg[300];
    snprintf(msg, sizeof(msg), "%s refers to unknown resource '%s'",
             w->what, x->str);
    return at(w->err, p->file, x->line, x->col,
              "%s (no resource, variable or config key has that name)%s",
              msg, "");
  }
  x->ref_index = (size_t)i;
  return 0;
}

static int check_ref(void *ud, mp__yexpr *x) {
  ref_walk *w = ud;
  if (x->ref != MP_REF_RESOURCE) return 0;
  return check_resource_property(w, &w->p->res[x->ref_index], x) ? MP_EINVAL
                                                                 : 0;
}

/* After every reference and option is resolved: the properties read from
 * resources (check_resource_property). */
static int check_expr(mp__prog *p, mp__yexpr *x, const char *kind,
                      const char *name, mp_err *err) {
  if (x == NULL) /* an option left out (most of a resource's 17) */
    return 0;
  char what[256];
  snprintf(what, sizeof(what), "%s '%s'", kind, name);
  ref_walk w = {p, what, err};
  return mp__yexpr_walk(x, check_ref, &w) ? MP_EINVAL : 0;
}

static mp__yexpr **res_exprs(mp__yres *r, size_t *n);

static int check_properties(mp__prog *p, mp_err *err) {
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < p->nres; i++) {
    size_t n;
    mp__yexpr **xs = res_exprs(&p->res[i], &n);
    for (size_t j = 0; j < n && rc == 0; j++)
      rc = check_expr(p, xs[j], "resource", p->res[i].key, err);
    free(xs);
  }
  for (size_t i = 0; rc == 0 && i < p->nvars; i++)
    rc = check_expr(p, p->vars[i].expr, "variable", p->vars[i].name, err);
  for (size_t i = 0; rc == 0 && i < p->nouts; i++)
    rc = check_expr(p, p->outs[i].expr, "output", p->outs[i].key, err);
  return rc;
}

static int resolve_expr(mp__prog *p, mp__yexpr *x, const char *kind,
                        const char *name, mp_err *err) {
  if (x == NULL) /* an option left out (most of a resource's 17) */
    return 0;
  char what[256];
  snprintf(what, sizeof(what), "%s '%s'", kind, name);
  ref_walk w = {p, what, err};
  return mp__yexpr_walk(x, resolve_ref, &w) ? MP_EINVAL : 0;
}

static mp__yexpr **res_exprs(mp__yres *r, size_t *n) {
  static const size_t offs[] = {
      offsetof(mp__yres, props),      offsetof(mp__yres, get_id),
      offsetof(mp__yres, get_state),  offsetof(mp__yres, protect),
      offsetof(mp__yres, retain),     offsetof(mp__yres, dbr),
      offsetof(mp__yres, version),    offsetof(mp__yres, import_id),
      offsetof(mp__yres, ignore),     offsetof(mp__yres, replace_on),
      offsetof(mp__yres, aso),        offsetof(mp__yres, timeouts),
      offsetof(mp__yres, aliases),    offsetof(mp__yres, plugin_url),
      offsetof(mp__yres, hide_diffs), offsetof(mp__yres, env_vars),
      offsetof(mp__yres, trigger)};
  mp__yexpr **out = mp_xcalloc(MP_ARRAY_LEN(offs), sizeof(*out));
  for (size_t i = 0; i < MP_ARRAY_LEN(offs); i++)
    out[i] = *(mp__yexpr **)((char *)r + offs[i]);
  *n = MP_ARRAY_LEN(offs);
  return out;
}

/* A resource-valued option: `${name}` naming a resource. */
static int resource_option(mp__prog *p, mp__yres *r, const mp_ynode *o,
                           const char *key, long *out, mp_err *err) {
  const mp_ynode *n = mp_ynode_get(o, key);
  *out = -1;
  if (n == NULL || mp_ynode_is_null(n))
    return 0;
  mp__yexpr *x = NULL;
  int rc = mp__yexpr_build(n, p->file, &x, err);
  if (rc < 0)
    return rc;
  char what[256];
  snprintf(what, sizeof(what), "option '%s' of resource '%s'", key, r->key);
  if (x->kind != MP_X_ACCESS || x->nacc != 0) {
    mp__yexpr_free(x);
    return at(err, p->file, n->line, n->col,
              "%s must be a resource reference like ${name}%s", what, "");
  }
  long i = res_find(p, x->str);
  if (i < 0)
    rc = at(err, p->file, n->line, n->col,
            "%s refers to unknown resource '%s'", what, x->str);
  mp__yexpr_free(x);
  *out = i;
  return rc;
}

/* dependsOn and replaceWith: a list of `${name}` resource references. */
static int resource_list_option(mp__prog *p, mp__yres *r, const mp_ynode *o,
                                const char *opt, long **list, size_t *len,
                                mp_err *err) {
  const mp_ynode *n = mp_ynode_get(o, opt);
  if (n == NULL || mp_ynode_is_null(n))
    return 0;
  if (n->kind != MP_YNODE_SEQ)
    return at(err, p->file, n->line, n->col,
              "option '%s' of resource '%s' must be a list of "
              "resource references like [${name}]",
              opt, r->key);
  *list = mp_xcalloc(n->n + 1, sizeof(long));
  for (size_t i = 0; i < n->n; i++) {
    mp_ynode wrap = {.kind = MP_YNODE_MAP};
    mp_ynode key = {.kind = MP_YNODE_SCALAR, .text = (char *)opt};
    mp_ynode *keys[1] = {&key};
    mp_ynode *vals[1] = {n->vals[i]};
    wrap.keys = keys;
    wrap.vals = vals;
    wrap.n = 1;
    long idx;
    int rc = resource_option(p, r, &wrap, opt, &idx, err);
    if (rc < 0)
      return rc;
    (*list)[(*len)++] = idx;
  }
  return 0;
}

static int resolve_resource(mp__prog *p, mp__yres *r, const mp_ynode *decl,
                            mp_err *err) {
  size_t n;
  mp__yexpr **xs = res_exprs(r, &n);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = resolve_expr(p, xs[i], "resource", r->key, err);
  free(xs);
  const mp_ynode *o = decl ? mp_ynode_get(decl, "options") : NULL;
  if (rc == 0)
    rc = resource_option(p, r, o, "parent", &r->parent, err);
  if (rc == 0)
    rc = resource_option(p, r, o, "provider", &r->provider, err);
  if (rc == 0)
    rc = resource_option(p, r, o, "deletedWith", &r->deleted_with, err);
  if (rc == 0)
    rc = resource_list_option(p, r, o, "dependsOn", &r->depends_on,
                              &r->ndepends_on, err);
  if (rc == 0)
    rc = resource_list_option(p, r, o, "replaceWith", &r->replace_with,
                              &r->nreplace_with, err);
  if (rc == 0)
    rc = resource_list_option(p, r, o, "providers", &r->providers,
                              &r->nproviders, err);
  for (size_t i = 0; rc == 0 && i < r->nproviders; i++)
    if (!p->res[r->providers[i]].is_provider) {
      const mp_ynode *pn = mp_ynode_get(o, "providers");
      return at(err, p->file, pn->line, pn->col,
                "option 'providers' of resource '%s': '%s' is not a "
                "provider resource (type pulumi:providers:<pkg>)",
                r->key, p->res[r->providers[i]].key);
    }
  if (rc == 0 && r->provider >= 0 && !p->res[r->provider].is_provider) {
    const mp_ynode *pn = mp_ynode_get(o, "provider");
    return at(err, p->file, pn->line, pn->col,
              "option 'provider' of resource '%s': '%s' is not a provider "
              "resource (type pulumi:providers:<pkg>)",
              r->key, p->res[r->provider].key);
  }
  return rc;
}

/* Literal option values of the wrong kind are caught before running. */
static int check_literal(mp__prog *p, mp__yres *r, mp__yexpr *x,
                         const char *key, mp__xkind want, mp_err *err) {
  if (x == NULL || x->kind == want || x->kind == MP_X_ACCESS ||
      x->kind == MP_X_FN || x->kind == MP_X_INTERP)
    return 0;
  if (want == MP_X_STR && x->kind == MP_X_NUM)
    return 0;
  static const char *const names[] = {
      [MP_X_BOOL] = "a boolean", [MP_X_STR] = "a string",
      [MP_X_LIST] = "a list",    [MP_X_OBJECT] = "a map"};
  char what[200];
  snprintf(what, sizeof(what), "option '%s' of resource '%s'", key, r->key);
  return at(err, p->file, x->line, x->col, "%s must be %s", what,
            names[want]);
}

static int check_literals(mp__prog *p, mp__yres *r, mp_err *err) {
  struct {
    mp__yexpr *x;
    const char *key;
    mp__xkind want;
  } c[] = {{r->protect, "protect", MP_X_BOOL},
           {r->retain, "retainOnDelete", MP_X_BOOL},
           {r->dbr, "deleteBeforeReplace", MP_X_BOOL},
           {r->version, "version", MP_X_STR},
           {r->import_id, "import", MP_X_STR},
           {r->ignore, "ignoreChanges", MP_X_LIST},
           {r->replace_on, "replaceOnChanges", MP_X_LIST},
           {r->aso, "additionalSecretOutputs", MP_X_LIST},
           {r->timeouts, "customTimeouts", MP_X_OBJECT},
           {r->aliases, "aliases", MP_X_LIST},
           {r->hide_diffs, "hideDiffs", MP_X_LIST},
           {r->env_vars, "envVarMappings", MP_X_OBJECT}};
  for (size_t i = 0; i < MP_ARRAY_LEN(c); i++) {
    int rc = check_literal(p, r, c[i].x, c[i].key, c[i].want, err);
    if (rc < 0)
      return rc;
  }
  mp__yexpr *t = r->timeouts;
  for (size_t i = 0; t && t->kind == MP_X_OBJECT && i < t->n; i++) {
    const char *k = t->keys[i];
    if (strcmp(k, "create") && strcmp(k, "update") && strcmp(k, "delete") &&
        strcmp(k, "read"))
      return at(err, p->file, t->items[i]->line, t->items[i]->col,
                "customTimeouts of resource '%s' has unknown field '%s'; "
                "use create, update, delete",
                r->key, k);
  }
  return 0;
}

/* ---- graph ---- */

typedef struct dep_walk {
  mp__prog *p;
  mp__gnode *g;
} dep_walk;

static void add_dep(mp__gnode *g, size_t node) {
  for (size_t i = 0; i < g->ndeps; i++)
    if (g->deps[i] == node)
      return;
  g->deps = mp_xreallocarray(g->deps, g->ndeps + 1, sizeof(*g->deps));
  g->deps[g->ndeps++] = node;
}

static int collect_dep(void *ud, mp__yexpr *x) {
  dep_walk *w = ud;
  if (x->ref == MP_REF_RESOURCE)
    add_dep(w->g, x->ref_index);
  else if (x->ref == MP_REF_VARIABLE)
    add_dep(w->g, w->p->nres + x->ref_index);
  return 0;
}

static void build_graph(mp__prog *p) {
  p->nnodes = p->nres + p->nvars;
  p->nodes = mp_xcalloc(p->nnodes + 1, sizeof(*p->nodes));
  for (size_t i = 0; i < p->nres; i++) {
    mp__yres *r = &p->res[i];
    mp__gnode *g = &p->nodes[i];
    g->is_res = 1;
    g->idx = i;
    dep_walk w = {p, g};
    size_t n;
    mp__yexpr **xs = res_exprs(r, &n);
    for (size_t j = 0; j < n; j++)
      mp__yexpr_walk(xs[j], collect_dep, &w);
    free(xs);
    long opt[] = {r->parent, r->provider, r->deleted_with,
                  p->default_providers[i]};
    for (size_t j = 0; j < MP_ARRAY_LEN(opt); j++)
      if (opt[j] >= 0)
        add_dep(g, (size_t)opt[j]);
    for (size_t j = 0; j < r->ndepends_on; j++)
      add_dep(g, (size_t)r->depends_on[j]);
    for (size_t j = 0; j < r->nreplace_with; j++)
      add_dep(g, (size_t)r->replace_with[j]);
    for (size_t j = 0; j < r->nproviders; j++)
      add_dep(g, (size_t)r->providers[j]);
  }
  for (size_t i = 0; i < p->nvars; i++) {
    mp__gnode *g = &p->nodes[p->nres + i];
    g->idx = i;
    dep_walk w = {p, g};
    mp__yexpr_walk(p->vars[i].expr, collect_dep, &w);
  }
}

static const char *node_name(const mp__prog *p, size_t n) {
  return n < p->nres ? p->res[n].key : p->vars[n - p->nres].name;
}

/* Depth-first search; |color|: 0 new, 1 on the stack, 2 finished. */
static int find_cycle(mp__prog *p, size_t n, int *color, size_t *stack,
                      size_t depth, mp_err *err) {
  color[n] = 1;
  stack[depth] = n;
  const mp__gnode *g = &p->nodes[n];
  for (size_t i = 0; i < g->ndeps; i++) {
    size_t d = g->deps[i];
    if (color[d] == 2)
      continue;
    if (color[d] == 1) {
      mp_buf path;
      mp_buf_init(&path);
      size_t start = 0;
      while (stack[start] != d)
        start++;
      for (size_t j = start; j <= depth; j++)
        mp_buf_printf(&path, "%s -> ", node_name(p, stack[j]));
      mp_buf_puts(&path, node_name(p, d));
      int line = d < p->nres ? p->res[d].line : p->vars[d - p->nres].line;
      int col = d < p->nres ? p->res[d].col : p->vars[d - p->nres].col;
      int rc = mp_err_set(err, MP_EINVAL,
                          "%s:%d:%d: '%s' is part of a dependency cycle: %s",
                          p->file, line, col, node_name(p, d), path.data);
      mp_buf_destroy(&path);
      return rc;
    }
    int rc = find_cycle(p, d, color, stack, depth + 1, err);
    if (rc < 0)
      return rc;
  }
  color[n] = 2;
  return 0;
}

static int check_cycles(mp__prog *p, mp_err *err) {
  int *color = mp_xcalloc(p->nnodes + 1, sizeof(int));
  size_t *stack = mp_xcalloc(p->nnodes + 1, sizeof(size_t));
  int rc = 0;
  for (size_t i = 0; i < p->nnodes && rc == 0; i++)
    if (color[i] == 0)
      rc = find_cycle(p, i, color, stack, 0, err);
  free(color);
  free(stack);
  return rc;
}

static int set_default_providers(mp__prog *p, mp_err *err) {
  p->default_providers = mp_xcalloc(p->nres + 1, sizeof(long));
  for (size_t i = 0; i < p->nres; i++)
    p->default_providers[i] = -1;
  for (size_t d = 0; d < p->nres; d++) {
    if (!p->res[d].default_provider)
      continue;
    for (size_t e = 0; e < d; e++)
      if (p->res[e].default_provider &&
          strcmp(p->res[e].pkg, p->res[d].pkg) == 0)
        return at(err, p->file, p->res[d].line, p->res[d].col,
                  "resource '%s': package '%s' already has a default "
                  "provider",
                  p->res[d].key, p->res[d].pkg);
    for (size_t i = 0; i < p->nres; i++)
      if (i != d && !p->res[i].is_provider && p->res[i].provider < 0 &&
          strcmp(p->res[i].pkg, p->res[d].pkg) == 0)
        p->default_providers[i] = (long)d;
  }
  return 0;
}

/* The required version is checked before the program runs: it may refer
 * to config and `pulumi.*`, which are known then. */
static int config_only(void *ud, mp__yexpr *x) {
  ref_walk *w = ud;
  if (x->ref == MP_REF_CONFIG || x->ref == MP_REF_PULUMI)
    return 0;
  return at(w->err, w->p->file, x->line, x->col,
            "requiredVersion refers to '%s': it may refer to config and "
            "pulumi values only%s",
            x->str, "");
}

static int resolve_required_version(mp__prog *p, mp_err *err) {
  int rc = resolve_expr(p, p->required_version, "pulumi", "requiredVersion",
                        err);
  ref_walk w = {p, "requiredVersion", err};
  if (rc == 0 && mp__yexpr_walk(p->required_version, config_only, &w))
    rc = MP_EINVAL;
  return rc;
}

int mp__prog_analyze(mp__prog *p, const mp_project *proj,
                     const mp_value *config, mp_err *err) {
  p->proj = proj;
  p->file = proj->program_file;
  int rc = load_config(p, config, err);
  if (rc == 0)
    rc = load_decls(p, err);
  const mp_ynode *res = mp_ynode_get(proj->program, "resources");
  for (size_t i = 0; rc == 0 && i < p->nres; i++) {
    rc = resolve_resource(p, &p->res[i], res->vals[i], err);
    if (rc == 0)
      rc = check_literals(p, &p->res[i], err);
  }
  for (size_t i = 0; rc == 0 && i < p->nvars; i++)
    rc = resolve_expr(p, p->vars[i].expr, "variable", p->vars[i].name, err);
  for (size_t i = 0; rc == 0 && i < p->nouts; i++)
    rc = resolve_expr(p, p->outs[i].expr, "output", p->outs[i].key, err);
  if (rc == 0 && p->required_version)
    rc = resolve_required_version(p, err);
  if (rc == 0)
    rc = check_properties(p, err);
  if (rc == 0)
    rc = set_default_providers(p, err);
  if (rc < 0)
    return rc;
  build_graph(p);
  return check_cycles(p, err);
}

int mp__prog_check_version(mp__prog *p, const char *version,
                           int (*in_range)(const char *range,
                                           const char *version, mp_err *err),
                           mp_err *err) {
  mp__yexpr *x = p->required_version;
  if (x == NULL || version == NULL || in_range == NULL)
    return 0;
  mp__evalctx c = {.p = p};
  mp_value *v = mp__eval(&c, x, err);
  if (v == NULL)
    return err->code ? err->code
                     : at(err, p->file, x->line, x->col,
                          "could not evaluate expression for version "
                          "range%s%s", "", "");
  const mp_value *s = v->kind == MP_VALUE_SECRET ? v->u.secret : v;
  int rc = 0;
  if (s->kind != MP_VALUE_STRING) {
    rc = at(err, p->file, x->line, x->col,
            "version range must evaluate to a string%s%s", "", "");
  } else {
    mp_err e;
    mp_err_clear(&e);
    int in = in_range(s->u.str.ptr, version, &e);
    if (in < 0)
      rc = at(err, p->file, x->line, x->col, "%s%s", e.msg, "");
    else if (in == 0)
      rc = mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: Pulumi CLI version %s does not satisfy the "
                      "version range \"%s\"",
                      p->file, x->line, x->col, version, s->u.str.ptr);
  }
  mp_value_free(v);
  return rc;
}

void mp__prog_destroy(mp__prog *p) {
  for (size_t i = 0; i < p->nres; i++) {
    mp__yres *r = &p->res[i];
    size_t n;
    mp__yexpr **xs = res_exprs(r, &n);
    for (size_t j = 0; j < n; j++)
      mp__yexpr_free(xs[j]);
    free(xs);
    free(r->key);
    free(r->name);
    free(r->type);
    free(r->written_type);
    mp_strv_destroy(&r->secret_props);
    free(r->pkg);
    free(r->depends_on);
    free(r->replace_with);
    free(r->providers);
    free(r->urn);
    free(r->read_id);
    free(r->id);
    mp_strv_destroy(&r->schema_replace_on);
    mp_value_free(r->outputs);
    mp_value_free(r->constants);
  }
  for (size_t i = 0; i < p->nvars; i++) {
    free(p->vars[i].name);
    mp__yexpr_free(p->vars[i].expr);
    mp_value_free(p->vars[i].value);
    mp_strv_destroy(&p->vars[i].deps);
  }
  for (size_t i = 0; i < p->ncfg; i++) {
    free(p->cfg[i].short_key);
    free(p->cfg[i].full_key);
    mp_value_free(p->cfg[i].value);
  }
  for (size_t i = 0; i < p->nouts; i++) {
    free(p->outs[i].key);
    mp__yexpr_free(p->outs[i].expr);
  }
  for (size_t i = 0; i < p->nnodes; i++)
    free(p->nodes[i].deps);
  free(p->res);
  free(p->vars);
  free(p->cfg);
  free(p->outs);
  free(p->nodes);
  free(p->default_providers);
  mp__yexpr_free(p->required_version);
  mp_strv_destroy(&p->pkg_refs);
  mp_value_free(p->hydrated);
  mp_strv_destroy(&p->hydrating);
  memset(p, 0, sizeof(*p));
}

char *mp__prog_provider_ref(const mp__yres *r) {
  return mp_xasprintf("%s::%s", r->urn,
                      r->id ? r->id : MP_UNKNOWN_SENTINEL);
}
