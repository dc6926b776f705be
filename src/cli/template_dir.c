/* Templates in folders (template_dir.h), after Pulumi's
 * sdk/go/common/workspace/templates.go: LoadTemplate, Templates,
 * CopyTemplateFiles and GetTemplateDir. */
#include "cli/template_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/backend.h"
#include "lang/ynode.h"

#define BINARY_PROBE 8000 /* git's rule: a NUL in the first 8000 bytes */

void mp_tpl_destroy(mp_tpl *t) {
  free(t->name);
  free(t->dir);
  free(t->description);
  free(t->quickstart);
  free(t->project_name);
  free(t->project_desc);
  for (size_t i = 0; i < t->nconfig; i++) {
    free(t->config[i].key);
    free(t->config[i].description);
    free(t->config[i].def);
  }
  free(t->config);
  memset(t, 0, sizeof(*t));
}

void mp_tpl_from_builtin(const mp_template *b, mp_tpl *t) {
  memset(t, 0, sizeof(*t));
  t->name = mp_xstrdup(b->name);
  t->builtin = b;
  t->description = mp_xstrdup(b->description);
  t->project_name = mp_xstrdup("${PROJECT}");
  t->project_desc = mp_xstrdup("${DESCRIPTION}");
}

char *mp_tpl_home_dir(void) {
  const char *p = getenv("PULUMI_TEMPLATE_PATH");
  if (p && *p)
    return mp_xstrdup(p);
  const char *home = getenv("PULUMI_HOME");
  if (home && *home)
    return mp_xasprintf("%s/templates", home);
  return mp_cli_home_path(".pulumi/templates");
}

/* The text of scalar |n| (owned), or NULL when |n| is absent or no
 * scalar. */
static char *scalar(const mp_ynode *n) {
  return n && n->kind == MP_YNODE_SCALAR ? mp_xstrdup(n->text) : NULL;
}

static int bad(mp_err *err, const char *file, const mp_ynode *n,
               const char *what) {
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", file, n ? n->line : 0,
                    n ? n->col : 0, what);
}

static int cmp_config(const void *a, const void *b) {
  return strcmp(((const mp_tpl_config *)a)->key,
                ((const mp_tpl_config *)b)->key);
}

/* template.config: each key's description, default and secret. */
static int load_config(const char *file, const mp_ynode *cfg, mp_tpl *t,
                       mp_err *err) {
  if (cfg == NULL || mp_ynode_is_null(cfg))
    return 0;
  if (cfg->kind != MP_YNODE_MAP)
    return bad(err, file, cfg, "template.config must be a mapping");
  t->config = mp_xcalloc(cfg->n ? cfg->n : 1, sizeof(*t->config));
  for (size_t i = 0; i < cfg->n; i++) {
    const mp_ynode *v = cfg->vals[i];
    mp_tpl_config *c = &t->config[t->nconfig++];
    c->key = mp_xstrdup(cfg->keys[i]->text);
    if (mp_ynode_is_null(v))
      continue;
    if (v->kind != MP_YNODE_MAP)
      return bad(err, file, v,
                 "each template.config value must be a mapping of "
                 "description, default and secret");
    c->description = scalar(mp_ynode_get(v, "description"));
    const mp_ynode *d = mp_ynode_get(v, "default");
    if (d && !mp_ynode_is_null(d)) {
      if (d->kind != MP_YNODE_SCALAR)
        return bad(err, file, d,
                   "a template.config default must be a "
                   "scalar");
      c->def = mp_xstrdup(d->text);
    }
    const mp_ynode *s = mp_ynode_get(v, "secret");
    if (s) {
      if (s->kind != MP_YNODE_SCALAR ||
          (strcmp(s->text, "true") && strcmp(s->text, "false")))
        return bad(err, file, s,
                   "template.config secret must be true or "
                   "false");
      c->secret = strcmp(s->text, "true") == 0;
    }
  }
  qsort(t->config, t->nconfig, sizeof(*t->config), cmp_config);
  return 0;
}

