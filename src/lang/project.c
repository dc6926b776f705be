/* Loading Pulumi.yaml: project metadata, declared config, the program. */
#include "lang/yaml.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/mem.h"
#include "lang/lang_int.h"

/* Project files larger than this are refused. */
#define MAX_PROJECT_FILE (16u << 20)

static int read_file(const char *path, mp_buf *out, mp_err *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "cannot open '%s': %s", path, strerror(errno));
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
    mp_buf_append(out, chunk, n);
    if (out->len > MAX_PROJECT_FILE) {
      fclose(f);
      return mp_err_set(err, MP_EINVAL, "'%s' is larger than %u bytes",
                        path, MAX_PROJECT_FILE);
    }
  }
  int bad = ferror(f);
  fclose(f);
  if (bad)
    return mp_err_set(err, MP_EIO, "cannot read '%s'", path);
  return 0;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads and parses |dir|/|name|. */
static int load_doc(const char *dir, const char *name, mp__ynode **out,
                    mp_err *err) {
  char *path = mp_xasprintf("%s/%s", dir, name);
  mp_buf b;
  mp_buf_init(&b);
  int rc = read_file(path, &b, err);
  if (rc == 0)
    rc = mp__ynode_parse(name, b.data ? b.data : "", b.len, out, err);
  mp_buf_destroy(&b);
  free(path);
  return rc;
}

mp_value *mp__lang_node_value(const mp__ynode *n) {
  if (n->kind == MP_YNODE_SEQ) {
    mp_value *a = mp_value_new_array();
    for (size_t i = 0; i < n->n; i++)
      mp_value_array_push(a, mp__lang_node_value(n->vals[i]));
    return a;
  }
  if (n->kind == MP_YNODE_MAP) {
    mp_value *o = mp_value_new_object();
    for (size_t i = 0; i < n->n; i++)
      mp_value_object_set(o, n->keys[i]->text,
                          mp__lang_node_value(n->vals[i]));
    return o;
  }
  if (n->quoted)
    return mp_value_new_string(n->text, n->len);
  if (mp__ynode_is_null(n))
    return mp_value_new_null();
  const char *t = n->text;
  if (!strcmp(t, "true") || !strcmp(t, "True") || !strcmp(t, "TRUE"))
    return mp_value_new_bool(1);
  if (!strcmp(t, "false") || !strcmp(t, "False") || !strcmp(t, "FALSE"))
    return mp_value_new_bool(0);
  char *end = NULL;
  errno = 0;
  double d = strtod(t, &end);
  if (end != t && *end == '\0' && errno == 0 && isfinite(d) &&
      strchr("+-.0123456789", t[0]) && !(t[0] == '0' && t[1] == 'x'))
    return mp_value_new_number(d);
  return mp_value_new_string(n->text, n->len);
}

const char *mp__lang_config_type(const char *t) {
  static const char *const map[][2] = {
      {"string", "string"},   {"String", "string"},
      {"integer", "integer"}, {"Integer", "integer"},
      {"int", "integer"},     {"Int", "integer"},
      {"number", "number"},   {"Number", "number"},
      {"boolean", "boolean"}, {"Boolean", "boolean"},
      {"bool", "boolean"},    {"array", "array"},
      {"object", "object"},   {"Object", "object"},
      {"List<String>", "array"}, {"List<Number>", "array"},
      {"List<Integer>", "array"}, {"List<Boolean>", "array"},
      {"List<Object>", "array"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(map); i++)
    if (strcmp(map[i][0], t) == 0)
      return map[i][1];
  return NULL;
}

const char *mp__lang_value_type(const mp_value *v) {
  switch (v->kind) {
  case MP_VALUE_STRING:
    return "string";
  case MP_VALUE_NUMBER:
    return floor(v->u.number) == v->u.number ? "integer" : "number";
  case MP_VALUE_BOOL:
    return "boolean";
  case MP_VALUE_ARRAY:
    return "array";
  case MP_VALUE_OBJECT:
    return "object";
  case MP_VALUE_SECRET:
    return mp__lang_value_type(v->u.secret);
  default:
    return "null";
  }
}

static int bad_field(mp_err *err, const char *file, const mp__ynode *n,
                     const char *what) {
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", file, n->line, n->col,
                    what);
}

