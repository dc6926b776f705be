/* Opening a DIY folder (`file://PATH`, `file://~`): where it lives, which
 * layout it has (.pulumi/meta.yaml, as Pulumi's meta.go reads and writes
 * it), the paths of a stack's files, and the operations table. */
#include "state/diy_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>



/* ==== paths ==== */

char *mp__diy_stack_path(const mp_diy *s, mp_stack_ref st) {
  if (s->legacy)
    return mp_xasprintf("%s/.pulumi/stacks/%s.json", s->root, st.name);
  return mp_xasprintf("%s/.pulumi/stacks/%s/%s.json", s->root, st.project,
                      st.name);
}

char *mp__diy_lock_dir(const mp_diy *s, mp_stack_ref st) {
  if (s->legacy)
    return mp_xasprintf("%s/.pulumi/locks/%s", s->root, st.name);
  return mp_xasprintf("%s/.pulumi/locks/organization/%s/%s", s->root,
                      st.project, st.name);
}

char *mp__diy_stack_dir(const mp_diy *s, const char *what, mp_stack_ref st) {
  if (s->legacy)
    return mp_xasprintf("%s/.pulumi/%s/%s", s->root, what, st.name);
  return mp_xasprintf("%s/.pulumi/%s/%s/%s", s->root, what, st.project,
                      st.name);
}

char *mp__diy_qualified(const mp_diy *s, mp_stack_ref st) {
  if (s->legacy)
    return mp_xstrdup(st.name);
  return mp_xasprintf("organization/%s/%s", st.project, st.name);
}

/* ==== the URL ==== */

static char *home_dir(const char *h) {
  if (h && *h)
    return mp_xstrdup(h);
  struct passwd *pw = getpwuid(getuid());
  return pw && pw->pw_dir ? mp_xstrdup(pw->pw_dir) : NULL;
}

/* The folder of `file://PATH`: `~` is the home folder, a relative path is
 * taken from the current folder, and a query (Pulumi's options) is
 * ignored. */
static int url_to_root(const char *url, const char *home_opt, char **root,
                       mp_err *err) {
  *root = NULL;
  char *p = mp_xstrndup(url + 7, strcspn(url + 7, "?"));
  if (*p == '\0') {
    free(p);
    return mp_err_set(err, MP_EINVAL,
                      "the state store URL '%s' names no folder; use "
                      "file://~ or file:///absolute/path",
                      url);
  }
  char *abs = NULL;
  if (p[0] == '~' && (p[1] == '\0' || p[1] == '/')) {
    char *home = home_dir(home_opt);
    if (home == NULL) {
      free(p);
      return mp_err_set(err, MP_EINVAL,
                        "cannot find the home folder for '%s'; set HOME", url);
    }
    abs = mp_xasprintf("%s%s", home, p + 1);
    free(home);
  } else if (p[0] != '/') {
    char cwd[4096];
    abs = getcwd(cwd, sizeof(cwd)) ? mp_xasprintf("%s/%s", cwd, p)
                                   : mp_xstrdup(p);
  } else {
    abs = mp_xstrdup(p);
  }
  free(p);
  size_t n = strlen(abs);
  while (n > 1 && abs[n - 1] == '/')
    abs[--n] = '\0';
  *root = abs;
  return 0;
}

/* ==== meta.yaml ==== */

/* 1 if .pulumi/stacks holds checkpoints of the legacy layout. */
static int has_legacy_stacks(mp_diy *s) {
  char *dir = mp_xasprintf("%s/.pulumi/stacks", s->root);
  mp_strv names;
  mp_strv_init(&names);
  mp_err ignored;
  (void)mp__diy_list(s, dir, &names, &ignored);
  int found = 0;
  for (size_t i = 0; i < names.len && !found; i++) {
    const char *n = names.items[i];
    size_t len = strlen(n);
    found = (len > 5 && strcmp(n + len - 5, ".json") == 0) ||
            (len > 8 && strcmp(n + len - 8, ".json.gz") == 0);
  }
  mp_strv_destroy(&names);
  free(dir);
  return found;
}

/* The version in meta.yaml's text (`version: N`), or -1. */
static int meta_version(const char *text) {
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
    while (*p == ' ')
      p++;
    if (strncmp(p, "version:", 8) == 0) {
      char *end;
      long v = strtol(p + 8, &end, 10);
      return end == p + 8 ? -1 : (int)v;
    }
  }
  return -1;
}

static int ensure_meta(mp_diy *s, mp_err *err) {
  char *path = mp_xasprintf("%s/.pulumi/meta.yaml", s->root);
  char *text = NULL;
  size_t len;
  mp_err e2;
  int rc = mp__diy_read(s, path, &text, &len, &e2);
  if (rc == 0) {
    int v = meta_version(text);
    if (v < 0)
      rc = mp_err_set(err, MP_ESTATE, "corrupt store: missing version in '%s'",
                      path);
    else if (v > 1)
      rc = mp_err_set(err, MP_ESTATE,
                      "'%s' has version %d; this minipulumi knows the DIY "
                      "layouts 0 and 1; upgrade minipulumi",
                      path, v);
    else
      s->legacy = v == 0;
  } else if (rc == MP_ENOENT) {
    rc = 0;
    s->legacy = has_legacy_stacks(s) ||
                s->legacy_wanted;
    /* Pulumi writes no meta.yaml for the legacy layout */
    if (!s->legacy &&
        (s->objs != mp__diy_objs_dir() || access(s->root, W_OK) == 0)) {
      static const char body[] = "version: 1\n";
      rc = mp__diy_mkdirs_for(s, path, err);
      if (rc == 0)
        rc = mp__diy_write(s, path, body, sizeof(body) - 1, 0, 0, err);
    }
  } else {
    *err = e2;
  }
  free(text);
  free(path);
  return rc;
}

