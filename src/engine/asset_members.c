/* The bytes of an asset and the members of an archive, in the order and
 * with the names Pulumi's archive readers give them (archive.go:
 * assetsArchiveReader, directoryArchiveReader, the tar and ZIP readers),
 * for the tar the hash is taken of (asset_tar.c). */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/asset_int.h"

/* ---- blobs ---- */

void mp__blob_init(mp__blob *b) {
  memset(b, 0, sizeof(*b));
  b->fd = -1;
  mp_buf_init(&b->owned);
}

long mp__blob_read(mp__blob *b, void *buf, size_t n, mp_err *err) {
  if (b->fd >= 0) {
    for (;;) {
      ssize_t got = read(b->fd, buf, n);
      if (got >= 0) return (long)got;
      if (errno != EINTR)
        return mp_err_set(err, MP_EIO, "cannot read: %s", strerror(errno));
    }
  }
  if (b->ar) {
    la_ssize_t got = archive_read_data(b->ar, buf, n);
    if (got < 0)
      return mp_err_set(err, MP_EIO, "cannot read the archive: %s",
                        archive_error_string(b->ar));
    return (long)got;
  }
  size_t left = b->size - b->off;
  if (n > left) n = left;
  if (n) memcpy(buf, b->mem + b->off, n);
  b->off += n;
  return (long)n;
}

void mp__blob_close(mp__blob *b) {
  if (b->fd >= 0) close(b->fd);
  b->fd = -1;
  mp_buf_destroy(&b->owned);
}

/* ---- names ---- */

char *mp__path_clean(const char *p) {
  size_t n = strlen(p);
  if (n == 0) return mp_xstrdup(".");
  int rooted = p[0] == '/';
  char *out = mp_xmalloc(n + 2);
  size_t w = 0, r = 0, dotdot = 0;
  if (rooted) {
    out[w++] = '/';
    r = dotdot = 1;
  }
  while (r < n) {
    if (p[r] == '/') {
      r++;
    } else if (p[r] == '.' && (r + 1 == n || p[r + 1] == '/')) {
      r++;
    } else if (p[r] == '.' && p[r + 1] == '.' && (r + 2 == n || p[r + 2] == '/')) {
      r += 2;
      if (w > dotdot) {
        w--;
        while (w > dotdot && out[w] != '/') w--;
      } else if (!rooted) {
        if (w > 0) out[w++] = '/';
        out[w++] = '.';
        out[w++] = '.';
        dotdot = w;
      }
    } else {
      if ((rooted && w != 1) || (!rooted && w != 0)) out[w++] = '/';
      for (; r < n && p[r] != '/'; r++) out[w++] = p[r];
    }
  }
  if (w == 0) out[w++] = '.';
  out[w] = '\0';
  return out;
}

char *mp__path_join(const char *a, const char *b) {
  if (*a == '\0' && *b == '\0') return mp_xstrdup("");
  if (*a == '\0') return mp__path_clean(b);
  if (*b == '\0') return mp__path_clean(a);
  char *both = mp_xasprintf("%s/%s", a, b);
  char *out = mp__path_clean(both);
  free(both);
  return out;
}

static int ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), m = strlen(tail);
  return n >= m && memcmp(s + n - m, tail, m) == 0;
}

enum mp__archive_format mp__archive_format(const char *name) {
  if (ends_with(name, ".tar")) return MP__TAR;
  if (ends_with(name, ".tgz") || ends_with(name, ".tar.gz")) return MP__TGZ;
  if (ends_with(name, ".zip") || ends_with(name, ".jar")) return MP__ZIP;
  return MP__NOT_ARCHIVE;
}