/* A string field: absent → NULL, else must be a scalar. */
static int string_field(const mp__ynode *doc, const char *key,
                        const char *file, char **out, mp_err *err) {
  const mp__ynode *v = mp__ynode_get(doc, key);
  if (v == NULL || mp__ynode_is_null(v))
    return 0;
  if (v->kind != MP_YNODE_SCALAR)
    return mp_err_set(err, MP_EINVAL, "%s:%d:%d: '%s' must be a string",
                      file, v->line, v->col, key);
  *out = mp_xstrdup(v->text);
  return 0;
}

static int load_runtime(mp_project *p, const mp__ynode *doc,
                        const char *file, mp_err *err) {
  const mp__ynode *rt = mp__ynode_get(doc, "runtime");
  if (rt == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "%s: missing 'runtime'; add e.g. `runtime: yaml`",
                      file);
  if (rt->kind == MP_YNODE_MAP) {
    int rc = string_field(rt, "name", file, &p->runtime, err);
    if (rc == 0 && p->runtime == NULL)
      rc = bad_field(err, file, rt, "'runtime' needs a 'name'");
    return rc;
  }
  if (rt->kind != MP_YNODE_SCALAR || rt->len == 0)
    return bad_field(err, file, rt, "'runtime' must be a string or a map "
                                    "with 'name'");
  p->runtime = mp_xstrdup(rt->text);
  return 0;
}

/* One declared key: `key: {type, default, secret}` or `key: <default>`. */
static int load_config_key(mp_project *p, const mp__ynode *k,
                           const mp__ynode *v, const char *file, int legacy,
                           mp_err *err) {
  for (size_t i = 0; i < p->nconfig; i++)
    if (strcmp(p->config[i].key, k->text) == 0)
      return bad_field(err, file, k, "config key declared twice");
  mp_project_config c = {.key = NULL, .line = k->line, .col = k->col};
  const mp__ynode *def = v;
  if (v->kind == MP_YNODE_MAP) {
    def = mp__ynode_get(v, legacy ? "Default" : "default");
    if (def == NULL)
      def = mp__ynode_get(v, "default");
    const mp__ynode *t = mp__ynode_get(v, "type");
    if (t == NULL)
      t = mp__ynode_get(v, "Type");
    if (t != NULL) {
      if (t->kind != MP_YNODE_SCALAR || !mp__lang_config_type(t->text))
        return mp_err_set(err, MP_EINVAL,
                          "%s:%d:%d: unexpected configuration type '%s': "
                          "valid types are string, integer, number, "
                          "boolean, array, object",
                          file, t->line, t->col,
                          t->kind == MP_YNODE_SCALAR ? t->text : "?");
      c.type = mp__lang_config_type(t->text);
    }
    const mp__ynode *s = mp__ynode_get(v, "secret");
    if (s == NULL)
      s = mp__ynode_get(v, "Secret");
    if (s != NULL) {
      mp_value *sv = mp__lang_node_value(s);
      c.secret = sv->kind == MP_VALUE_BOOL && sv->u.boolean;
      mp_value_free(sv);
    }
  }
  mp_value *dv = def ? mp__lang_node_value(def) : NULL;
  if (c.type && dv) {
    const char *dt = mp__lang_value_type(dv);
    int ok = strcmp(dt, c.type) == 0 ||
             (strcmp(c.type, "number") == 0 && strcmp(dt, "integer") == 0);
    if (!ok) {
      mp_value_free(dv);
      return mp_err_set(err, MP_EINVAL,
                        "%s:%d:%d: type mismatch: default value of type %s "
                        "but type %s was specified",
                        file, k->line, k->col, dt, c.type);
    }
  }
  if (c.type == NULL && dv == NULL)
    return bad_field(err, file, k,
                     "unable to infer type: either 'default' or 'type' is "
                     "required");
  c.key = mp_xstrdup(k->text);
  c.def = dv;
  p->config = mp_xreallocarray(p->config, p->nconfig + 1, sizeof(c));
  p->config[p->nconfig++] = c;
  return 0;
}

