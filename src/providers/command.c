/* The built-in `command` provider: `command:local:Command`, shaped after
 * pulumi-command's local Command. Create runs `create`; an input change
 * updates (running `update`) when `update` is set and replaces otherwise,
 * and a `triggers` change always replaces; Delete runs `delete`. update
 * and delete see the previous outputs as PULUMI_COMMAND_STDOUT/STDERR.
 * When any input (or a previous output fed to the command) is secret,
 * stdout and stderr are secret too and errors do not quote them, as the
 * current pulumi-command provider does. */
#include "providers/command_int.h"
#include "providers/providers_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKEN "command:local:Command"
#define ID_BYTES 8

static const char *const str_keys[] = {"create", "update", "delete",
                                       "dir",    "stdin",  NULL};
static const char *const output_keys[] = {"stdout", "stderr", NULL};

int mp__prov_command_implements(const char *tok, int function) {
  return tok && !strcmp(tok, function ? "command:local:run" : TOKEN);
}

static int check_type(const mp_prov_req *q, mp_err *err) {
  if (q->type != NULL && strcmp(q->type, TOKEN) == 0)
    return 0;
  return mp_err_set(err, MP_EINVAL,
                    "unknown resource type '%s' in the built-in 'command' "
                    "provider; the only type is '" TOKEN "'",
                    q->type ? q->type : "(none)");
}

/* Adds a failure for each non-string element of |v| (array or object). */
static void check_strings(const mp_value *v, const char *key, mp_prov_resp *r) {
  size_t i, n = v->kind == MP_VALUE_ARRAY ? v->u.arr.len : v->u.obj.len;
  for (i = 0; i < n; i++) {
    const mp_value *e =
        mp__prov_plain(v->kind == MP_VALUE_ARRAY ? v->u.arr.items[i]
                                                 : v->u.obj.items[i].value);
    if (e != NULL && e->kind != MP_VALUE_STRING &&
        e->kind != MP_VALUE_UNKNOWN) {
      char reason[96];
      snprintf(reason, sizeof(reason), "expected strings only, got a %s",
               mp_value_kind_name(e->kind));
      mp_prov_resp_add_failure(r, key, reason);
      return;
    }
  }
}

static void check_container(const mp_value *news, const char *key,
                            mp_value_kind want, mp_prov_resp *r) {
  const mp_value *v = mp__prov_get(news, key);
  if (v == NULL || mp__prov_is_unknown(news, key))
    return;
  if (v->kind != want) {
    mp_prov_resp_add_failure(r, key,
                             want == MP_VALUE_ARRAY ? "expected an array"
                                                    : "expected an object");
    return;
  }
  if (strcmp(key, "triggers") != 0)
    check_strings(v, key, r);
  if (strcmp(key, "interpreter") == 0 && v->u.arr.len == 0)
    mp_prov_resp_add_failure(r, key, "must name at least a program");
}

static int c_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  size_t i;
  const char *s;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  for (i = 0; str_keys[i] != NULL; i++)
    (void)mp__prov_str(q->news, str_keys[i], &s, r);
  check_container(q->news, "environment", MP_VALUE_OBJECT, r);
  check_container(q->news, "interpreter", MP_VALUE_ARRAY, r);
  check_container(q->news, "triggers", MP_VALUE_ARRAY, r);
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  return 0;
}

static int c_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  const mp_value *olds = q->old_inputs ? q->old_inputs : q->olds;
  mp_strv changed;
  size_t i;
  int has_update;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  mp_strv_init(&changed);
  if (mp__prov_changed_keys(olds, q->news, output_keys, &changed) == 0) {
    r->changes = MP_DIFF_CHANGES_NONE;
    mp_strv_destroy(&changed);
    return 0;
  }
  r->changes = MP_DIFF_CHANGES_SOME;
  has_update = mp__prov_get_str(q->news, "update") != NULL ||
               mp__prov_is_unknown(q->news, "update");
  for (i = 0; i < changed.len; i++) {
    mp_strv_push(&r->diffs, changed.items[i]);
    if (strcmp(changed.items[i], "triggers") == 0 || !has_update)
      mp_strv_push(&r->replaces, changed.items[i]);
  }
  mp_strv_destroy(&changed);
  return 0;
}

