/* Property paths, as `config set --path`, `config rm --path` and
 * ignoreChanges take them. The input's first line is the path (or the
 * config key with its path); the rest, when it is JSON, is the value the
 * path is applied to. A parsed path must format to text that parses to
 * the same path, a value set must be found at its path, and ignoring
 * changes between two equal values must change nothing. */
#include <stdlib.h>
#include <string.h>

#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "fuzz_util.h"

static int has_wildcard(const mp_path *p) {
  for (size_t i = 0; i < p->len; i++)
    if (p->segs[i].kind == MP_PATH_WILDCARD) return 1;
  return 0;
}

static void round_trip(const mp_path *p) {
  char *text = mp_path_format(p);
  mp_path q;
  mp_err err;
  FUZZ_CHECK(mp_path_parse(text, &q, &err) == 0,
             "a formatted path does not parse");
  char *again = mp_path_format(&q);
  FUZZ_CHECK(!strcmp(text, again), "a path's format is not stable");
  FUZZ_CHECK(mp_path_covers(p, &q) && mp_path_covers(&q, p),
             "a path does not cover its own round trip");
  free(again);
  free(text);
  mp_path_destroy(&q);
}

static void set_get(const mp_value *root, const mp_path *p) {
  if (has_wildcard(p)) return;
  mp_value *copy = mp_value_dup(root);
  mp_value *v = mp_value_new_cstring("fuzz-set");
  mp_err err;
  if (mp_path_set(copy, p, v, &err) == 0) {
    const mp_value *got = mp_path_get(copy, p);
    FUZZ_CHECK(got && got->kind == MP_VALUE_STRING &&
                   !strcmp(got->u.str.ptr, "fuzz-set"),
               "a value set at a path is not found there");
    (void)mp_path_delete(copy, p);
  } else {
    mp_value_free(v);
  }
  mp_value_free(copy);
}

static void ignore_changes(const mp_value *olds, const char *text) {
  mp_strv paths, invalid;
  mp_strv_init(&paths);
  mp_strv_init(&invalid);
  mp_strv_push(&paths, text);
  mp_value *news = mp_value_dup(olds);
  mp_err err;
  if (mp_value_apply_ignore_changes(olds, news, &paths, &invalid, &err) == 0)
    FUZZ_CHECK(mp_value_equal(olds, news, 0),
               "ignoring changes between equal values changed them");
  mp_value_free(news);
  /* Against an empty object: the path is missing on one side. */
  news = mp_value_new_object();
  (void)mp_value_apply_ignore_changes(olds, news, &paths, &invalid, &err);
  mp_value_free(news);
  mp_strv_destroy(&paths);
  mp_strv_destroy(&invalid);
}

/* `config set --path KEY VALUE` then `config rm --path KEY` on a stack
 * file holding |doc|, in memory. */
static void config_path(const char *key, const mp_value *doc) {
  mp_cfg_cmd c;
  memset(&c, 0, sizeof(c));
  c.ctx = fuzz_cli_ctx();
  c.file.lock_fd = -1;
  c.file.doc = mp_value_new_object();
  if (doc && doc->kind == MP_VALUE_OBJECT)
    mp_value_object_set(c.file.doc, "config", mp_value_dup(doc));
  char *full = NULL, *rest = NULL;
  mp_err err;
  if (mp_cli_config_key(c.ctx, key, 1, &full, &rest, &err) == 0) {
    (void)mp_cfg_put(&c, full, rest, mp_cfg_path_value("7"), &err);
    (void)mp_cfg_remove(&c, key, 1, &err);
  }
  free(full);
  free(rest);
  mp_stack_config_destroy(&c.file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = fuzz_cstring(data, size);
  char *nl = strchr(s, '\n');
  mp_value *root = NULL;
  mp_err err;
  if (nl) {
    *nl = '\0';
    if (mp_value_from_json(nl + 1, strlen(nl + 1), NULL, &root, &err) != 0)
      root = NULL;
  }
  if (root == NULL) root = mp_value_new_object();
  mp_path p;
  if (mp_path_parse(s, &p, &err) == 0) {
    round_trip(&p);
    set_get(root, &p);
    mp_path_destroy(&p);
  }
  ignore_changes(root, s);
  config_path(s, root);
  mp_value_free(root);
  free(s);
  return 0;
}
