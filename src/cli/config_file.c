#include "cli/config_file.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "engine/text.h"

#define MAX_DEPTH 64

/* ==== reading ==== */

typedef struct reader {
  yaml_parser_t p;
  const char *file;
  const char *text; /* the whole input, for positions of reader errors */
  size_t len;
  mp_err *err;
} reader;

static int parse_error(reader *r) {
  int line = (int)r->p.problem_mark.line + 1;
  int col = (int)r->p.problem_mark.column + 1;
  /* libyaml gives a reader error (bad UTF-8, a control character) no
   * mark, only the byte offset. */
  if (r->p.error == YAML_READER_ERROR)
    mp_text_position(r->text, r->len, r->p.problem_offset, &line, &col);
  /* file:line:col first, as the YAML host reports program errors */
  return mp_err_set(r->err, MP_EINVAL, "%s:%d:%d: invalid YAML: %s", r->file,
                    line, col, r->p.problem ? r->p.problem : "parse error");
}

/* A NUL would cut the string wherever it goes next; refuse it. */
static int nul_error(reader *r, const yaml_event_t *ev) {
  return mp_err_set(r->err, MP_EINVAL,
                    "%s:%lu:%lu: a string may not contain a NUL character "
                    "(\\0)",
                    r->file, (unsigned long)ev->start_mark.line + 1,
                    (unsigned long)ev->start_mark.column + 1);
}

static int has_nul(const yaml_event_t *ev) {
  return memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) != NULL;
}

static int next_event(reader *r, yaml_event_t *ev) {
  if (!yaml_parser_parse(&r->p, ev)) return parse_error(r);
  return 0;
}

static int is_null_scalar(const yaml_event_t *ev) {
  const char *s = (const char *)ev->data.scalar.value;
  if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
  return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
         !strcmp(s, "NULL");
}

static int parse_node(reader *r, yaml_event_t *ev, int depth, mp_value **out);

static int parse_seq(reader *r, int depth, mp_value **out) {
  mp_value *arr = mp_value_new_array();
  for (;;) {
    yaml_event_t ev;
    int rc = next_event(r, &ev);
    if (rc) goto fail;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      *out = arr;
      return 0;
    }
    mp_value *item = NULL;
    rc = parse_node(r, &ev, depth + 1, &item);
    yaml_event_delete(&ev);
    if (rc) goto fail;
    mp_value_array_push(arr, item);
    continue;
  fail:
    mp_value_free(arr);
    return rc;
  }
}

/* The keys of one mapping as read, with their lines. */
typedef struct seen_keys {
  mp_strv keys;
  unsigned long *lines;
} seen_keys;

/* A mapping key must be a scalar without NUL, not in |seen|: a repeated
 * key would silently replace the first, so it is refused in every file,
 * as the program parser does. Returns 0 or MP_EINVAL. */
static int check_key(reader *r, const seen_keys *seen,
                     const yaml_event_t *ev) {
  if (ev->type != YAML_SCALAR_EVENT)
    return mp_err_set(r->err, MP_EINVAL,
                      "cannot parse '%s': only scalar mapping keys are "
                      "supported (line %lu)",
                      r->file, (unsigned long)ev->start_mark.line + 1);
  if (has_nul(ev)) return nul_error(r, ev);
  const char *key = (const char *)ev->data.scalar.value;
  for (size_t i = 0; i < seen->keys.len; i++)
    if (strcmp(seen->keys.items[i], key) == 0)
      return mp_err_set(r->err, MP_EINVAL,
                        "%s:%lu:%lu: duplicate key '%s' (first at line %lu)",
                        r->file, (unsigned long)ev->start_mark.line + 1,
                        (unsigned long)ev->start_mark.column + 1, key,
                        seen->lines[i]);
  return 0;
}