static int load_config(mp_project *p, const mp__ynode *doc, const char *key,
                       const char *file, mp_err *err) {
  const mp__ynode *cfg = mp__ynode_get(doc, key);
  if (cfg == NULL || mp__ynode_is_null(cfg))
    return 0;
  if (cfg->kind != MP_YNODE_MAP)
    return mp_err_set(err, MP_EINVAL, "%s:%d:%d: '%s' must be a map", file,
                      cfg->line, cfg->col, key);
  for (size_t i = 0; i < cfg->n; i++) {
    int rc = load_config_key(p, cfg->keys[i], cfg->vals[i], file,
                             strcmp(key, "configuration") == 0, err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* Pulumi YAML reads Main.yaml from the program folder when it exists,
 * otherwise the program lives in Pulumi.yaml itself. */
static int load_program(mp_project *p, mp__ynode **doc, const char *file,
                        mp_err *err) {
  p->program_dir = p->main ? mp_xasprintf("%s/%s", p->dir, p->main)
                           : mp_xstrdup(p->dir);
  char *main_path = mp_xasprintf("%s/Main.yaml", p->program_dir);
  int have_main = file_exists(main_path);
  free(main_path);
  if (!have_main) {
    p->program = *doc;
    *doc = NULL;
    p->program_file = mp_xstrdup(file);
    return 0;
  }
  p->program_file = mp_xstrdup("Main.yaml");
  return load_doc(p->program_dir, "Main.yaml", &p->program, err);
}

static int load_fields(mp_project *p, mp__ynode **doc, const char *file,
                       mp_err *err) {
  const mp__ynode *d = *doc;
  if (d->kind != MP_YNODE_MAP)
    return bad_field(err, file, d, "the project file must be a map");
  int rc = string_field(d, "name", file, &p->name, err);
  if (rc == 0 && (p->name == NULL || p->name[0] == '\0'))
    rc = mp_err_set(err, MP_EINVAL,
                    "%s: missing project 'name'; add `name: <project>`",
                    file);
  if (rc == 0)
    rc = load_runtime(p, d, file, err);
  if (rc == 0)
    rc = string_field(d, "description", file, &p->description, err);
  if (rc == 0)
    rc = string_field(d, "main", file, &p->main, err);
  if (rc == 0)
    rc = load_config(p, d, "config", file, err);
  if (rc == 0)
    rc = load_config(p, d, "configuration", file, err);
  if (rc == 0 && strcmp(p->runtime, "yaml") == 0)
    rc = load_program(p, doc, file, err);
  return rc;
}

int mp_project_load(const char *dir, mp_project **out, mp_err *err) {
  *out = NULL;
  const char *file = "Pulumi.yaml";
  char *path = mp_xasprintf("%s/%s", dir, file);
  if (!file_exists(path)) {
    free(path);
    file = "Pulumi.yml";
    path = mp_xasprintf("%s/%s", dir, file);
    if (!file_exists(path)) {
      free(path);
      return mp_err_set(err, MP_ENOENT,
                        "no Pulumi.yaml project file found in '%s'; run "
                        "the command in a project folder",
                        dir);
    }
  }
  free(path);
  mp__ynode *doc = NULL;
  int rc = load_doc(dir, file, &doc, err);
  if (rc < 0)
    return rc;
  mp_project *p = mp_xcalloc(1, sizeof(*p));
  p->dir = mp_xstrdup(dir);
  rc = load_fields(p, &doc, file, err);
  mp__ynode_free(doc);
  if (rc < 0) {
    mp_project_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

void mp_project_free(mp_project *p) {
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->nconfig; i++) {
    free((char *)p->config[i].key);
    mp_value_free((mp_value *)p->config[i].def);
  }
  free(p->config);
  mp__ynode_free(p->program);
  free(p->dir);
  free(p->name);
  free(p->runtime);
  free(p->description);
  free(p->main);
  free(p->program_dir);
  free(p->program_file);
  free(p);
}

const char *mp_project_name(const mp_project *p) { return p->name; }
const char *mp_project_runtime(const mp_project *p) { return p->runtime; }
const char *mp_project_description(const mp_project *p) {
  return p->description;
}
const char *mp_project_main(const mp_project *p) { return p->main; }
const char *mp_project_dir(const mp_project *p) { return p->dir; }
size_t mp_project_config_count(const mp_project *p) { return p->nconfig; }
const mp_project_config *mp_project_config_at(const mp_project *p,
                                              size_t i) {
  return i < p->nconfig ? &p->config[i] : NULL;
}
