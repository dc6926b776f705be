/* The built-in `local` provider: `local:index:File`, a file on this
 * machine. Inputs `path`, `content`, optional `mode` (an octal string such
 * as "0644") and `overwrite` (bool); outputs add `sha256` (hex of the
 * content). The id is the path; Read reports the file as it is on disk,
 * so refresh sees drift and import works from the path alone.
 *
 * The resource owns only what it wrote. Create refuses a path where
 * something already is unless `overwrite: true` (and anything but a
 * regular file always); Delete removes the file only while it is still a
 * regular file with the content written, and otherwise warns and leaves
 * it. Paths are compared as files (`out.txt` and `./out.txt` are one
 * resource), relative to the program's folder. A final symbolic link is
 * never followed; a folder reached through one is written into with a
 * warning saying where. */
#include "providers/providers_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "providers/local_int.h"

#define TOKEN "local:index:File"
#define REGULAR_ONLY "local:index:File manages regular files only"

int mp__prov_local_implements(const char *tok, int function) {
  return !function && tok && !strcmp(tok, TOKEN);
}

static int check_type(const mp_prov_req *q, mp_err *err) {
  if (q->type != NULL && strcmp(q->type, TOKEN) == 0)
    return 0;
  return mp_err_set(err, MP_EINVAL,
                    "unknown resource type '%s' in the built-in 'local' "
                    "provider; the only type is '" TOKEN "'",
                    q->type ? q->type : "(none)");
}

/* Parses 1 to 4 octal digits; returns 0 or -1. */
static int parse_mode(const char *s, mode_t *out) {
  size_t n = strlen(s), i;
  unsigned m = 0;
  if (n == 0 || n > 4)
    return -1;
  for (i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '7')
      return -1;
    m = m * 8 + (unsigned)(s[i] - '0');
  }
  *out = (mode_t)m;
  return 0;
}

static int l_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  const char *path = NULL, *content, *mode = NULL;
  int overwrite;
  mode_t m;
  mp__prov_field f;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  f = mp__prov_str(q->news, "path", &path, r);
  if (f == MP_PROV_FIELD_MISSING || (f == MP_PROV_FIELD_OK && !*path))
    mp_prov_resp_add_failure(r, "path", "missing required property");
  if (q->news && q->news->kind == MP_VALUE_OBJECT &&
      mp_value_contains_secrets(mp_value_object_get(q->news, "path")))
    mp_prov_resp_add_failure(r, "path",
                             "cannot be secret: the path is the resource's "
                             "id, which is never secret");
  (void)mp__prov_str(q->news, "content", &content, r);
  (void)mp__prov_bool(q->news, "overwrite", &overwrite, r);
  f = mp__prov_str(q->news, "mode", &mode, r);
  if (f == MP_PROV_FIELD_OK && parse_mode(mode, &m) < 0)
    mp_prov_resp_add_failure(r, "mode",
                             "expected an octal permission string such as "
                             "\"0644\"");
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  return 0;
}

/* The path of the file a resource's state names. */
static const char *state_path(const mp_prov_req *q) {
  const char *path = mp__prov_get_str(q->olds, "path");
  return path ? path : q->id;
}

/* A path change replaces, unless both spellings name the same file. The
 * file's name is fixed, so a replacement deletes the old one first. */
static int l_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  static const char *const skip[] = {"sha256", "path", NULL};
  const mp_value *olds = q->old_inputs ? q->old_inputs : q->olds;
  const char *op = mp__prov_get_str(olds, "path");
  const char *np = mp__prov_get_str(q->news, "path");
  int moved;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  moved = mp__prov_is_unknown(q->news, "path") || op == NULL || np == NULL ||
          !mp__local_same_file(op, np);
  if (moved) {
    mp_strv_push(&r->diffs, "path");
    mp_strv_push(&r->replaces, "path");
  } else {
    r->delete_before_replace = 1;
  }
  mp__prov_changed_keys(olds, q->news, skip, &r->diffs);
  r->changes = r->diffs.len ? MP_DIFF_CHANGES_SOME : MP_DIFF_CHANGES_NONE;
  return 0;
}

/* sha256 of the content; secret when the content is (a hash of a short
 * secret gives it away). */
static void set_sha(mp_value *out, const char *content, size_t len,
                    int secret) {
  char hex[65];
  mp_sha256_hex(content, len, hex);
  mp_value *v = mp_value_new_cstring(hex);
  mp_value_object_set(out, "sha256", secret ? mp_value_new_secret(v) : v);
}