static int load_section(const char *file, const mp_ynode *sec, mp_tpl *t,
                        mp_err *err) {
  if (sec == NULL || mp_ynode_is_null(sec))
    return 0;
  if (sec->kind != MP_YNODE_MAP)
    return bad(err, file, sec, "template must be a mapping");
  char *d = scalar(mp_ynode_get(sec, "description"));
  if (d) {
    free(t->description);
    t->description = d;
  }
  t->quickstart = scalar(mp_ynode_get(sec, "quickstart"));
  const mp_ynode *imp = mp_ynode_get(sec, "important");
  if (imp) {
    if (imp->kind != MP_YNODE_SCALAR ||
        (strcmp(imp->text, "true") && strcmp(imp->text, "false")))
      return bad(err, file, imp, "template.important must be true or false");
    t->important = strcmp(imp->text, "true") == 0;
  }
  return load_config(file, mp_ynode_get(sec, "config"), t, err);
}

int mp_tpl_load(const char *dir, mp_tpl *t, mp_err *err) {
  memset(t, 0, sizeof(*t));
  char *path = mp_xasprintf("%s/Pulumi.yaml", dir);
  mp_ynode *doc = NULL;
  int rc = mp_ynode_load(path, path, &doc, err);
  if (rc == 0 && doc->kind != MP_YNODE_MAP)
    rc = bad(err, path, doc, "Pulumi.yaml must be a mapping");
  if (rc == 0) {
    const char *slash = strrchr(dir, '/');
    t->name = mp_xstrdup(slash && slash[1] ? slash + 1 : dir);
    t->dir = mp_xstrdup(dir);
    t->description = mp_xstrdup("");
    t->project_name = scalar(mp_ynode_get(doc, "name"));
    if (t->project_name == NULL)
      rc = mp_err_set(err, MP_EINVAL, "%s: the project has no name", path);
    t->project_desc = scalar(mp_ynode_get(doc, "description"));
  }
  if (rc == 0)
    rc = load_section(path, mp_ynode_get(doc, "template"), t, err);
  mp_ynode_free(doc);
  free(path);
  if (rc)
    mp_tpl_destroy(t);
  return rc;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int mp_tpl_scan(const char *path, mp_tpl **out, size_t *n, mp_err *err) {
  struct stat st;
  if (stat(path, &st) != 0)
    return mp_err_set(err, MP_ENOENT, "%s: %s", path, strerror(errno));
  char *dir = S_ISDIR(st.st_mode) ? mp_xstrdup(path) : NULL;
  if (dir == NULL) {
    const char *slash = strrchr(path, '/');
    dir = slash ? mp_xstrndup(path, (size_t)(slash - path)) : mp_xstrdup(".");
  }
  mp_tpl t;
  int rc = mp_tpl_load(dir, &t, err);
  if (rc == 0) {
    *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
    (*out)[(*n)++] = t;
  }
  if (rc != MP_ENOENT) {
    free(dir);
    return rc;
  }
  mp_err_clear(err);
  rc = 0;
  DIR *d = opendir(dir);
  if (d == NULL) {
    rc = mp_err_set(err, MP_EIO, "cannot read %s: %s", dir, strerror(errno));
    free(dir);
    return rc;
  }
  mp_strv names;
  mp_strv_init(&names);
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' ||
        (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
         strcmp(e->d_name, ".git")))
      mp_strv_push(&names, e->d_name);
  closedir(d);
  qsort(names.items, names.len, sizeof(char *), cmp_name);
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    char *sub = mp_xasprintf("%s/%s", dir, names.items[i]);
    if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
      rc = mp_tpl_load(sub, &t, err);
      if (rc == 0) {
        *out = mp_xreallocarray(*out, *n + 1, sizeof(**out));
        (*out)[(*n)++] = t;
      } else if (rc == MP_ENOENT) {
        mp_err_clear(err);
        rc = 0;
      }
    }
    free(sub);
  }
  mp_strv_destroy(&names);
  free(dir);
  return rc;
}