/* Trims one trailing newline, as the real provider does. */
static mp_value *trimmed(const mp_buf *b) {
  size_t n = b->len;
  if (n > 0 && b->data[n - 1] == '\n')
    n--;
  return mp_value_new_string(n ? b->data : "", n);
}

static void push_env(mp_strv *env, const char *name, const mp_value *v) {
  v = mp__prov_plain(v);
  if (v != NULL && v->kind == MP_VALUE_STRING)
    mp_strv_push_take(env, mp_xasprintf("%s=%s", name, v->u.str.ptr));
}

/* argv = interpreter (default /bin/sh -c) + |cmd|; borrowed strings. */
static char **build_argv(const mp_value *in, const char *cmd) {
  static const char *const def[] = {"/bin/sh", "-c"};
  const mp_value *interp = mp__prov_get(in, "interpreter");
  size_t n = 0, i, len = 2;
  char **argv;
  if (interp != NULL && interp->kind == MP_VALUE_ARRAY && interp->u.arr.len)
    len = interp->u.arr.len;
  else
    interp = NULL;
  argv = mp_xcalloc(len + 2, sizeof(*argv));
  for (i = 0; i < len; i++) {
    const mp_value *e = interp ? mp__prov_plain(interp->u.arr.items[i]) : NULL;
    if (interp == NULL)
      argv[n++] = (char *)def[i];
    else if (e != NULL && e->kind == MP_VALUE_STRING)
      argv[n++] = e->u.str.ptr;
  }
  argv[n++] = (char *)cmd;
  argv[n] = NULL;
  return argv;
}

/* 1 if what the command sees includes a secret: then its output may
 * reveal it. */
static int sees_secret(const mp_value *in, const mp_value *prev) {
  return mp_value_contains_secrets(in) || mp_value_contains_secrets(prev);
}

/* |v| (owned), made secret when |secret|. */
static mp_value *maybe_secret(mp_value *v, int secret) {
  return secret ? mp_value_new_secret(v) : v;
}

/* Runs |cmd| with the settings of the inputs |in|; |prev| (old outputs,
 * may be NULL) provides PULUMI_COMMAND_STDOUT/STDERR. On success sets
 * stdout/stderr in |out| (may be NULL), secret when the command saw a
 * secret. */
static int run_phase(const mp_value *in, const char *cmd, const mp_value *prev,
                     double timeout, mp_value *out, mp_err *err) {
  mp__cmd_spec s;
  mp__cmd_result res;
  const mp_value *env = mp__prov_get(in, "environment");
  const mp_value *stdin_v = mp__prov_get(in, "stdin");
  char **argv = build_argv(in, cmd);
  size_t i, elen;
  int rc;
  memset(&s, 0, sizeof(s));
  s.argv = argv;
  s.dir = mp__prov_get_str(in, "dir");
  mp_strv_init(&s.env);
  for (i = 0; env != NULL && env->kind == MP_VALUE_OBJECT && i < env->u.obj.len;
       i++)
    push_env(&s.env, env->u.obj.items[i].key, env->u.obj.items[i].value);
  if (prev != NULL) {
    push_env(&s.env, "PULUMI_COMMAND_STDOUT", mp__prov_get(prev, "stdout"));
    push_env(&s.env, "PULUMI_COMMAND_STDERR", mp__prov_get(prev, "stderr"));
  }
  if (stdin_v != NULL && stdin_v->kind == MP_VALUE_STRING) {
    s.stdin_data = stdin_v->u.str.ptr;
    s.stdin_len = stdin_v->u.str.len;
  }
  s.timeout_ms = timeout > 0 ? (int64_t)(timeout * 1000) : 0;
  mp__cmd_result_init(&res);
  rc = mp__cmd_run(&s, &res, err);
  int secret = sees_secret(in, prev);
  elen = secret ? 0 : res.err.len; /* a secret's output is never quoted */
  while (elen > 0 &&
         (res.err.data[elen - 1] == '\n' || res.err.data[elen - 1] == '\r'))
    elen--;
  if (elen > 400)
    elen = 400;
  const char *detail = secret ? " (its output is not shown: an input is "
                                "secret)"
                              : ": ";
  if (rc == 0 && res.signal != 0)
    rc = mp_err_set(err, MP_EPLUGIN, "command was killed by signal %d%s%.*s",
                    res.signal, detail, (int)elen,
                    res.err.data ? res.err.data : "");
  else if (rc == 0 && res.status != 0)
    rc = mp_err_set(err, MP_EPLUGIN, "command exited with status %d%s%.*s",
                    res.status, detail, (int)elen,
                    res.err.data ? res.err.data : "");
  if (rc == 0 && out != NULL) {
    mp_value_object_set(out, "stdout", maybe_secret(trimmed(&res.out), secret));
    mp_value_object_set(out, "stderr", maybe_secret(trimmed(&res.err), secret));
  }
  mp__cmd_result_destroy(&res);
  mp_strv_destroy(&s.env);
  free(argv);
  return rc;
}