static int content_secret(const mp_value *obj) {
  return obj && obj->kind == MP_VALUE_OBJECT &&
         mp_value_contains_secrets(mp_value_object_get(obj, "content"));
}

/* Says so when |path|'s folder is reached through a symbolic link. */
static void warn_symlinked(const char *path, mp_prov_resp *r) {
  char *real = NULL;
  if (!mp__local_via_symlink(path, &real))
    return;
  mp_strv_push_take(&r->warnings,
                    mp_xasprintf("'%s' is reached through a symbolic link: "
                                 "the file is written at '%s'",
                                 path, real));
  free(real);
}

/* Writes the file of |q|'s news at |path|. |owned|: the resource wrote
 * what is there, so it may be replaced; otherwise only an `overwrite:
 * true` resource replaces an existing file. Never anything but a regular
 * file. */
static int put_file(const mp_prov_req *q, const char *path, int owned,
                    mp_prov_resp *r, mp_err *err) {
  const char *modes = mp__prov_get_str(q->news, "mode");
  const mp_value *content = mp__prov_get(q->news, "content");
  const mp_value *ow = mp__prov_get(q->news, "overwrite");
  int overwrite = ow != NULL && ow->kind == MP_VALUE_BOOL && ow->u.boolean;
  const char *data = "";
  size_t len = 0;
  mode_t mode = 0644;
  if (content != NULL && content->kind == MP_VALUE_STRING)
    data = content->u.str.ptr, len = content->u.str.len;
  if (modes != NULL && parse_mode(modes, &mode) < 0)
    return mp_err_set(err, MP_EINVAL,
                      "cannot write '%s': 'mode' must be an octal string",
                      path);
  int there = mp__local_inspect(path, "it was left alone; " REGULAR_ONLY, err);
  if (there < 0)
    return there;
  if (there && !owned && !overwrite)
    return mp_err_set(err, MP_EPLUGIN,
                      "'%s' already exists and this stack did not create it; "
                      "it was left alone. Move it away, or set `overwrite: "
                      "true` on the resource to replace it",
                      path);
  warn_symlinked(path, r);
  return mp__local_write(path, data, len, mode, there, err);
}

/* The outputs for |q|'s news: the inputs plus sha256. */
static mp_value *file_outputs(const mp_prov_req *q) {
  const mp_value *content = mp__prov_get(q->news, "content");
  mp_value *out = mp__prov_obj_dup(q->news);
  if (mp__prov_is_unknown(q->news, "content")) {
    mp_value_object_set(out, "sha256", mp_value_new_unknown());
  } else if (content != NULL && content->kind == MP_VALUE_STRING) {
    set_sha(out, content->u.str.ptr, content->u.str.len,
            content_secret(q->news));
  } else {
    set_sha(out, "", 0, 0);
  }
  return out;
}

static int l_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *path = mp__prov_get_str(q->news, "path");
  int rc;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (!q->preview) {
    if (path == NULL || *path == '\0')
      return mp_err_set(err, MP_EINVAL,
                        "cannot write a file: 'path' must be a non-empty "
                        "string");
    if ((rc = put_file(q, path, 0, r, err)) < 0)
      return rc;
    free(r->id);
    r->id = mp_xstrdup(path);
  }
  mp_value_free(r->outputs);
  r->outputs = file_outputs(q);
  return 0;
}

/* The content the resource last wrote: its sha256 output (or, in older
 * states, the hash of its content output). Owned, or NULL if unknown. */
static char *written_sha(const mp_value *olds) {
  const char *sha = mp__prov_get_str(olds, "sha256");
  const mp_value *c = mp__prov_get(olds, "content");
  char hex[65];
  if (sha != NULL)
    return mp_xstrdup(sha);
  if (c == NULL || c->kind != MP_VALUE_STRING)
    return NULL;
  mp_sha256_hex(c->u.str.ptr, c->u.str.len, hex);
  return mp_xstrdup(hex);
}

/* Deletes |path| only if it is still the regular file this resource wrote
 * (same content); otherwise warns and leaves it. */