/* ==== open / close ==== */

static void diy_close(mp_store *base) {
  mp_diy *s = mp__diy(base);
  while (s->updates) {
    mp_err ignored;
    mp__diy_update_end(&s->updates->base, "failed", NULL, &ignored);
  }
  while (s->stacks) {
    diy_stack *m = s->stacks;
    s->stacks = m->next;
    mp__diy_model_free(m);
  }
  free(s->base.location);
  free(s->root);
  if (s->objs)
    s->objs->ops->free(s->objs);
  free(s);
}

static int diy_writable(const mp_store *base, mp_err *err) {
  const mp_diy *s = (const mp_diy *)base;
  if (s->objs != mp__diy_objs_dir())
    return s->objs->ops->writable(s->objs, err);
  if (access(s->root, W_OK) != 0)
    return mp_err_set(err, MP_EIO,
                      "the state folder '%s' is read-only; nothing can be "
                      "written to it",
                      s->root);
  return 0;
}

static const mp_store_ops diy_ops = {
    .name = "diy",
    .close = diy_close,
    .stack_create = mp__diy_stack_create,
    .stack_exists = mp__diy_stack_exists,
    .stack_list = mp__diy_stack_list,
    .stack_remove = mp__diy_stack_remove,
    .stack_rename = mp__diy_stack_rename,
    .selected_get = mp__diy_selected_get,
    .selected_set = mp__diy_selected_set,
    .secrets_get = mp__diy_secrets_get,
    .secrets_set = mp__diy_secrets_set,
    .load = mp__diy_load,
    .replace = mp__diy_replace,
    .update_begin = mp__diy_update_begin,
    .apply = mp__diy_apply,
    .apply_begin = mp__diy_apply_begin,
    .wait = mp__diy_wait,
    .drop_old_pending = mp__diy_drop_old_pending,
    .update_end = mp__diy_update_end,
    .lock_get = mp__diy_lock_get,
    .lock_break = mp__diy_lock_break,
    .history = mp__diy_history,
    .update_events = mp__diy_update_events,
    .events = mp__diy_events,
    .writable = diy_writable,
    .tags_get = mp__diy_tags_get,
    .tags_set = mp__diy_tags_set,
};

/* A random UUID (version 4), as Pulumi names its lock files. */
static void new_uuid(char out[40]) {
  unsigned char b[16] = {0};
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || read(fd, b, sizeof(b)) != (ssize_t)sizeof(b)) {
    uint64_t x = (uint64_t)mp__diy_now_ns() ^ ((uint64_t)getpid() << 32);
    for (size_t i = 0; i < sizeof(b); i++, x = x * 6364136223846793005u + 1)
      b[i] = (unsigned char)(x >> 56);
  }
  if (fd >= 0)
    close(fd);
  b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
  b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
  snprintf(out, 40,
           "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x"
           "%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
           b[11], b[12], b[13], b[14], b[15]);
}

int mp__diy_open(const char *url, const mp_store_opts *o, mp_store **out,
                 mp_err *err) {
  *out = NULL;
  char *root;
  mp_diy_objs *objs = mp__diy_objs_dir();
  if (strncasecmp(url, "s3://", 5) == 0) {
    if (mp__diy_objs_s3(url, o->home, &objs, &root, err) < 0)
      return err->code;
  } else if (strncasecmp(url, "azblob://", 9) == 0) {
    if (mp__diy_objs_az(url, &objs, &root, err) < 0)
      return err->code;
  } else if (url_to_root(url, o->home, &root, err) < 0) {
    return err->code;
  }
  mp_diy *s = mp_xcalloc(1, sizeof(*s));
  s->objs = objs;
  s->base.ops = &diy_ops;
  s->base.location = mp_xstrdup(url);
  s->base.verify_writes = o->verify_writes;
  s->root = root;
  s->gzip = o->diy_gzip;
  s->legacy_wanted = o->diy_legacy_layout;
  s->no_backups = o->diy_no_backups;
  s->pid = (int64_t)getpid();
  if (gethostname(s->host, sizeof(s->host) - 1) != 0)
    snprintf(s->host, sizeof(s->host), "localhost");
  struct passwd *pw = getpwuid(getuid());
  snprintf(s->user, sizeof(s->user), "%s",
           pw && pw->pw_name ? pw->pw_name : "unknown");
  new_uuid(s->lock_id);
  int rc = mp__diy_mkdirs(s, root, err);
  if (rc == 0)
    rc = ensure_meta(s, err);
  if (rc < 0) {
    mp_err_prefix(err, "cannot open the state %s '%s'",
                  objs == mp__diy_objs_dir() ? "folder" : "bucket",
                  url);
    diy_close(&s->base);
    return rc;
  }
  *out = &s->base;
  return 0;
}