static void set_outputs(mp_value *out, int unknown, int secret) {
  mp_value_object_set(
      out, "stdout",
      maybe_secret(unknown ? mp_value_new_unknown() : mp_value_new_cstring(""),
                   secret));
  mp_value_object_set(
      out, "stderr",
      maybe_secret(unknown ? mp_value_new_unknown() : mp_value_new_cstring(""),
                   secret));
}

/* Create and Update share this: |cmd_key| names the command to run, with
 * `create` as the fallback when it is unset. */
static int create_or_update(const mp_prov_req *q, const char *cmd_key,
                            const mp_value *prev, mp_prov_resp *r,
                            mp_err *err) {
  mp_value *out = mp__prov_obj_dup(q->news);
  const char *cmd = mp__prov_get_str(q->news, cmd_key);
  int rc = 0;
  if (cmd == NULL)
    cmd = mp__prov_get_str(q->news, "create");
  if (q->preview || cmd == NULL)
    set_outputs(out, q->preview, sees_secret(q->news, prev));
  else
    rc = run_phase(q->news, cmd, prev, q->timeout, out, err);
  if (rc < 0) {
    mp_value_free(out);
    return rc;
  }
  mp_value_free(r->outputs);
  r->outputs = out;
  return 0;
}

static int c_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  char *id = NULL;
  int rc;
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if ((rc = create_or_update(q, "create", NULL, r, err)) < 0)
    return rc;
  if (q->preview)
    return 0;
  if ((rc = mp__prov_random_hex(ID_BYTES, &id, err)) < 0)
    return rc;
  free(r->id);
  r->id = id;
  return 0;
}

static int c_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  return create_or_update(q, "update", q->olds, r, err);
}

static int c_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const char *cmd = mp__prov_get_str(q->olds, "delete");
  (void)p;
  (void)r;
  if (check_type(q, err) < 0)
    return MP_EINVAL;
  if (cmd == NULL)
    return 0;
  return run_phase(q->olds, cmd, q->olds, q->timeout, NULL, err);
}

/* Invoke `command:local:run` (pulumi-command's function): runs `command`
 * with `dir`, `environment`, `interpreter` and `stdin`; returns the
 * arguments plus `stdout` and `stderr`. */
static int c_invoke(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  if (q->tok == NULL || strcmp(q->tok, "command:local:run") != 0)
    return mp_err_set(err, MP_EPLUGIN, "unknown function %s",
                      q->tok ? q->tok : "(none)");
  const char *cmd = mp__prov_get_str(q->news, "command");
  if (cmd == NULL)
    return mp_err_set(err, MP_EPLUGIN,
                      "command:local:run: the 'command' argument is required");
  mp_value *out = mp__prov_obj_dup(q->news);
  int rc = run_phase(q->news, cmd, NULL, q->timeout, out, err);
  if (rc < 0) {
    mp_value_free(out);
    return rc;
  }
  mp_value_free(r->outputs);
  r->outputs = out;
  return 0;
}

static void c_free(mp_provider *p) {
  mp__prov_base *b = (mp__prov_base *)p;
  if (b == NULL)
    return;
  mp__prov_base_destroy(b);
  free(b);
}

static const mp_provider_vtable command_vt = {
    .configure = mp__prov_configure_plain,
    .check = c_check,
    .diff = c_diff,
    .create = c_create,
    .update = c_update,
    .del = c_delete,
    .invoke = c_invoke,
    .get_plugin_info = mp__prov_plugin_info,
    .free = c_free,
};

int mp__prov_command_new(const char *pkg, const char *version,
                         mp_provider **out, mp_err *err) {
  mp__prov_base *b = mp_xcalloc(1, sizeof(*b));
  (void)err;
  mp__prov_base_init(b, &command_vt, pkg, version);
  *out = &b->hdr;
  return 0;
}