/* |text| with every |from| replaced by |to|. Owned. */
static char *replace_all(const char *text, size_t len, const char *from,
                         const char *to, size_t *out_len) {
  mp_buf b;
  mp_buf_init(&b);
  size_t flen = strlen(from);
  for (size_t i = 0; i < len;) {
    if (i + flen <= len && memcmp(text + i, from, flen) == 0) {
      mp_buf_puts(&b, to);
      i += flen;
    } else {
      mp_buf_putc(&b, text[i++]);
    }
  }
  return mp_buf_detach(&b, out_len);
}

/* |s| as a YAML scalar on one line: as the emitter writes it when that
 * fits one line, else double-quoted with escapes. Owned. */
static char *yaml_scalar(const char *s) {
  mp_value *doc = mp_value_new_object();
  mp_value_object_set(doc, "k", mp_value_new_cstring(s));
  mp_buf out;
  mp_buf_init(&out);
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_ynode_emit(doc, NULL, 0, 0, &out, &err);
  mp_value_free(doc);
  char *text = mp_buf_detach(&out, NULL);
  if (rc == 0 && strncmp(text, "k: ", 3) == 0 &&
      strchr(text + 3, '\n') == text + strlen(text) - 1) {
    char *one = mp_xstrndup(text + 3, strlen(text) - 4);
    free(text);
    return one;
  }
  free(text);
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_putc(&b, '"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      mp_buf_printf(&b, "\\%c", *p);
    else if (*p == '\n')
      mp_buf_puts(&b, "\\n");
    else if (*p < 0x20)
      mp_buf_printf(&b, "\\x%02x", *p);
    else
      mp_buf_putc(&b, (char)*p);
  }
  mp_buf_putc(&b, '"');
  return mp_buf_detach(&b, NULL);
}

