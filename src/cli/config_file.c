#include "cli/config_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/ynode.h"

/* Gives the objects and lists under `config` their YAML types: a top-level
 * value is text (Pulumi's rule), but `enabled: true` below a key is a
 * bool, as `config set --path` wrote it. */
static void type_nested_config(const mp_ynode *root, mp_value *doc) {
  mp_value *cfg = mp_value_object_get(doc, "config");
  const mp_ynode *cn = NULL;
  for (size_t i = 0; root->kind == MP_YNODE_MAP && i < root->n; i++)
    if (!strcmp(root->keys[i]->text, "config")) cn = root->vals[i];
  if (cfg == NULL || cn == NULL || cn->kind != MP_YNODE_MAP) return;
  for (size_t i = 0; i < cn->n; i++) {
    const mp_ynode *v = cn->vals[i];
    if (v->kind == MP_YNODE_MAP || v->kind == MP_YNODE_SEQ)
      mp_value_object_set(cfg, cn->keys[i]->text,
                          mp_ynode_value(v, MP_YNODE_TYPED));
  }
}

/* Reads |path| into a document whose scalars are strings (plain null
 * scalars stay null), so that every value keeps its spelling, but for
 * the typed values below a config key. A missing file is an empty
 * document. */
static int read_doc(const char *path, mp_value **out, mp_err *err) {
  mp_ynode *n = NULL;
  *out = NULL;
  int rc = path ? mp_ynode_load(path, path, &n, err) : MP_ENOENT;
  if (rc == MP_ENOENT) { /* NULL: no project folder, so no file */
    *out = mp_value_new_object();
    return 0;
  }
  if (rc < 0) return rc;
  mp_value *doc = mp_ynode_value(n, 0);
  if (doc->kind == MP_VALUE_OBJECT) type_nested_config(n, doc);
  mp_ynode_free(n);
  if (doc->kind != MP_VALUE_OBJECT) {
    mp_value_free(doc);
    return mp_err_set(err, MP_EINVAL,
                      "cannot parse '%s': the document is not a mapping", path);
  }
  *out = doc;
  return 0;
}

/* ==== the stack file ==== */

int mp_stack_config_load(const char *path, mp_stack_config *c, mp_err *err) {
  memset(c, 0, sizeof(*c));
  c->lock_fd = -1;
  mp_value *doc = NULL;
  int rc = read_doc(path, &doc, err);
  if (rc) return rc;
  const mp_value *cfg = mp_value_object_get(doc, "config");
  if (cfg && cfg->kind == MP_VALUE_NULL) {
    mp_value_object_del(doc, "config");
  } else if (cfg && cfg->kind != MP_VALUE_OBJECT) {
    mp_value_free(doc);
    return mp_err_set(err, MP_EINVAL,
                      "cannot use '%s': `config` must be a mapping of keys to "
                      "values",
                      path);
  }
  c->path = path ? mp_xstrdup(path) : NULL;
  c->doc = doc;
  return 0;
}

/* Locks |path| (creating it empty if missing; *created says so). A writer
 * replaces the file by a rename, so a lock taken on the inode it replaced
 * is worthless: after the lock is granted the path must still name the
 * locked inode, else the new file is locked instead. */
static int lock_path(const char *path, int *fd_out, int *created,
                     mp_err *err) {
  for (;;) {
    int fd = open(path, O_RDWR | O_CLOEXEC);
    *created = 0;
    if (fd < 0 && errno == ENOENT) {
      fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      *created = fd >= 0;
      if (fd < 0 && errno == EEXIST) continue;
    }
    if (fd < 0)
      return mp_err_set(err, MP_EIO, "cannot open '%s' for writing: %s", path,
                        strerror(errno));
    int rc;
    while ((rc = flock(fd, LOCK_EX)) < 0 && errno == EINTR) {
    }
    struct stat held, now;
    if (rc < 0) {
      int e = errno;
      close(fd);
      return mp_err_set(err, MP_EIO, "cannot lock '%s': %s", path,
                        strerror(e));
    }
    if (fstat(fd, &held) == 0 && stat(path, &now) == 0 &&
        held.st_ino == now.st_ino && held.st_dev == now.st_dev) {
      *fd_out = fd;
      return 0;
    }
    close(fd); /* replaced (or removed) while we waited */
  }
}