static int parse_map(reader *r, int depth, mp_value **out) {
  mp_value *obj = mp_value_new_object();
  seen_keys seen = {{0}, NULL};
  mp_strv_init(&seen.keys);
  int rc;
  for (;;) {
    yaml_event_t ev;
    rc = next_event(r, &ev);
    if (rc) break;
    if (ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      *out = obj;
      obj = NULL;
      break;
    }
    if ((rc = check_key(r, &seen, &ev))) {
      yaml_event_delete(&ev);
      break;
    }
    char *key = mp_xstrdup((const char *)ev.data.scalar.value);
    seen.lines = mp_xreallocarray(seen.lines, seen.keys.len + 1,
                                  sizeof(*seen.lines));
    seen.lines[seen.keys.len] = (unsigned long)ev.start_mark.line + 1;
    mp_strv_push(&seen.keys, key);
    yaml_event_delete(&ev);
    mp_value *val = NULL;
    if ((rc = next_event(r, &ev)) == 0) {
      rc = parse_node(r, &ev, depth + 1, &val);
      yaml_event_delete(&ev);
    }
    if (rc) {
      free(key);
      break;
    }
    mp_value_object_set(obj, key, val);
    free(key);
  }
  mp_strv_destroy(&seen.keys);
  free(seen.lines);
  mp_value_free(obj);
  return rc;
}

static int parse_node(reader *r, yaml_event_t *ev, int depth, mp_value **out) {
  if (depth > MAX_DEPTH)
    return mp_err_set(r->err, MP_EINVAL, "cannot parse '%s': nested too deeply",
                      r->file);
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    if (has_nul(ev)) return nul_error(r, ev);
    *out = is_null_scalar(ev)
               ? mp_value_new_null()
               : mp_value_new_string((const char *)ev->data.scalar.value,
                                     ev->data.scalar.length);
    return 0;
  case YAML_SEQUENCE_START_EVENT:
    return parse_seq(r, depth, out);
  case YAML_MAPPING_START_EVENT:
    return parse_map(r, depth, out);
  case YAML_ALIAS_EVENT:
    return mp_err_set(r->err, MP_EINVAL,
                      "cannot parse '%s': YAML aliases are not supported "
                      "(line %lu)",
                      r->file, (unsigned long)ev->start_mark.line + 1);
  default:
    return mp_err_set(r->err, MP_EINVAL,
                      "cannot parse '%s': unexpected YAML event at line %lu",
                      r->file, (unsigned long)ev->start_mark.line + 1);
  }
}

/* Skips events until the document's first node (or the stream's end:
 * *out stays NULL). */
static int parse_document(reader *r, mp_value **out) {
  for (;;) {
    yaml_event_t ev;
    int rc = next_event(r, &ev);
    if (rc) return rc;
    yaml_event_type_t t = ev.type;
    if (t == YAML_STREAM_START_EVENT || t == YAML_DOCUMENT_START_EVENT) {
      yaml_event_delete(&ev);
      continue;
    }
    if (t == YAML_STREAM_END_EVENT || t == YAML_DOCUMENT_END_EVENT) {
      yaml_event_delete(&ev);
      return 0;
    }
    rc = parse_node(r, &ev, 0, out);
    yaml_event_delete(&ev);
    return rc;
  }
}

int mp_cli_yaml_parse(const char *file, const char *text, size_t len,
                      mp_value **out, mp_err *err) {
  reader r = {.file = file, .text = text, .len = len, .err = err};
  mp_value *v = NULL;
  *out = NULL;
  if (!yaml_parser_initialize(&r.p))
    return mp_err_set(err, MP_EIO, "cannot initialise the YAML parser");
  yaml_parser_set_input_string(&r.p, (const unsigned char *)text, len);
  int rc = parse_document(&r, &v);
  yaml_parser_delete(&r.p);
  if (rc) return rc;
  if (!v || v->kind == MP_VALUE_NULL) {
    mp_value_free(v);
    v = mp_value_new_object();
  }
  if (v->kind != MP_VALUE_OBJECT) {
    mp_value_free(v);
    return mp_err_set(err, MP_EINVAL,
                      "cannot parse '%s': the document is not a mapping", file);
  }
  *out = v;
  return 0;
}

