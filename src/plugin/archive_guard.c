/* Judging a plugin archive's entries (plugin/archive_guard.h). A symbolic
 * link is resolved as the file system will resolve it: through the links
 * the archive made before it, so that `x/y -> ..` then `c -> x/y/..` is
 * seen to climb out of the folder. */
#include "plugin/archive_guard.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/mem.h"

/* More expansions than this while resolving one path: a loop (Linux's own
 * limit is 40). */
#define MAX_HOPS 40

void mp_archive_guard_init(mp_archive_guard *g) { mp_map_init(&g->links); }

void mp_archive_guard_destroy(mp_archive_guard *g) {
  for (size_t i = 0; i < g->links.cap; i++)
    if (g->links.slots[i].key)
      free(g->links.slots[i].value);
  mp_map_destroy(&g->links);
}

/* |path| without "." parts, empty parts and the `..`s it takes back (""
 * for the folder itself), owned in |*out|; -1 when a `..` climbs above
 * the folder. Lexical: entries never go through links (they are refused
 * below, as libarchive's SECURE_SYMLINKS refuses them). */
static int normalize(const char *path, char **out) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "");
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (b.len == 0) {
        mp_buf_destroy(&b);
        return -1;
      }
      char *slash = strrchr(b.data, '/');
      b.len = slash ? (size_t)(slash - b.data) : 0;
      b.data[b.len] = '\0';
    } else if (n > 0 && !(n == 1 && p[0] == '.')) {
      mp_buf_printf(&b, "%s%.*s", b.len ? "/" : "", (int)n, p);
    }
    p += n;
    while (*p == '/')
      p++;
  }
  *out = mp_buf_detach(&b, NULL);
  return 0;
}

static const char *link_at(const mp_archive_guard *g, const char *path) {
  return mp_map_get(&g->links, path);
}

/* Whether a folder above |path| is one of the links. */
static int through_link(const mp_archive_guard *g, const char *path) {
  char *p = mp_xstrdup(path);
  int hit = 0;
  for (char *s = strchr(p, '/'); s && !hit; s = strchr(s + 1, '/')) {
    *s = '\0';
    hit = link_at(g, p) != NULL;
    *s = '/';
  }
  free(p);
  return hit;
}

enum { INSIDE = 0, OUTSIDE = -1, LOOP = -2 };

/* Resolves |rel| from the folder |dir| ("" for the plugin's folder)
 * through the links, following the last part too when |follow_last|.
 * INSIDE with the path it reaches in |*out| (owned, may be NULL), OUTSIDE
 * when a `..` or an absolute link leaves the folder, LOOP. */
static int resolve(const mp_archive_guard *g, const char *dir, const char *rel,
                   int follow_last, char **out) {
  if (rel[0] == '/')
    return OUTSIDE;
  char *cur = mp_xstrdup(dir);
  char *remaining = mp_xstrdup(rel);
  size_t pos = 0;
  int hops = 0, rc = INSIDE;
  for (;;) {
    while (remaining[pos] == '/')
      pos++;
    if (remaining[pos] == '\0')
      break;
    size_t n = strcspn(remaining + pos, "/");
    const char *part = remaining + pos;
    pos += n;
    if (n == 1 && part[0] == '.')
      continue;
    if (n == 2 && part[0] == '.' && part[1] == '.') {
      if (*cur == '\0') {
        rc = OUTSIDE;
        break;
      }
      char *slash = strrchr(cur, '/');
      *(slash ? slash : cur) = '\0';
      continue;
    }
    char *next = *cur ? mp_xasprintf("%s/%.*s", cur, (int)n, part)
                       : mp_xstrndup(part, n);
    const char *target = link_at(g, next);
    size_t rest = pos + strspn(remaining + pos, "/");
    int last = remaining[rest] == '\0';
    if (target && (follow_last || !last)) {
      free(next);
      if (++hops > MAX_HOPS || *target == '\0') {
        rc = LOOP;
        break;
      }
      if (target[0] == '/') {
        rc = OUTSIDE;
        break;
      }
      /* The link's target, then what was left, from the link's folder. */
      char *again = mp_xasprintf("%s/%s", target, remaining + pos);
      free(remaining);
      remaining = again;
      pos = 0;
      continue;
    }
    free(cur);
    cur = next;
  }
  free(remaining);
  if (rc == INSIDE && out)
    *out = cur;
  else
    free(cur);
  return rc;
}