int mp_stack_config_open(const char *path, mp_stack_config *c, mp_err *err) {
  int fd = -1, created = 0;
  memset(c, 0, sizeof(*c));
  c->lock_fd = -1;
  if (!path) /* no project folder: nothing to lock or write */
    return mp_stack_config_load(NULL, c, err);
  int rc = lock_path(path, &fd, &created, err);
  if (rc) return rc;
  if ((rc = mp_stack_config_load(path, c, err))) {
    if (created) unlink(path);
    close(fd);
    return rc;
  }
  c->locked = 1;
  c->lock_fd = fd;
  c->created = created;
  return 0;
}

int mp_stack_config_save(mp_stack_config *c, mp_err *err) {
  if (!c->path)
    return 0; /* no project folder (mp_cli_stack_config_path) */
  mp_buf out;
  mp_buf_init(&out);
  /* Known keys first, as Pulumi writes them; the rest sorted. */
  static const char *const first[] = {"secretsprovider", "encryptedkey",
                                      "encryptionsalt", "config"};
  int rc = mp_ynode_emit(c->doc, first, MP_ARRAY_LEN(first), 0, &out, err);
  if (rc) {
    mp_buf_destroy(&out);
    return rc;
  }
  char *tmp = mp_xasprintf("%s.tmp.%ld", c->path, (long)getpid());
  /* A locked file keeps its lock across the rename: the new inode is
   * locked before it takes the path, or another writer could lock it while
   * this one still writes (a second save would then race with it). */
  int keep = -1;
  FILE *f = fopen(tmp, "wb");
  if (f && c->locked) {
    keep = dup(fileno(f));
    if (keep < 0 || flock(keep, LOCK_EX) != 0) {
      if (keep >= 0) close(keep);
      keep = -1;
      fclose(f);
      unlink(tmp);
      f = NULL;
    }
  }
  if (!f) {
    rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", tmp, strerror(errno));
  } else {
    size_t w = out.len ? fwrite(out.data, 1, out.len, f) : 0;
    /* Every step runs, whatever the one before gave. */
    int bad = w != out.len;
    bad |= fflush(f) != 0;
    bad |= fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, c->path) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", c->path,
                      strerror(errno));
      unlink(tmp);
    }
  }
  if (rc == 0) c->created = 0;
  if (rc == 0 && keep >= 0) {
    close(c->lock_fd);
    c->lock_fd = keep;
  } else if (keep >= 0) {
    close(keep);
  }
  free(tmp);
  mp_buf_destroy(&out);
  return rc;
}

int mp_stack_config_save_salt(mp_stack_config *c, const char *salt,
                              mp_err *err) {
  mp_stack_config_set_salt(c, salt);
  if (c->locked || !c->path) return mp_stack_config_save(c, err);
  mp_stack_config fresh;
  int rc = mp_stack_config_open(c->path, &fresh, err);
  if (rc) return rc;
  if (!mp_stack_config_salt(&fresh)) {
    mp_stack_config_set_salt(&fresh, salt);
    rc = mp_stack_config_save(&fresh, err);
  }
  mp_stack_config_destroy(&fresh);
  return rc;
}

void mp_stack_config_destroy(mp_stack_config *c) {
  if (c->locked) {
    /* A file the lock created and nobody wrote is not left behind. */
    if (c->created) unlink(c->path);
    close(c->lock_fd);
  }
  free(c->path);
  mp_value_free(c->doc);
  memset(c, 0, sizeof(*c));
  c->lock_fd = -1;
}

mp_value *mp_stack_config_values(mp_stack_config *c) {
  mp_value *cfg = mp_value_object_get(c->doc, "config");
  if (!cfg) {
    mp_value_object_set(c->doc, "config", mp_value_new_object());
    cfg = mp_value_object_get(c->doc, "config");
  }
  return cfg;
}

const char *mp_stack_config_salt(const mp_stack_config *c) {
  const mp_value *s = mp_value_object_get(c->doc, "encryptionsalt");
  return s && s->kind == MP_VALUE_STRING ? s->u.str.ptr : NULL;
}

void mp_stack_config_set_salt(mp_stack_config *c, const char *salt) {
  mp_value_object_set(c->doc, "encryptionsalt", mp_value_new_cstring(salt));
}

int mp_config_is_secure(const mp_value *v) {
  if (!v || v->kind != MP_VALUE_OBJECT || v->u.obj.len != 1) return 0;
  const mp_value *s = mp_value_object_get(v, "secure");
  return s && s->kind == MP_VALUE_STRING;
}

const char *mp_config_secure_text(const mp_value *v) {
  return mp_value_object_get(v, "secure")->u.str.ptr;
}