int mp__uri_split(const char *uri, char **scheme, char **path, int *local,
                  mp_err *err) {
  const char *sep = strstr(uri, "://");
  if (sep == NULL || sep == uri)
    return mp_err_set(err, MP_EINVAL, "'%s' is not a URI (<scheme>://...)",
                      uri);
  *scheme = mp_xstrndup(uri, (size_t)(sep - uri));
  for (char *c = *scheme; *c; c++)
    if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
  const char *host = sep + 3;
  size_t hlen = strcspn(host, "/?#");
  *local = hlen == 0 || (hlen == 9 && strncmp(host, "localhost", 9) == 0);
  const char *p = host + hlen;
  *path = mp_xstrndup(p, *p == '/' ? strcspn(p, "?#") : 0);
  return 0;
}

/* ---- assets ---- */

#define EMPTY_HASH "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

static int set(const char *s) { return s && *s; }

/* The file |path| names, relative to |o->wd|, owned. */
static char *resolve(const char *path, const mp_asset_hash_opts *o) {
  if (path[0] == '/' || o == NULL || o->wd == NULL) return mp_xstrdup(path);
  return mp__path_join(o->wd, path);
}

static int open_file(const char *path, mp__blob *b, const char *what,
                     mp_err *err) {
  b->fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (b->fd < 0)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "failed to open %s '%s': %s", what, path,
                      strerror(errno));
  if (fstat(b->fd, &st) != 0)
    return mp_err_set(err, MP_EIO, "failed to stat %s '%s': %s", what, path,
                      strerror(errno));
  if (S_ISDIR(st.st_mode))
    return mp_err_set(err, MP_EINVAL,
                      "asset path '%s' is a directory; try using an archive",
                      path);
  b->size = (uint64_t)st.st_size;
  return 0;
}

/* The bytes at |uri|: a download (http, https) or a file (file://). */
static int open_uri(const char *uri, const mp_asset_hash_opts *o, int archive,
                    mp__blob *b, mp_err *err) {
  char *scheme = NULL, *path = NULL;
  int local = 0, rc = mp__uri_split(uri, &scheme, &path, &local, err);
  if (rc < 0) return rc;
  if (strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0) {
    if (o == NULL || o->fetch == NULL)
      rc = mp_err_set(err, MP_EINVAL, "cannot fetch '%s': no downloads here",
                      uri);
    else
      rc = o->fetch(o->fetch_ud, uri, &b->owned, err);
    if (rc == 0) {
      b->mem = (const unsigned char *)b->owned.data;
      b->size = b->owned.len;
    }
  } else if (strcmp(scheme, "file") == 0) {
    if (!local)
      rc = mp_err_set(err, MP_EINVAL,
                      "file:// host of '%s' not supported (only localhost)",
                      uri);
    else
      rc = open_file(path, b, archive ? "archive file" : "asset file", err);
  } else {
    rc = mp_err_set(err, MP_EINVAL,
                    "Unrecognized or unsupported URI scheme: %s", scheme);
  }
  free(scheme);
  free(path);
  return rc;
}

int mp__asset_open(const mp_value *a, const mp_asset_hash_opts *o,
                   mp__blob *b, mp_err *err) {
  const char *text = a->u.asset.text, *hash = a->u.asset.hash;
  if (set(a->u.asset.path)) {
    char *path = resolve(a->u.asset.path, o);
    int rc = open_file(path, b, "asset file", err);
    free(path);
    return rc;
  }
  if (set(a->u.asset.uri)) return open_uri(a->u.asset.uri, o, 0, b, err);
  /* Pulumi's IsText: text, or an empty text (no hash, or the empty
   * text's); a hash alone stands for contents not known. */
  if (set(text) || !set(hash) || strcmp(hash, EMPTY_HASH) == 0) {
    b->mem = (const unsigned char *)(text ? text : "");
    b->size = text ? strlen(text) : 0;
    return 0;
  }
  return mp_err_set(err, MP_EINVAL, "unrecognized asset type");
}

/* ---- archives ---- */

typedef struct walk {
  const mp_asset_hash_opts *o;
  mp__member_fn fn;
  void *ud;
} walk;

/* The member name under |root| (NULL: none, the name as it is). */
static char *under(const char *root, const char *name) {
  return root ? mp__path_join(root, name) : mp_xstrdup(name);
}