static int read_all(const char *path, char **text, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[8192];
  size_t got;
  while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(&b, chunk, got);
  int failed = ferror(f);
  fclose(f);
  *text = mp_buf_detach(&b, len);
  if (failed) {
    free(*text);
    *text = NULL;
    return -1;
  }
  return 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct copy_args {
  int force;
  char *root; /* the template folder, resolved: no link leads out of it */
  const char *project, *desc;
  char *yaml_project, *yaml_desc;
} copy_args;

static int copy_file(const copy_args *a, const char *src, const char *dst,
                     mode_t mode, mp_err *err) {
  char *text = NULL;
  size_t len = 0;
  if (read_all(src, &text, &len) != 0)
    return mp_err_set(err, MP_EIO, "cannot read %s: %s", src, strerror(errno));
  size_t probe = len < BINARY_PROBE ? len : BINARY_PROBE;
  if (memchr(text, 0, probe) == NULL) {
    int yaml = ends_with(src, ".yaml");
    size_t n1, n2;
    char *t1 = replace_all(text, len, "${PROJECT}",
                           yaml ? a->yaml_project : a->project, &n1);
    char *t2 = replace_all(t1, n1, "${DESCRIPTION}",
                           yaml ? a->yaml_desc : a->desc, &n2);
    free(t1);
    free(text);
    text = t2;
    len = n2;
  }
  int flags = O_WRONLY | O_CREAT | (a->force ? O_TRUNC : O_EXCL);
  int fd = open(dst, flags, mode | 0600);
  int rc = 0;
  if (fd < 0) {
    rc = errno == EEXIST
             ? mp_err_set(err, MP_EIO,
                          "creating this template will make changes to "
                          "existing files:\n  overwrite   %s\n\nrerun the "
                          "command and pass --force to accept and create",
                          strrchr(dst, '/') ? strrchr(dst, '/') + 1 : dst)
             : mp_err_set(err, MP_EIO, "cannot write %s: %s", dst,
                          strerror(errno));
  } else {
    size_t off = 0;
    while (rc == 0 && off < len) {
      ssize_t w = write(fd, text + off, len - off);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        rc = mp_err_set(err, MP_EIO, "cannot write %s: %s", dst,
                        strerror(errno));
      else
        off += (size_t)w;
    }
    if (close(fd) != 0 && rc == 0)
      rc = mp_err_set(err, MP_EIO, "cannot write %s: %s", dst, strerror(errno));
  }
  free(text);
  return rc;
}

/* A link in a template is copied as the file it names (as Pulumi's
 * ReadFile follows it), but only when that file is inside the template:
 * a template from a git URL could otherwise copy ~/.aws/credentials or
 * /etc/shadow into the new project, and a link to a folder (`loop -> .`)
 * would be walked without end. */
static int check_link(const copy_args *a, const char *from, struct stat *st,
                      mp_err *err) {
  char *real = realpath(from, NULL);
  size_t n = strlen(a->root);
  int inside = real && strncmp(real, a->root, n) == 0 &&
               (real[n] == '/' || real[n] == '\0');
  int rc = 0;
  if (!inside)
    rc = mp_err_set(err, MP_EINVAL,
                    "the template's link %s points outside the template "
                    "folder %s%s%s; templates may only link to their own "
                    "files",
                    from, a->root, real ? "" : ": ",
                    real ? "" : strerror(errno));
  else if (stat(real, st) == 0 && S_ISDIR(st->st_mode))
    rc = mp_err_set(err, MP_EINVAL,
                    "the template's link %s names a folder; templates may "
                    "only link to their own files",
                    from);
  free(real);
  return rc;
}

static int walk(const copy_args *a, const char *src, const char *dst,
                mp_err *err) {
  DIR *d = opendir(src);
  if (d == NULL)
    return mp_err_set(err, MP_EIO, "cannot read %s: %s", src, strerror(errno));
  mp_strv names;
  mp_strv_init(&names);
  struct dirent *e;
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      mp_strv_push(&names, e->d_name);
  closedir(d);
  qsort(names.items, names.len, sizeof(char *), cmp_name);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    const char *name = names.items[i];
    char *from = mp_xasprintf("%s/%s", src, name);
    struct stat st;
    if (lstat(from, &st) == 0 && S_ISLNK(st.st_mode))
      rc = check_link(a, from, &st, err);
    if (rc != 0) {
      /* the link's error */
    } else if (stat(from, &st) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot read %s: %s", from, strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
      if (strcmp(name, ".git") != 0) {
        char *to = mp_xasprintf("%s/%s", dst, name);
        if (mkdir(to, 0700) != 0 && !(errno == EEXIST && a->force))
          rc = mp_err_set(err, MP_EIO, "cannot create %s: %s", to,
                          strerror(errno));
        if (rc == 0)
          rc = walk(a, from, to, err);
        free(to);
      }
    } else if (strcmp(name, ".pulumi.template.yaml") != 0) {
      /* a file's name may hold ${PROJECT} too */
      size_t n;
      char *leaf =
          replace_all(name, strlen(name), "${PROJECT}", a->project, &n);
      char *to = mp_xasprintf("%s/%s", dst, leaf);
      rc = copy_file(a, from, to, st.st_mode & 0777, err);
      free(to);
      free(leaf);
    }
    free(from);
  }
  mp_strv_destroy(&names);
  return rc;
}

int mp_tpl_copy(const char *src, const char *dst, int force,
                const char *project, const char *desc, mp_err *err) {
  char *root = realpath(src, NULL);
  if (root == NULL)
    return mp_err_set(err, MP_EIO, "cannot read %s: %s", src, strerror(errno));
  copy_args a = {
      force, root, project, desc, yaml_scalar(project), yaml_scalar(desc)};
  int rc = walk(&a, src, dst, err);
  free(root);
  free(a.yaml_project);
  free(a.yaml_desc);
  return rc;
}
