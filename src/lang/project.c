/* Loading Pulumi.yaml, once: the project's fields for every command, then
 * (for runtime yaml) the declared config and the program. */
#include "lang/project.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "engine/mem.h"
#include "engine/names.h"
#include "lang/lang_int.h"

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
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
  /* Pulumi YAML's own spelling in a program's declarations:
   * list<string>, List<Number>... (Main.yaml's `configuration:`). */
  size_t n = strlen(t);
  if (n > 6 && strncasecmp(t, "list<", 5) == 0 && t[n - 1] == '>') {
    char *inner = mp_xstrndup(t + 5, n - 6);
    const char *it = mp__lang_config_type(inner);
    free(inner);
    return it ? "array" : NULL;
  }
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

static int bad_field(mp_err *err, const char *file, const mp_ynode *n,
                     const char *what) {
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", file, n->line, n->col,
                    what);
}

/* A string field: absent → NULL, else must be a scalar. */
static int string_field(const mp_ynode *doc, const char *key,
                        const char *file, char **out, mp_err *err) {
  const mp_ynode *v = mp_ynode_get(doc, key);
  if (v == NULL || mp_ynode_is_null(v))
    return 0;
  if (v->kind != MP_YNODE_SCALAR)
    return mp_err_set(err, MP_EINVAL, "%s:%d:%d: '%s' must be a string",
                      file, v->line, v->col, key);
  *out = mp_xstrdup(v->text);
  return 0;
}

/* Pulumi's rules for a key of the project file's `config:`
 * (Project.Validate): `default` and `value` exclude each other, and a key
 * of another namespace (`aws:region`) sets a value and declares nothing. */
static int check_project_key(const mp_project *p, const mp_ynode *k,
                             const mp_ynode *v, const mp_ynode *def,
                             const mp_ynode *type, const char *file,
                             mp_err *err) {
  const mp_ynode *val = mp_ynode_get(v, "value");
  if (def && val)
    return mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: project config '%s' cannot have both a "
                      "'default' and 'value' attribute",
                      file, k->line, k->col, k->text);
  const char *colon = strchr(k->text, ':');
  int own = !colon || (p->name && strlen(p->name) == (size_t)(colon - k->text) &&
                       !strncmp(k->text, p->name, (size_t)(colon - k->text)));
  if (own) return 0;
  if (type)
    return mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: Configuration key '%s' is not namespaced by "
                      "the project and should not define a type",
                      file, k->line, k->col, k->text);
  if (def)
    return mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: Configuration key '%s' is not namespaced by "
                      "the project and should not define a default value. "
                      "Did you mean to use the 'value' attribute instead of "
                      "'default'?",
                      file, k->line, k->col, k->text);
  if (!val)
    return mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: Configuration key '%s' is namespaced and "
                      "must provide an attribute 'value'",
                      file, k->line, k->col, k->text);
  return 0;
}

/* Pulumi's rules for every key of the project file's `config:`, for every
 * command and runtime, as Pulumi checks them when it loads the project. */
static int check_project_config(const mp_project *p, mp_err *err) {
  const mp_ynode *cfg = mp_ynode_get(p->doc, "config");
  if (cfg == NULL || cfg->kind != MP_YNODE_MAP) return 0;
  for (size_t i = 0; i < cfg->n; i++) {
    const mp_ynode *k = cfg->keys[i], *v = cfg->vals[i];
    if (v->kind != MP_YNODE_MAP) continue;
    const mp_ynode *def = mp_ynode_get(v, "default");
    const mp_ynode *type = mp_ynode_get(v, "type");
    int rc = check_project_key(p, k, v, def, type, p->file_name, err);
    if (rc) return rc;
  }
  return 0;
}

/* One declared key: `key: {type, default, secret}` or `key: <default>`
 * (and in the project file's `config:`, `key: {value: v}`). */