static int one(walk *w, const char *name, mp__blob *b, mp_err *err) {
  int rc = w->fn(w->ud, name, b, err);
  mp__blob_close(b);
  return rc;
}

static int byte_order(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

/* filepath.Walk's order: names sorted by bytes, a folder's contents right
 * after it; folders named .pulumi are left out, and so are links to
 * folders (not followed) and folders themselves. */
static int walk_dir(walk *w, const char *root, const char *dir,
                    const char *rel, mp_err *err) {
  struct dirent **names = NULL;
  int n = scandir(dir, &names, NULL, byte_order);
  if (n < 0)
    return mp_err_set(err, MP_EIO, "cannot read folder '%s': %s", dir,
                      strerror(errno));
  int rc = 0;
  for (int i = 0; i < n; i++) {
    const char *name = names[i]->d_name;
    if (rc < 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
        strcmp(name, ".pulumi") == 0)
      continue;
    char *path = mp_xasprintf("%s/%s", dir, name);
    char *sub = *rel ? mp_xasprintf("%s/%s", rel, name) : mp_xstrdup(name);
    struct stat st;
    if (lstat(path, &st) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                      strerror(errno));
    } else if (S_ISDIR(st.st_mode)) {
      rc = walk_dir(w, root, path, sub, err);
    } else if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                      strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
      mp__blob b;
      mp__blob_init(&b);
      char *full = under(root, sub);
      rc = open_file(path, &b, "asset file", err);
      rc = rc < 0 ? (mp__blob_close(&b), rc) : one(w, full, &b, err);
      free(full);
    }
    free(sub);
    free(path);
  }
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

static int read_entries(walk *w, const char *root, struct archive *ar,
                        const char *what, mp_err *err) {
  struct archive_entry *e;
  int r;
  while ((r = archive_read_next_header(ar, &e)) == ARCHIVE_OK ||
         r == ARCHIVE_WARN) {
    mode_t type = archive_entry_filetype(e);
    if (type == AE_IFDIR) continue;
    const char *name = archive_entry_pathname(e);
    if (type != AE_IFREG || archive_entry_hardlink(e) != NULL || name == NULL)
      return mp_err_set(err, MP_EINVAL,
                        "%s: member '%s' is neither a file nor a folder", what,
                        name ? name : "");
    char *clean = mp__path_clean(name);
    char *full = under(root, clean);
    mp__blob b;
    mp__blob_init(&b);
    b.ar = ar;
    b.size = (uint64_t)archive_entry_size(e);
    int rc = one(w, full, &b, err);
    free(full);
    free(clean);
    if (rc < 0) return rc;
  }
  if (r != ARCHIVE_EOF)
    return mp_err_set(err, MP_EINVAL, "cannot read %s: %s", what,
                      archive_error_string(ar));
  return 0;
}

/* The members of an archive file's bytes, read as |fmt| says. */
static int read_archive(walk *w, const char *root, enum mp__archive_format fmt,
                        mp__blob *src, const char *what, mp_err *err) {
  struct archive *ar = archive_read_new();
  if (fmt == MP__ZIP) {
    archive_read_support_format_zip(ar);
  } else {
    archive_read_support_format_tar(ar);
    archive_read_support_format_gnutar(ar);
    if (fmt == MP__TGZ) archive_read_support_filter_gzip(ar);
  }
  int r = src->fd >= 0 ? archive_read_open_fd(ar, src->fd, 65536)
                       : archive_read_open_memory(ar, src->mem, src->size);
  int rc = r == ARCHIVE_OK
               ? read_entries(w, root, ar, what, err)
               : mp_err_set(err, MP_EINVAL, "cannot read %s: %s", what,
                            archive_error_string(ar));
  archive_read_free(ar);
  return rc;
}

static int members(walk *w, const mp_value *arc, const char *root,
                   mp_err *err);

