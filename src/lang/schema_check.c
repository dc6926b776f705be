/* A package schema's checks, over the position-keeping YAML tree (JSON is
 * read as YAML, so a JSON file's errors also carry line and column). */
#include "lang/schema_check.h"

#include <stdarg.h>
#include <string.h>

#include "engine/semver.h"
#include "lang/ynode.h"

typedef struct checker {
  const char *file;
  FILE *out;
  int errors;
  const char *pkg;             /* the schema's `name`, or NULL */
  const mp_ynode *types, *resources; /* maps, or NULL */
} checker;

static void report(checker *c, const mp_ynode *at, const char *path,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report(checker *c, const mp_ynode *at, const char *path,
                   const char *fmt, ...) {
  fprintf(c->out, "error: %s:%d:%d: %s: ", c->file, at->line, at->col, path);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(c->out, fmt, ap);
  va_end(ap);
  fputc('\n', c->out);
  c->errors++;
}

static int is_string(const mp_ynode *n) {
  return n->kind == MP_YNODE_SCALAR && !mp_ynode_is_null(n);
}

static const mp_ynode *map_at(checker *c, const mp_ynode *parent,
                              const char *key, const char *path) {
  const mp_ynode *n = mp_ynode_get(parent, key);
  if (n && n->kind != MP_YNODE_MAP) {
    report(c, n, path, "must be an object");
    return NULL;
  }
  return n;
}

/* pkg:module:Name, whose package is the schema's. */
static void check_token(checker *c, const mp_ynode *key, const char *path) {
  const char *t = key->text;
  const char *a = strchr(t, ':');
  const char *b = a ? strchr(a + 1, ':') : NULL;
  if (!a || !b || a == t || b == a + 1 || !b[1] || strchr(b + 1, ':')) {
    report(c, key, path,
           "invalid token '%s' (must be of the form pkg:module:Name)", t);
    return;
  }
  if (c->pkg && (strlen(c->pkg) != (size_t)(a - t) ||
                 strncmp(c->pkg, t, (size_t)(a - t)) != 0))
    report(c, key, path, "invalid token '%s' (must have package name '%s')",
           t, c->pkg);
}

static void check_type(checker *c, const mp_ynode *spec, const char *path);

static void check_ref(checker *c, const mp_ynode *ref, const char *path) {
  const char *r = ref->text;
  static const char *const builtin[] = {"pulumi.json#/Any",
                                        "pulumi.json#/Archive",
                                        "pulumi.json#/Asset",
                                        "pulumi.json#/Json"};
  for (size_t i = 0; i < MP_ARRAY_LEN(builtin); i++)
    if (strcmp(r, builtin[i]) == 0) return;
  const mp_ynode *in = NULL;
  const char *tok = NULL;
  if (strncmp(r, "#/types/", 8) == 0) {
    in = c->types;
    tok = r + 8;
  } else if (strncmp(r, "#/resources/", 12) == 0) {
    in = c->resources;
    tok = r + 12;
  } else if (r[0] == '#' || strncmp(r, "pulumi.json#", 12) == 0) {
    report(c, ref, path, "invalid reference '%s'", r);
    return;
  } else {
    return; /* another package's schema: not resolved here */
  }
  if (!in || !mp_ynode_get(in, tok))
    report(c, ref, path, "reference '%s' does not resolve: no such %s", r,
           r[2] == 't' ? "type" : "resource");
}

static void check_type(checker *c, const mp_ynode *spec, const char *path) {
  if (spec->kind != MP_YNODE_MAP) {
    report(c, spec, path, "must be an object");
    return;
  }
  char sub[1024];
  const mp_ynode *ref = mp_ynode_get(spec, "$ref");
  const mp_ynode *one = mp_ynode_get(spec, "oneOf");
  const mp_ynode *type = mp_ynode_get(spec, "type");
  if (ref) {
    snprintf(sub, sizeof(sub), "%s/$ref", path);
    if (!is_string(ref))
      report(c, ref, sub, "must be a string");
    else
      check_ref(c, ref, sub);
  }
  if (one) {
    snprintf(sub, sizeof(sub), "%s/oneOf", path);
    if (one->kind != MP_YNODE_SEQ)
      report(c, one, sub, "must be an array");
    for (size_t i = 0; one->kind == MP_YNODE_SEQ && i < one->n; i++) {
      snprintf(sub, sizeof(sub), "%s/oneOf/%zu", path, i);
      check_type(c, one->vals[i], sub);
    }
  }
  if (ref || one) return;
  snprintf(sub, sizeof(sub), "%s/type", path);
  if (type == NULL) {
    report(c, spec, path, "type must be specified (or $ref)");
    return;
  }
  const char *t = is_string(type) ? type->text : "";
  if (strcmp(t, "array") == 0) {
    const mp_ynode *items = mp_ynode_get(spec, "items");
    snprintf(sub, sizeof(sub), "%s/items", path);
    if (items == NULL)
      report(c, spec, path, "array type must specify items");
    else
      check_type(c, items, sub);
  } else if (strcmp(t, "object") == 0) {
    const mp_ynode *ap = mp_ynode_get(spec, "additionalProperties");
    snprintf(sub, sizeof(sub), "%s/additionalProperties", path);
    if (ap) check_type(c, ap, sub);
  } else if (strcmp(t, "string") != 0 && strcmp(t, "number") != 0 &&
             strcmp(t, "integer") != 0 && strcmp(t, "boolean") != 0) {
    report(c, type, sub, "unknown primitive type '%s'", t);
  }
}

/* |key| of |parent|: a map of property name -> type spec. */
static void check_properties(checker *c, const mp_ynode *parent,
                             const char *key, const char *path) {
  char sub[1024];
  snprintf(sub, sizeof(sub), "%s/%s", path, key);
  const mp_ynode *props = map_at(c, parent, key, sub);
  for (size_t i = 0; props && i < props->n; i++) {
    snprintf(sub, sizeof(sub), "%s/%s/%s", path, key, props->keys[i]->text);
    check_type(c, props->vals[i], sub);
  }
}

/* An object type, a resource or a function's inputs/outputs. */
/* The text is cut to its buffer on purpose. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
static void check_object(checker *c, const mp_ynode *o, const char *path) {
  if (o->kind != MP_YNODE_MAP) {
    report(c, o, path, "must be an object");
    return;
  }
  check_properties(c, o, "properties", path);
  check_properties(c, o, "inputProperties", path);
  const mp_ynode *state = mp_ynode_get(o, "stateInputs");
  char sub[1024];
  snprintf(sub, sizeof(sub), "%s/stateInputs", path);
  if (state) check_object(c, state, sub);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* The members of section |key| (types, resources, functions). */
static void check_section(checker *c, const mp_ynode *root, const char *key) {
  char sub[1024];
  snprintf(sub, sizeof(sub), "#/%s", key);
  const mp_ynode *sec = map_at(c, root, key, sub);
  for (size_t i = 0; sec && i < sec->n; i++) {
    snprintf(sub, sizeof(sub), "#/%s/%s", key, sec->keys[i]->text);
    check_token(c, sec->keys[i], sub);
    const mp_ynode *m = sec->vals[i];
    if (strcmp(key, "types") == 0 && m->kind == MP_YNODE_MAP &&
        !mp_ynode_get(m, "enum")) {
      const mp_ynode *t = mp_ynode_get(m, "type");
      if (t == NULL || !is_string(t) || strcmp(t->text, "object") != 0) {
        char tp[1100];
        snprintf(tp, sizeof(tp), "%s/type", sub);
        report(c, t ? t : m, tp, "a type must be an object or an enum");
      }
    }
    if (strcmp(key, "functions") != 0) {
      check_object(c, m, sub);
      continue;
    }
    static const char *const parts[] = {"inputs", "outputs"};
    for (size_t k = 0; k < 2 && m->kind == MP_YNODE_MAP; k++) {
      const mp_ynode *io = mp_ynode_get(m, parts[k]);
      char iop[1100];
      snprintf(iop, sizeof(iop), "%s/%s", sub, parts[k]);
      if (io) check_object(c, io, iop);
    }
  }
}

static void check_root(checker *c, const mp_ynode *root) {
  if (root->kind != MP_YNODE_MAP) {
    report(c, root, "#", "a package schema must be an object");
    return;
  }
  const mp_ynode *name = mp_ynode_get(root, "name");
  if (name == NULL)
    report(c, root, "#/name", "missing required property 'name'");
  else if (!is_string(name) || !*name->text)
    report(c, name, "#/name", "must be a non-empty string");
  else
    c->pkg = name->text;
  const mp_ynode *version = mp_ynode_get(root, "version");
  mp_semver v;
  mp_err e;
  mp_err_clear(&e);
  if (version && !is_string(version))
    report(c, version, "#/version", "must be a string");
  else if (version && mp_semver_parse(version->text, &v, &e) < 0)
    report(c, version, "#/version", "%s", e.msg);
  c->types = map_at(c, root, "types", "#/types");
  c->resources = map_at(c, root, "resources", "#/resources");
  check_section(c, root, "types");
  check_section(c, root, "resources");
  check_section(c, root, "functions");
  const mp_ynode *config = map_at(c, root, "config", "#/config");
  if (config) check_properties(c, config, "variables", "#/config");
  const mp_ynode *provider = mp_ynode_get(root, "provider");
  if (provider) check_object(c, provider, "#/provider");
}

int mp_schema_check_file(const char *path, const char *file, FILE *err) {
  checker c = {file, err, 0, NULL, NULL, NULL};
  mp_ynode *root = NULL;
  mp_err e;
  mp_err_clear(&e);
  if (mp_ynode_load(path, file, &root, &e) < 0) {
    fprintf(err, "error: %s\n", e.msg);
    return 1;
  }
  check_root(&c, root);
  mp_ynode_free(root);
  return c.errors;
}