static int load_config_key(mp_project *p, const mp_ynode *k,
                           const mp_ynode *v, const char *file, int legacy,
                           int project_file, mp_err *err) {
  for (size_t i = 0; i < p->nconfig; i++)
    if (strcmp(p->config[i].key, k->text) == 0)
      return bad_field(err, file, k, "config key declared twice");
  mp_project_config c = {.key = NULL, .line = k->line, .col = k->col};
  const mp_ynode *def = v, *nm = NULL;
  if (v->kind == MP_YNODE_MAP) {
    def = mp_ynode_get(v, legacy ? "Default" : "default");
    if (def == NULL)
      def = mp_ynode_get(v, "default");
    const mp_ynode *t = mp_ynode_get(v, "type");
    if (t == NULL)
      t = mp_ynode_get(v, "Type");
    if (project_file) {
      /* Pulumi's rules were checked when the project loaded
       * (check_project_config). A project-wide value: the CLI sets it in
       * the stack's config (mp_project_defaults), so the program reads it
       * as set there. */
      const mp_ynode *val = mp_ynode_get(v, "value");
      if (val && !def) def = val;
    }
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
    nm = mp_ynode_get(v, "name");
    if (nm != NULL && (nm->kind != MP_YNODE_SCALAR || !nm->text[0]))
      return bad_field(err, file, nm, "'name' must be a non-empty string");
    const mp_ynode *s = mp_ynode_get(v, "secret");
    if (s == NULL)
      s = mp_ynode_get(v, "Secret");
    if (s != NULL) {
      mp_value *sv = mp_ynode_value(s, MP_YNODE_TYPED);
      c.secret = sv->kind == MP_VALUE_BOOL && sv->u.boolean;
      mp_value_free(sv);
    }
  }
  mp_value *dv = def ? mp_ynode_value(def, MP_YNODE_TYPED) : NULL;
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
  c.name = nm ? mp_xstrdup(nm->text) : NULL;
  c.def = dv;
  p->config = mp_xreallocarray(p->config, p->nconfig + 1, sizeof(c));
  p->config[p->nconfig++] = c;
  return 0;
}

static int load_config(mp_project *p, const mp_ynode *doc, const char *key,
                       const char *file, mp_err *err) {
  const mp_ynode *cfg = mp_ynode_get(doc, key);
  if (cfg == NULL || mp_ynode_is_null(cfg))
    return 0;
  if (cfg->kind != MP_YNODE_MAP)
    return mp_err_set(err, MP_EINVAL, "%s:%d:%d: '%s' must be a map", file,
                      cfg->line, cfg->col, key);
  for (size_t i = 0; i < cfg->n; i++) {
    int rc = load_config_key(p, cfg->keys[i], cfg->vals[i], file,
                             strcmp(key, "configuration") == 0,
                             strcmp(key, "config") == 0 && p->file_name &&
                                 strcmp(file, p->file_name) == 0,
                             err);
    if (rc < 0)
      return rc;
  }
  return 0;
}

/* Pulumi YAML reads Main.yaml from the program folder when it exists,
 * otherwise the program lives in Pulumi.yaml itself (whose parsed
 * document the project already holds). */
static int load_program(mp_project *p, mp_err *err) {
  char *main_path = mp_xasprintf("%s/Main.yaml", p->program_dir);
  int have_main = file_exists(main_path);
  int rc = 0;
  if (!have_main) {
    p->program = p->doc;
    p->doc = NULL;
    p->program_file = mp_xstrdup(p->file_name);
  } else {
    p->program_file = mp_xstrdup("Main.yaml");
    rc = mp_ynode_load(main_path, "Main.yaml", &p->program, err);
    /* Main.yaml declares config too, as Pulumi.yaml does (Pulumi YAML
     * merges the program's declarations with the project's). */
    if (rc == 0)
      rc = load_config(p, p->program, "config", "Main.yaml", err);
    if (rc == 0)
      rc = load_config(p, p->program, "configuration", "Main.yaml", err);
  }
  free(main_path);
  return rc;
}

/* The checks of the fields the language host reads, in the project
 * file's own terms ("Pulumi.yaml:3:7: ..."). */