/* ==== writing ==== */

static int write_handler(void *data, unsigned char *buffer, size_t size) {
  mp_buf_append((mp_buf *)data, buffer, size);
  return 1;
}

static int looks_like_number(const char *s) {
  if (!strncmp(s, "0x", 2) || !strncmp(s, "0o", 2)) return 1;
  const char *t = (*s == '-' || *s == '+') ? s + 1 : s;
  if (!strcasecmp(t, ".inf") || !strcasecmp(s, ".nan")) return 1;
  char *end = NULL;
  errno = 0;
  (void)strtod(s, &end);
  if (end != s && *end == 0) return 1;
  /* a date YAML 1.1 would read as a timestamp */
  return isdigit((unsigned char)s[0]) && strlen(s) >= 10 && s[4] == '-' &&
         s[7] == '-';
}

/* 1 if a plain scalar |s| would not read back as the same string. */
static int needs_quotes(const char *s) {
  static const char *const words[] = {"true", "false", "yes", "no", "on",
                                      "off",  "y",     "n",   "null", "~"};
  if (!*s) return 1;
  for (size_t i = 0; i < MP_ARRAY_LEN(words); i++)
    if (!strcasecmp(s, words[i])) return 1;
  return looks_like_number(s);
}

static int emit(yaml_emitter_t *em, yaml_event_t *ev, mp_err *err) {
  if (!yaml_emitter_emit(em, ev))
    return mp_err_set(err, MP_EINVAL, "cannot write YAML: %s",
                      em->problem ? em->problem : "emitter error");
  return 0;
}

static int emit_scalar(yaml_emitter_t *em, const char *s, size_t len,
                       int plain_null, mp_err *err) {
  yaml_event_t ev;
  yaml_scalar_style_t style = YAML_ANY_SCALAR_STYLE;
  if (!plain_null && needs_quotes(s)) style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
  yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)len, 1,
                               1, style);
  return emit(em, &ev, err);
}

static int emit_value(yaml_emitter_t *em, const mp_value *v, mp_err *err);

static int in_list(const char *const *l, size_t n, const char *k) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(l[i], k)) return 1;
  return 0;
}

static int emit_entry(yaml_emitter_t *em, const char *k, const mp_value *v,
                      mp_err *err) {
  int rc = emit_scalar(em, k, strlen(k), 0, err);
  return rc ? rc : emit_value(em, v, err);
}

/* Emits the keys named in |first| (in that order) and then the others. */
static int emit_object(yaml_emitter_t *em, const mp_value *v,
                       const char *const *first, size_t nfirst, mp_err *err) {
  yaml_event_t ev;
  int rc;
  yaml_mapping_start_event_initialize(
      &ev, NULL, NULL, 1,
      v->u.obj.len ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE);
  if ((rc = emit(em, &ev, err))) return rc;
  for (size_t f = 0; f < nfirst; f++) {
    const mp_value *fv = mp_value_object_get(v, first[f]);
    if (fv && (rc = emit_entry(em, first[f], fv, err))) return rc;
  }
  for (size_t i = 0; i < v->u.obj.len; i++) {
    const mp_value_entry *e = &v->u.obj.items[i];
    if (in_list(first, nfirst, e->key)) continue;
    if ((rc = emit_entry(em, e->key, e->value, err))) return rc;
  }
  yaml_mapping_end_event_initialize(&ev);
  return emit(em, &ev, err);
}

