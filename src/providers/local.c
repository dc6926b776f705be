/* The built-in `local` provider: `local:index:File`, a file on this
 * machine. Inputs `path`, `content`, optional `mode` (an octal string such
 * as "0644"); outputs add `sha256` (hex of the content). Writes are atomic
 * (a temporary file in the same directory, then rename). The id is the
 * path; Read reports the file as it is on disk, so refresh sees drift and
 * import works from the path alone. */
#include "providers/providers_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"

#define TOKEN "local:index:File"
#define MAX_FILE_BYTES ((size_t)1 << 30)

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
  f = mp__prov_str(q->news, "mode", &mode, r);
  if (f == MP_PROV_FIELD_OK && parse_mode(mode, &m) < 0)
    mp_prov_resp_add_failure(r, "mode",
                             "expected an octal permission string such as "
                             "\"0644\"");
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  return 0;
}

static int l_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  static const char *const skip[] = {"sha256", NULL};
  const mp_value *olds = q->old_inputs ? q->old_inputs : q->olds;
  size_t i;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (mp__prov_changed_keys(olds, q->news, skip, &r->diffs) == 0) {
    r->changes = MP_DIFF_CHANGES_NONE;
    return 0;
  }
  r->changes = MP_DIFF_CHANGES_SOME;
  for (i = 0; i < r->diffs.len; i++)
    if (strcmp(r->diffs.items[i], "path") == 0)
      mp_strv_push(&r->replaces, "path");
  return 0;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Creates the directories above |path| that do not exist yet, as a user
 * writing a file into a new folder expects. Errors surface at the write. */
static void make_parents(const char *path) {
  char *dir = mp_xstrdup(path);
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(dir, 0755);
    *p = '/';
  }
  free(dir);
}

/* Writes |content| to |path| through a temporary file in the same
 * directory and rename, so readers see the old or the new file whole. */
static int write_atomic(const char *path, const char *content, size_t len,
                        mode_t mode, mp_err *err) {
  char *tmp;
  int fd, saved;
  tmp = mp__prov_tmp_beside(path);
  make_parents(path);
  fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    saved = errno;
    free(tmp);
    return mp_err_set(err, MP_EPLUGIN,
                      "cannot write '%s': %s; check that its directory "
                      "exists and is writable",
                      path, strerror(saved));
  }
  if (write_all(fd, content, len) < 0 || fchmod(fd, mode) < 0 ||
      close(fd) < 0 || rename(tmp, path) < 0) {
    saved = errno;
    unlink(tmp);
    free(tmp);
    return mp_err_set(err, MP_EPLUGIN, "cannot write '%s': %s", path,
                      strerror(saved));
  }
  free(tmp);
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

/* Create and Update: write the file (unless previewing) and build the
 * outputs: the inputs plus sha256. */
static int write_file(const mp_prov_req *q, mp_prov_resp *r, mp_err *err) {
  const char *path = mp__prov_get_str(q->news, "path");
  const char *modes = mp__prov_get_str(q->news, "mode");
  const mp_value *content = mp__prov_get(q->news, "content");
  const char *data = "";
  size_t len = 0;
  mode_t mode = 0644;
  mp_value *out;
  int rc;
  if (content != NULL && content->kind == MP_VALUE_STRING)
    data = content->u.str.ptr, len = content->u.str.len;
  out = mp__prov_obj_dup(q->news);
  if (mp__prov_is_unknown(q->news, "content"))
    mp_value_object_set(out, "sha256", mp_value_new_unknown());
  else
    set_sha(out, data, len, content_secret(q->news));
  if (!q->preview) {
    if (path == NULL || *path == '\0' ||
        (modes != NULL && parse_mode(modes, &mode) < 0)) {
      mp_value_free(out);
      return mp_err_set(err, MP_EINVAL,
                        "cannot write a file: 'path' must be a non-empty "
                        "string and 'mode' an octal string");
    }
    if ((rc = write_atomic(path, data, len, mode, err)) < 0) {
      mp_value_free(out);
      return rc;
    }
    free(r->id);
    r->id = mp_xstrdup(path);
  }
  mp_value_free(r->outputs);
  r->outputs = out;
  return 0;
}

static int l_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  return write_file(q, r, err);
}

static int remove_file(const char *path, mp_err *err) {
  if (path == NULL || unlink(path) == 0 || errno == ENOENT)
    return 0;
  return mp_err_set(err, MP_EPLUGIN, "cannot delete '%s': %s", path,
                    strerror(errno));
}

static int l_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *old_path = mp__prov_get_str(q->olds, "path");
  const char *new_path = mp__prov_get_str(q->news, "path");
  int rc;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if ((rc = write_file(q, r, err)) < 0 || q->preview)
    return rc;
  /* Diff replaces on a path change; should an update move the file
   * anyway, the old one must not linger. */
  if (old_path != NULL && new_path != NULL && strcmp(old_path, new_path))
    return remove_file(old_path, err);
  return 0;
}

static int l_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *path = mp__prov_get_str(q->olds, "path");
  (void)p;
  (void)r;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  return remove_file(path ? path : q->id, err);
}

/* Reads |path| whole. Returns 0, 1 when it does not exist, or an error. */
static int slurp(const char *path, mp_buf *b, mode_t *mode, mp_err *err) {
  char chunk[65536];
  struct stat st;
  ssize_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return 1;
  if (fd < 0 || fstat(fd, &st) < 0) {
    int saved = errno;
    if (fd >= 0)
      close(fd);
    return mp_err_set(err, MP_EPLUGIN, "cannot read '%s': %s", path,
                      strerror(saved));
  }
  *mode = st.st_mode & 07777;
  while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || b->len + (size_t)n > MAX_FILE_BYTES) {
      close(fd);
      return mp_err_set(err, MP_EPLUGIN, "cannot read '%s': %s", path,
                        n < 0 ? strerror(errno) : "larger than 1 GiB");
    }
    mp_buf_append(b, chunk, (size_t)n);
  }
  close(fd);
  return 0;
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
  rc = slurp(path, &b, &mode, err);
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