static int remove_owned(const char *path, const mp_value *olds, mp_prov_resp *r,
                        mp_err *err) {
  mp_buf b;
  mode_t mode;
  mp_err why;
  char hex[65];
  mp_err_clear(&why);
  mp_buf_init(&b);
  int rc = mp__local_read(path, &b, &mode, &why);
  char *want = rc == 0 ? written_sha(olds) : NULL;
  if (rc == 0)
    mp_sha256_hex(b.data ? b.data : "", b.len, hex);
  mp_buf_destroy(&b);
  if (rc < 0)
    mp_strv_push_take(&r->warnings,
                      mp_xasprintf("%s; it was left in place", why.msg));
  else if (rc == 0 && (want == NULL || strcmp(want, hex) != 0))
    mp_strv_push_take(&r->warnings,
                      mp_xasprintf("'%s' changed since this stack wrote it; "
                                   "it was left in place (delete it yourself "
                                   "if it should go)",
                                   path));
  else if (rc == 0 && unlink(path) != 0 && errno != ENOENT)
    rc = mp_err_set(err, MP_EPLUGIN, "cannot delete '%s': %s", path,
                    strerror(errno));
  free(want);
  return rc < 0 ? 0 : rc; /* 1: already gone */
}

static int l_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *old_path = state_path(q);
  const char *new_path = mp__prov_get_str(q->news, "path");
  int rc, same;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (!q->preview) {
    if (new_path == NULL || *new_path == '\0')
      return mp_err_set(err, MP_EINVAL,
                        "cannot write a file: 'path' must be a non-empty "
                        "string");
    same = old_path != NULL && mp__local_same_file(old_path, new_path);
    if ((rc = put_file(q, new_path, same, r, err)) < 0)
      return rc;
    /* Diff replaces on a path change; should an update move the file
     * anyway, the old one goes if it is still what was written. */
    if (!same && old_path != NULL &&
        (rc = remove_owned(old_path, q->olds, r, err)) < 0)
      return rc;
    free(r->id);
    r->id = mp_xstrdup(new_path);
  }
  mp_value_free(r->outputs);
  r->outputs = file_outputs(q);
  return 0;
}

static int l_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *path = state_path(q);
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (path == NULL)
    return 0;
  int rc = remove_owned(path, q->olds, r, err);
  return rc < 0 ? rc : 0;
}

/* Sets path/content (and mode, when |base| has one) from disk. */
static void apply_disk(mp_value *v, const char *path, const mp_buf *b,
                       mode_t mode) {
  mp_value *c = mp_value_new_string(b->len ? b->data : "", b->len);
  /* Content that was secret stays secret. */
  if (content_secret(v))
    c = mp_value_new_secret(c);
  mp_value_object_set(v, "path", mp_value_new_cstring(path));
  mp_value_object_set(v, "content", c);
  if (mp_value_object_get(v, "mode") != NULL) {
    char *m = mp_xasprintf("%04o", (unsigned)mode);
    mp_value_object_set(v, "mode", mp_value_new_cstring(m));
    free(m);
  }
}

static int l_read(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  const char *path =
      q->id && *q->id ? q->id : mp__prov_get_str(q->olds, "path");
  mp_buf b;
  mode_t mode = 0;
  int rc;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (path == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "cannot read a file without an id; "
                      "the id of a local:index:File is its "
                      "path");
  mp_buf_init(&b);
  rc = mp__local_read(path, &b, &mode, err);
  if (rc == 0) {
    mp_value *out = mp__prov_obj_dup(q->olds);
    mp_value *in = mp__prov_obj_dup(q->old_inputs);
    apply_disk(out, path, &b, mode);
    set_sha(out, b.len ? b.data : "", b.len, content_secret(out));
    apply_disk(in, path, &b, mode);
    free(r->id);
    r->id = mp_xstrdup(path);
    mp_value_free(r->outputs);
    r->outputs = out;
    mp_value_free(r->inputs);
    r->inputs = in;
  }
  mp_buf_destroy(&b);
  return rc < 0 ? rc : 0; /* 1: gone, reported as no id */
}

static void l_free(mp_provider *p) {
  mp__prov_base *b = (mp__prov_base *)p;
  if (b == NULL)
    return;
  mp__prov_base_destroy(b);
  free(b);
}

static const mp_provider_vtable local_vt = {
    .configure = mp__prov_configure_plain,
    .check = l_check,
    .diff = l_diff,
    .create = l_create,
    .read = l_read,
    .update = l_update,
    .del = l_delete,
    .get_plugin_info = mp__prov_plugin_info,
    .free = l_free,
};

int mp__prov_local_new(const char *pkg, const char *version, mp_provider **out,
                       mp_err *err) {
  mp__prov_base *b = mp_xcalloc(1, sizeof(*b));
  (void)err;
  mp__prov_base_init(b, &local_vt, pkg, version);
  *out = &b->hdr;
  return 0;
}