static int emit_value(yaml_emitter_t *em, const mp_value *v, mp_err *err) {
  yaml_event_t ev;
  int rc;
  switch (v->kind) {
  case MP_VALUE_NULL:
    return emit_scalar(em, "null", 4, 1, err);
  case MP_VALUE_STRING:
    return emit_scalar(em, v->u.str.ptr, v->u.str.len, 0, err);
  case MP_VALUE_BOOL:
    return emit_scalar(em, v->u.boolean ? "true" : "false",
                       v->u.boolean ? 4 : 5, 1, err);
  case MP_VALUE_NUMBER: {
    char num[64];
    snprintf(num, sizeof(num), "%.17g", v->u.number);
    return emit_scalar(em, num, strlen(num), 1, err);
  }
  case MP_VALUE_OBJECT:
    return emit_object(em, v, NULL, 0, err);
  case MP_VALUE_ARRAY:
    yaml_sequence_start_event_initialize(
        &ev, NULL, NULL, 1,
        v->u.arr.len ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE);
    if ((rc = emit(em, &ev, err))) return rc;
    for (size_t i = 0; i < v->u.arr.len; i++)
      if ((rc = emit_value(em, v->u.arr.items[i], err))) return rc;
    yaml_sequence_end_event_initialize(&ev);
    return emit(em, &ev, err);
  default:
    return mp_err_set(err, MP_EINVAL, "cannot write a %s value as YAML",
                      mp_value_kind_name(v->kind));
  }
}

int mp_cli_yaml_emit(const mp_value *v, mp_buf *out, mp_err *err) {
  static const char *const first[] = {"secretsprovider", "encryptedkey",
                                      "encryptionsalt", "config"};
  yaml_emitter_t em;
  yaml_event_t ev;
  int rc;
  if (!yaml_emitter_initialize(&em))
    return mp_err_set(err, MP_EIO, "cannot initialise the YAML emitter");
  yaml_emitter_set_output(&em, write_handler, out);
  yaml_emitter_set_unicode(&em, 1);
  yaml_emitter_set_width(&em, -1);
  yaml_emitter_set_indent(&em, 2);
  yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
  if ((rc = emit(&em, &ev, err))) goto done;
  yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
  if ((rc = emit(&em, &ev, err))) goto done;
  if ((rc = emit_object(&em, v, first, MP_ARRAY_LEN(first), err))) goto done;
  yaml_document_end_event_initialize(&ev, 1);
  if ((rc = emit(&em, &ev, err))) goto done;
  yaml_stream_end_event_initialize(&ev);
  rc = emit(&em, &ev, err);
done:
  yaml_emitter_delete(&em);
  return rc;
}

/* ==== the stack file ==== */

int mp_stack_config_load(const char *path, mp_stack_config *c, mp_err *err) {
  memset(c, 0, sizeof(*c));
  c->lock_fd = -1;
  FILE *f = fopen(path, "rb");
  mp_buf text;
  mp_buf_init(&text);
  if (!f) {
    if (errno != ENOENT)
      return mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                        strerror(errno));
    c->path = mp_xstrdup(path);
    c->doc = mp_value_new_object();
    return 0;
  }
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(&text, chunk, n);
  int bad_read = ferror(f);
  fclose(f);
  if (bad_read) {
    mp_buf_destroy(&text);
    return mp_err_set(err, MP_EIO, "cannot read '%s'", path);
  }
  mp_value *doc = NULL;
  int rc = mp_cli_yaml_parse(path, text.data ? text.data : "", text.len, &doc,
                             err);
  mp_buf_destroy(&text);
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
  c->path = mp_xstrdup(path);
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
  mp_buf out;
  mp_buf_init(&out);
  int rc = mp_cli_yaml_emit(c->doc, &out, err);
  if (rc) {
    mp_buf_destroy(&out);
    return rc;
  }
  char *tmp = mp_xasprintf("%s.tmp.%ld", c->path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", tmp, strerror(errno));
  } else {
    size_t w = out.len ? fwrite(out.data, 1, out.len, f) : 0;
    int bad = (w != out.len) | (fflush(f) != 0) | (fsync(fileno(f)) != 0);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, c->path) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", c->path,
                      strerror(errno));
      unlink(tmp);
    }
  }
  if (rc == 0) c->created = 0;
  free(tmp);
  mp_buf_destroy(&out);
  return rc;
}

int mp_stack_config_save_salt(mp_stack_config *c, const char *salt,
                              mp_err *err) {
  mp_stack_config_set_salt(c, salt);
  if (c->locked) return mp_stack_config_save(c, err);
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