static int load_host_fields(mp_project *p, mp_err *err) {
  const mp_ynode *d = p->doc;
  const char *file = p->file_name;
  const mp_ynode *rt = mp_ynode_get(d, "runtime");
  char *name = NULL, *unused = NULL;
  int rc = 0;
  if (rt == NULL)
    rc = mp_err_set(err, MP_EINVAL,
                    "%s: missing 'runtime'; add e.g. `runtime: yaml`", file);
  else if (rt->kind == MP_YNODE_MAP)
    rc = string_field(rt, "name", file, &name, err);
  else if (rt->kind != MP_YNODE_SCALAR || rt->len == 0)
    rc = bad_field(err, file, rt,
                   "'runtime' must be a string or a map with 'name'");
  if (rc == 0 && rt->kind == MP_YNODE_MAP && name == NULL)
    rc = bad_field(err, file, rt, "'runtime' needs a 'name'");
  free(name);
  if (rc == 0) rc = string_field(d, "description", file, &unused, err);
  free(unused);
  unused = NULL;
  if (rc == 0) rc = string_field(d, "main", file, &unused, err);
  free(unused);
  if (rc == 0) rc = load_config(p, d, "config", file, err);
  if (rc == 0) rc = load_config(p, d, "configuration", file, err);
  if (rc == 0) rc = mp__pkgdecls_load(p, err);
  return rc;
}

int mp__project_load_program(mp_project *p, mp_err *err) {
  if (p->program_rc == 0 && p->program == NULL) {
    p->program_rc = load_host_fields(p, err);
    if (p->program_rc == 0) p->program_rc = load_program(p, err);
    if (p->program_rc < 0) p->program_err = *err;
  } else if (p->program_rc < 0 && err) {
    *err = p->program_err;
  }
  return p->program_rc;
}

void mp__project_drop_program(mp_project *p) {
  if (p->program_rc < 0) return;
  mp_ynode_free(p->program);
  p->program = NULL;
  p->program_rc = mp_err_set(&p->program_err, MP_EINVAL,
                             "the program of project '%s' was already run "
                             "and released",
                             p->name);
}

/* ---- the project's fields, for every command ---- */

/* "a" or "an", for mp_value_kind_name(v->kind). */
static const char *article(const mp_value *v) {
  return strchr("aeiou", mp_value_kind_name(v->kind)[0]) ? "an" : "a";
}

/* Project config declarations: `key: value` or `key: {default: v, ...}`
 * (or `value:`); a key without `:` belongs to the project. Scalars are
 * kept as the strings written, as stack config values are. */
static mp_value *project_defaults(const mp_value *decl, const char *project) {
  mp_value *out = mp_value_new_object();
  if (!decl || decl->kind != MP_VALUE_OBJECT) return out;
  for (size_t i = 0; i < decl->u.obj.len; i++) {
    const mp_value_entry *e = &decl->u.obj.items[i];
    const mp_value *v = e->value;
    if (v->kind == MP_VALUE_OBJECT) {
      v = mp_value_object_get(v, "default");
      if (!v && mp_value_object_get(e->value, "value"))
        v = mp_value_object_get(e->value, "value");
    }
    if (!v || v->kind == MP_VALUE_NULL) continue;
    char *key = strchr(e->key, ':') ? mp_xstrdup(e->key)
                                    : mp_xasprintf("%s:%s", project, e->key);
    mp_value_object_set(out, key, mp_value_dup(v));
    free(key);
  }
  return out;
}

/* A scalar's text, NULL for anything else. */
static char *text_of(const mp_value *v) {
  return v && v->kind == MP_VALUE_STRING ? mp_xstrdup(v->u.str.ptr) : NULL;
}

/* Pulumi.yaml `packages: {<name>: <local path> | {source: <local path>}}`
 * (what `pulumi package add ./folder` writes): the folder is the plugin
 * of package <name>, as if plugins.providers named it. */
static void load_local_packages(mp_project *p, const mp_value *doc) {
  const mp_value *m = mp_value_object_get(doc, "packages");
  if (m == NULL || m->kind != MP_VALUE_OBJECT) return;
  for (size_t i = 0; i < m->u.obj.len; i++) {
    const mp_value *v = m->u.obj.items[i].value;
    if (v->kind == MP_VALUE_OBJECT) v = mp_value_object_get(v, "source");
    char *path = text_of(v);
    if (path == NULL || !mp_project_is_local_source(path)) {
      free(path);
      continue;
    }
    p->plugins = mp_xreallocarray(p->plugins, p->nplugins + 1,
                                  sizeof(*p->plugins));
    p->plugins[p->nplugins].name = mp_xstrdup(m->u.obj.items[i].key);
    p->plugins[p->nplugins].version = NULL;
    p->plugins[p->nplugins++].path = path;
  }
}

int mp_project_is_local_source(const char *source) {
  return source[0] == '/' || strncmp(source, "./", 2) == 0 ||
         strncmp(source, "../", 3) == 0;
}