/* |path| is no longer a link (a file, a folder or a hard link took it). */
static void forget(mp_archive_guard *g, const char *path) {
  if (link_at(g, path))
    free(mp_map_put(&g->links, path, NULL));
}

/* The folder holding |path| (owned; "" for the top). */
static char *parent_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? mp_xstrndup(path, (size_t)(slash - path)) : mp_xstrdup("");
}

static const char *odd_type(mode_t type) {
  switch (type) {
  case AE_IFREG:
  case AE_IFDIR:
  case AE_IFLNK:
    return NULL;
  case AE_IFCHR:
    return "a character device, which a plugin may not hold";
  case AE_IFBLK:
    return "a block device, which a plugin may not hold";
  case AE_IFIFO:
    return "a FIFO, which a plugin may not hold";
  case AE_IFSOCK:
    return "a socket, which a plugin may not hold";
  default:
    return "an entry of an unknown type, which a plugin may not hold";
  }
}

static const char *check_hard(mp_archive_guard *g, const char *hard) {
  char *at = NULL;
  int rc = resolve(g, "", hard, 0, &at);
  const char *why = NULL;
  if (rc == OUTSIDE)
    why = "a hard link to outside the plugin's folder";
  else if (rc == LOOP)
    why = "a hard link through a loop of symbolic links";
  else if (link_at(g, at))
    why = "a hard link to a symbolic link";
  free(at);
  return why;
}

static const char *check_sym(mp_archive_guard *g, const char *path,
                             const char *target) {
  if (target == NULL || *target == '\0')
    return "a symbolic link without a target";
  if (target[0] == '/')
    return "a symbolic link to outside the plugin's folder";
  /* Remembered first, so that a link through itself is a loop. */
  free(mp_map_put(&g->links, path, mp_xstrdup(target)));
  char *dir = parent_of(path);
  int rc = resolve(g, dir, target, 1, NULL);
  free(dir);
  if (rc == OUTSIDE)
    return "a symbolic link to outside the plugin's folder";
  return rc == LOOP ? "a loop of symbolic links" : NULL;
}

mp_archive_verdict mp_archive_guard_check(mp_archive_guard *g,
                                          struct archive_entry *e,
                                          const char **why) {
  *why = NULL;
  const char *path = archive_entry_pathname(e);
  if (path == NULL || path[0] == '/') {
    *why = "an absolute path, outside the plugin's folder";
    return MP_ARCHIVE_REFUSE;
  }
  char *norm = NULL;
  if (normalize(path, &norm) < 0) {
    *why = "a path that climbs out with '..', outside the plugin's folder";
    return MP_ARCHIVE_REFUSE;
  }
  const char *hard = archive_entry_hardlink(e);
  mode_t type = archive_entry_filetype(e);
  if (hard == NULL)
    *why = odd_type(type);
  if (*why == NULL && *norm == '\0') {
    /* "." or "./": the folder the install made; its mode is not the
     * archive's to set. */
    if (type == AE_IFDIR && hard == NULL) {
      free(norm);
      return MP_ARCHIVE_SKIP;
    }
    *why = "the plugin's folder itself";
  }
  if (*why == NULL && through_link(g, norm))
    *why = "a path through a symbolic link";
  if (*why == NULL && hard)
    *why = check_hard(g, hard);
  else if (*why == NULL && type == AE_IFLNK)
    *why = check_sym(g, norm, archive_entry_symlink(e));
  if (*why == NULL && (hard || type != AE_IFLNK))
    forget(g, norm);
  free(norm);
  if (*why)
    return MP_ARCHIVE_REFUSE;
  /* No setuid, setgid or sticky bit; folders as Pulumi makes them. */
  if (type == AE_IFDIR && hard == NULL)
    archive_entry_set_perm(e, 0700);
  else
    archive_entry_set_perm(e, archive_entry_perm(e) & 0777);
  return MP_ARCHIVE_WRITE;
}

const char *mp_archive_guard_final(const mp_archive_guard *g,
                                   const char **why) {
  for (size_t i = 0; i < g->links.cap; i++) {
    const mp_map_slot *s = &g->links.slots[i];
    if (s->key == NULL || s->value == NULL)
      continue;
    char *dir = parent_of(s->key);
    int rc = resolve(g, dir, s->value, 1, NULL);
    free(dir);
    if (rc != INSIDE) {
      *why = rc == LOOP ? "a loop of symbolic links"
                        : "a symbolic link to outside the plugin's folder";
      return s->key;
    }
  }
  return NULL;
}