static int assets_members(walk *w, const mp_value *assets, const char *root,
                          mp_err *err) {
  if (assets == NULL || assets->kind != MP_VALUE_OBJECT) return 0;
  for (size_t i = 0; i < assets->u.obj.len; i++) {
    const char *key = assets->u.obj.items[i].key;
    const mp_value *v = assets->u.obj.items[i].value;
    char *name = under(root, key);
    int rc;
    if (v->kind == MP_VALUE_ASSET) {
      mp__blob b;
      mp__blob_init(&b);
      rc = mp__asset_open(v, w->o, &b, err);
      if (rc < 0) {
        mp__blob_close(&b);
        mp_err_prefix(err, "failed to expand archive asset '%s'", key);
      } else {
        rc = one(w, name, &b, err);
      }
    } else if (v->kind == MP_VALUE_ARCHIVE) {
      /* A member archive's members go under its key, by path.Join. */
      rc = members(w, v, name, err);
    } else {
      rc = mp_err_set(err, MP_EINVAL,
                      "archive member '%s' is not an asset or archive", key);
    }
    free(name);
    if (rc < 0) return rc;
  }
  return 0;
}

static int path_members(walk *w, const char *path, const char *root,
                        mp_err *err) {
  char *full = resolve(path, w->o);
  enum mp__archive_format fmt = mp__archive_format(full);
  int rc = 0;
  struct stat st;
  if (fmt != MP__NOT_ARCHIVE) {
    mp__blob b;
    mp__blob_init(&b);
    rc = open_file(full, &b, "archive file", err);
    if (rc == 0) rc = read_archive(w, root, fmt, &b, full, err);
    mp__blob_close(&b);
  } else if (stat(full, &st) != 0) {
    rc = mp_err_set(err, MP_ENOENT, "couldn't read archive path '%s': %s",
                    full, strerror(errno));
  } else if (!S_ISDIR(st.st_mode)) {
    rc = mp_err_set(err, MP_EINVAL,
                    "'%s' is neither a recognized archive type nor a "
                    "directory",
                    full);
  } else {
    /* Walk starts from the folder itself, not followed when it is a link
     * (nothing is then found), and left out when named .pulumi. */
    const char *base = strrchr(full, '/');
    base = base ? base + 1 : full;
    if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode) &&
        strcmp(base, ".pulumi") != 0)
      rc = walk_dir(w, root, full, "", err);
  }
  free(full);
  return rc;
}

static int uri_members(walk *w, const char *uri, const char *root,
                       mp_err *err) {
  char *scheme = NULL, *path = NULL;
  int local = 0, rc = mp__uri_split(uri, &scheme, &path, &local, err);
  if (rc < 0) return rc;
  enum mp__archive_format fmt = mp__archive_format(path);
  free(scheme);
  free(path);
  if (fmt == MP__NOT_ARCHIVE)
    return mp_err_set(err, MP_EINVAL,
                      "file at URL '%s' is not a recognized archive format",
                      uri);
  mp__blob b;
  mp__blob_init(&b);
  rc = open_uri(uri, w->o, 1, &b, err);
  if (rc == 0) rc = read_archive(w, root, fmt, &b, uri, err);
  mp__blob_close(&b);
  return rc;
}

static int members(walk *w, const mp_value *arc, const char *root,
                   mp_err *err) {
  if (set(arc->u.archive.path))
    return path_members(w, arc->u.archive.path, root, err);
  if (set(arc->u.archive.uri))
    return uri_members(w, arc->u.archive.uri, root, err);
  const mp_value *assets = arc->u.archive.assets;
  int has = assets && assets->kind == MP_VALUE_OBJECT && assets->u.obj.len;
  const char *hash = arc->u.archive.hash;
  /* Pulumi's IsAssets: members, or none with no hash or the empty tar's;
   * a hash alone stands for contents not known. */
  if (!has && set(hash) &&
      strcmp(hash,
             "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "cannot read an archive that has no contents");
  return assets_members(w, assets, root, err);
}

int mp__archive_members(const mp_value *arc, const mp_asset_hash_opts *o,
                        mp__member_fn fn, void *ud, mp_err *err) {
  walk w = {o, fn, ud};
  return members(&w, arc, NULL, err);
}