/* Pulumi.yaml `plugins: {providers: [{name, path, version}, ...]}`. */
static void load_plugins(mp_project *p, const mp_value *doc) {
  const mp_value *pl = mp_value_object_get(doc, "plugins");
  const mp_value *pv =
      pl && pl->kind == MP_VALUE_OBJECT ? mp_value_object_get(pl, "providers")
                                        : NULL;
  if (pv == NULL || pv->kind != MP_VALUE_ARRAY) return;
  p->plugins = mp_xcalloc(pv->u.arr.len + 1, sizeof(*p->plugins));
  for (size_t i = 0; i < pv->u.arr.len; i++) {
    const mp_value *e = pv->u.arr.items[i];
    if (e->kind != MP_VALUE_OBJECT) continue;
    char *name = text_of(mp_value_object_get(e, "name"));
    char *path = text_of(mp_value_object_get(e, "path"));
    if (name && path && *name && *path) {
      p->plugins[p->nplugins].name = name;
      p->plugins[p->nplugins].version =
          text_of(mp_value_object_get(e, "version"));
      p->plugins[p->nplugins++].path = path;
    } else {
      free(name);
      free(path);
    }
  }
}

size_t mp_project_plugin_count(const mp_project *p) { return p->nplugins; }
const mp_project_plugin *mp_project_plugin_at(const mp_project *p, size_t i) {
  return i < p->nplugins ? &p->plugins[i] : NULL;
}

/* The name, the runtime and the rest every command needs, from the
 * document read with every scalar a string. */
static int load_fields(mp_project *p, const mp_value *doc, mp_err *err) {
  const char *file = p->path;
  if (doc->kind != MP_VALUE_OBJECT)
    return mp_err_set(err, MP_EINVAL,
                      "cannot parse '%s': the document is not a mapping", file);
  const mp_value *name = mp_value_object_get(doc, "name");
  const mp_value *rt = mp_value_object_get(doc, "runtime");
  const mp_value *rtn =
      rt && rt->kind == MP_VALUE_OBJECT ? mp_value_object_get(rt, "name") : NULL;
  if (!name || name->kind == MP_VALUE_NULL)
    return mp_err_set(err, MP_EINVAL,
                      "'%s' has no project name; add `name: <project>`", file);
  if (name->kind != MP_VALUE_STRING || !name->u.str.len)
    return mp_err_set(err, MP_EINVAL,
                      "'%s': `name` must be a non-empty string; it is %s %s",
                      file, article(name), mp_value_kind_name(name->kind));
  if (rt && rt->kind != MP_VALUE_NULL && rt->kind != MP_VALUE_STRING &&
      !(rtn && rtn->kind == MP_VALUE_STRING))
    /* Present but of the wrong type: "has no runtime" would mislead. */
    return mp_err_set(err, MP_EINVAL,
                      "'%s': `runtime` must be a string such as `yaml`, or a "
                      "mapping with a `name` string; it is %s %s",
                      file, article(rt), mp_value_kind_name(rt->kind));
  p->name = text_of(name);
  /* The name becomes a folder of a file:// store and a part of every URN:
   * checked here, where every command and the language hosts read it. */
  mp_err why;
  if (mp_project_name_check(p->name, &why) != 0)
    return mp_err_set(err, MP_EINVAL,
                      "'%s': invalid project name '%s': %s; change its "
                      "`name`",
                      file, p->name, why.msg);
  p->runtime = text_of(rt && rt->kind == MP_VALUE_OBJECT ? rtn : rt);
  p->description = text_of(mp_value_object_get(doc, "description"));
  const mp_value *ro =
      rt && rt->kind == MP_VALUE_OBJECT ? mp_value_object_get(rt, "options") : NULL;
  p->runtime_options = ro && ro->kind == MP_VALUE_OBJECT ? mp_value_dup(ro) : NULL;
  p->main = text_of(mp_value_object_get(doc, "main"));
  /* `main` is relative to the project's folder, unless absolute (the
   * Automation API's inline projects set it to the caller's folder). */
  p->program_dir = !p->main || !*p->main ? mp_xstrdup(p->dir)
                   : p->main[0] == '/'   ? mp_xstrdup(p->main)
                                         : mp_xasprintf("%s/%s", p->dir, p->main);
  p->defaults = project_defaults(mp_value_object_get(doc, "config"), p->name);
  load_plugins(p, doc);
  load_local_packages(p, doc);
  return 0;
}

/* The document as load_fields reads it, without the program's sections:
 * a YAML program's resources can be most of the file, and the YAML host
 * reads them from the nodes. */
static mp_value *fields_value(const mp_ynode *doc) {
  static const char *const wanted[] = {"name",   "runtime", "description",
                                       "main",   "config",  "plugins",
                                       "packages"};
  if (doc->kind != MP_YNODE_MAP) return mp_ynode_value(doc, 0);
  mp_value *o = mp_value_new_object();
  for (size_t i = 0; i < doc->n; i++)
    for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); w++)
      if (strcmp(doc->keys[i]->text, wanted[w]) == 0) {
        mp_value_object_set(o, wanted[w], mp_ynode_value(doc->vals[i], 0));
        break;
      }
  return o;
}

/* The project file in |dir|, Pulumi.yaml or else Pulumi.yml: its path
 * (owned) and its name in *file, or NULL when there is neither. */
static char *project_file(const char *dir, const char **file) {
  static const char *const names[] = {"Pulumi.yaml", "Pulumi.yml"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    char *path = mp_xasprintf("%s/%s", dir, names[i]);
    if (file_exists(path)) {
      *file = names[i];
      return path;
    }
    free(path);
  }
  return NULL;
}

int mp_project_load(const char *dir, mp_project **out, mp_err *err) {
  *out = NULL;
  const char *file;
  char *path = project_file(dir, &file);
  if (path == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "no Pulumi.yaml project file found in '%s'; run "
                      "the command in a project folder",
                      dir);
  mp_project *p = mp_xcalloc(1, sizeof(*p));
  p->dir = mp_xstrdup(dir);
  p->path = path;
  p->file_name = mp_xstrdup(file);
  int rc = mp_ynode_load(path, path, &p->doc, err);
  if (rc == 0) {
    mp_value *doc = fields_value(p->doc);
    rc = load_fields(p, doc, err);
    mp_value_free(doc);
  }
  if (rc == 0) rc = check_project_config(p, err);
  if (rc < 0) {
    mp_project_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

char *mp_project_peek_name(const char *dir) {
  enum { HEAD_EVENTS = 64 }; /* `name:` is usually the first key */
  const char *file;
  char *path = project_file(dir, &file);
  char *name = path ? mp_ynode_peek(path, "name", HEAD_EVENTS) : NULL;
  free(path);
  return name;
}

void mp_project_free(mp_project *p) {
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->nconfig; i++) {
    free((char *)p->config[i].key);
    free((char *)p->config[i].name);
    mp_value_free((mp_value *)p->config[i].def);
  }
  free(p->config);
  for (size_t i = 0; i < p->nplugins; i++) {
    free((char *)p->plugins[i].name);
    free((char *)p->plugins[i].path);
    free((char *)p->plugins[i].version);
  }
  free(p->plugins);
  mp__pkgdecls_free(p);
  mp_ynode_free(p->doc);
  mp_ynode_free(p->program);
  mp_value_free(p->defaults);
  mp_value_free(p->runtime_options);
  free(p->path);
  free(p->file_name);
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
const char *mp_project_program_dir(const mp_project *p) {
  return p->program_dir;
}
char *mp_project_pwd(const mp_project *p) {
  struct stat st;
  const char *dir = p->program_dir;
  if (!p->main || !*p->main || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
    return mp_xstrdup(dir);
  const char *slash = strrchr(dir, '/');
  if (slash == NULL) return mp_xstrdup(".");
  return slash == dir ? mp_xstrdup("/") : mp_xstrndup(dir, (size_t)(slash - dir));
}
const char *mp_project_runtime_option(const mp_project *p, const char *key) {
  const mp_value *v =
      p->runtime_options ? mp_value_object_get(p->runtime_options, key) : NULL;
  return v && v->kind == MP_VALUE_STRING ? v->u.str.ptr : NULL;
}
const mp_value *mp_project_defaults(const mp_project *p) {
  return p->defaults;
}
size_t mp_project_config_count(const mp_project *p) { return p->nconfig; }
const mp_project_config *mp_project_config_at(const mp_project *p,
                                              size_t i) {
  return i < p->nconfig ? &p->config[i] : NULL;
}
