/* Which state backend the CLI uses, and the logins that choose it.
 *
 * Precedence (as Pulumi's): --backend, then MINIPULUMI_BACKEND_URL (or
 * Pulumi's PULUMI_BACKEND_URL), then the backend `minipulumi login`
 * remembered in ~/.minipulumi/credentials.json (a backend only minipulumi
 * can use), then the Pulumi CLI's current login (pulumi_login.c), then the
 * default SQLite file ~/.minipulumi/state.db.
 *
 * credentials.json follows Pulumi's file: {"current": URL, "accounts":
 * {URL: {"lastValidatedAt": TIME}}}. It holds each URL as given, password
 * included (a later command must be able to connect), so it is written
 * with mode 0600, like Pulumi's, and never shown: everything printed goes
 * through mp_store_url_redact. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli/backend.h"
#include "engine/prog_name.h"
#include "cli/json_out.h"
#include "cli/messages.h"

#define CREDENTIALS "credentials.json"

char *mp_cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, len);
}

int mp_cli_write_text_file(const char *path, const char *text,
                           const char *what, mp_err *err) {
  FILE *f = fopen(path, "wb");
  int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
  if (f && fclose(f) != 0) ok = 0;
  if (!ok)
    return mp_err_set(err, MP_EIO, "could not write the %s '%s': %s", what,
                      path, strerror(errno));
  return 0;
}

/* ==== ~/.minipulumi ==== */

char *mp_cli_home_dir(void) {
  const char *h = getenv("HOME");
  if (h && *h)
    return mp_xstrdup(h);
  struct passwd *pw = getpwuid(getuid());
  return pw && pw->pw_dir ? mp_xstrdup(pw->pw_dir) : NULL;
}

int mp_cli_home_file(mp_ctx *ctx, const char *name, char **out) {
  *out = NULL;
  char *home = mp_cli_home_dir();
  if (!home)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "cannot find the home folder for ~/.minipulumi; set "
                        "HOME or pass --backend");
  char *dir = mp_xasprintf("%s/.minipulumi", home);
  free(home);
  if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
    int e = errno;
    mp_cli_error(ctx, MP_EXIT_ERROR, "cannot create '%s': %s; pass --backend",
                 dir, strerror(e));
    free(dir);
    return MP_EXIT_ERROR;
  }
  *out = mp_xasprintf("%s/%s", dir, name);
  free(dir);
  return 0;
}

const char *mp_cli_user_name(void) {
  struct passwd *pw = getpwuid(getuid());
  if (pw && pw->pw_name)
    return pw->pw_name;
  const char *u = getenv("USER");
  return u && *u ? u : "unknown";
}

/* ==== credentials.json ==== */

int mp_cli_creds_read(mp_ctx *ctx, const char *path, const char *fix,
                      cJSON **out) {
  *out = NULL;
  size_t len = 0;
  errno = 0;
  char *text = mp_cli_read_file(path, &len);
  if (!text && errno != ENOENT)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot read '%s': %s", path,
                        strerror(errno));
  cJSON *j = len ? cJSON_ParseWithLength(text, len) : cJSON_CreateObject();
  free(text);
  if (!cJSON_IsObject(j)) {
    cJSON_Delete(j);
    char what_to_do[256];
    snprintf(what_to_do, sizeof(what_to_do), fix, mp_prog_name());
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "'%s' is not a credentials file (not a JSON object); "
                        "%s",
                        path, what_to_do);
  }
  *out = j;
  return 0;
}

/* Through a temporary file (mode 0600) and rename, so that a crash never
 * leaves half a file. */
int mp_cli_creds_write(mp_ctx *ctx, const char *path, const cJSON *j) {
  mp_buf b;
  mp_buf_init(&b);
  mp_cli_cjson_print(j, 4, &b);
  mp_buf_putc(&b, '\n');
  char *tmp = mp_xasprintf("%s.tmp", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int ok =
      fd >= 0 && write(fd, b.data, b.len) == (ssize_t)b.len && fsync(fd) == 0;
  int e = errno;
  if (fd >= 0)
    close(fd);
  if (ok && rename(tmp, path) != 0) {
    ok = 0;
    e = errno;
  }
  if (!ok)
    unlink(tmp);
  free(tmp);
  mp_buf_destroy(&b);
  if (!ok)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write '%s': %s", path,
                        strerror(e));
  return 0;
}

/* What to do, with %s for the command's name as typed. */
static const char own_fix[] = "fix it or remove it with `%s logout --all`";

int mp_cli_credentials_current(mp_ctx *ctx, char **url) {
  *url = NULL;
  char *path;
  cJSON *j;
  int status = mp_cli_home_file(ctx, CREDENTIALS, &path);
  if (status)
    return status;
  status = mp_cli_creds_read(ctx, path, own_fix, &j);
  free(path);
  if (status)
    return status;
  const cJSON *cur = cJSON_GetObjectItemCaseSensitive(j, "current");
  if (cJSON_IsString(cur) && *cur->valuestring)
    *url = mp_xstrdup(cur->valuestring);
  cJSON_Delete(j);
  return 0;
}

/* Applies |op| on |url| to the parsed file |j|. */
static void creds_apply(cJSON *j, enum mp_cli_creds_op op, const char *url) {
  if (op == MP_CREDS_LOGOUT_ALL)
    cJSON_DeleteItemFromObjectCaseSensitive(j, "accounts");
  if (op == MP_CREDS_LOGOUT_ALL || op == MP_CREDS_CLEAR_CURRENT) {
    cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
    return;
  }
  cJSON *accounts = cJSON_GetObjectItemCaseSensitive(j, "accounts");
  if (!cJSON_IsObject(accounts)) {
    cJSON_DeleteItemFromObjectCaseSensitive(j, "accounts");
    accounts = cJSON_AddObjectToObject(j, "accounts");
  }
  cJSON_DeleteItemFromObjectCaseSensitive(accounts, url);
  const cJSON *cur = cJSON_GetObjectItemCaseSensitive(j, "current");
  int is_current = cJSON_IsString(cur) && !strcmp(cur->valuestring, url);
  if (op == MP_CREDS_LOGOUT) {
    if (is_current)
      cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
    return;
  }
  char *now = mp_now_rfc3339();
  cJSON *acct = cJSON_AddObjectToObject(accounts, url);
  cJSON_AddStringToObject(acct, "lastValidatedAt", now);
  free(now);
  cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
  cJSON_AddStringToObject(j, "current", url);
}

int mp_cli_credentials_update(mp_ctx *ctx, enum mp_cli_creds_op op,
                              const char *url) {
  char *path;
  cJSON *j = NULL;
  int status = mp_cli_home_file(ctx, CREDENTIALS, &path);
  if (!status && op == MP_CREDS_LOGOUT_ALL)
    j = cJSON_CreateObject(); /* even an unreadable file goes */
  else if (!status)
    status = mp_cli_creds_read(ctx, path, own_fix, &j);
  if (!status) {
    creds_apply(j, op, url);
    status = mp_cli_creds_write(ctx, path, j);
  }
  cJSON_Delete(j);
  free(path);
  return status;
}

/* ==== the backend URL ==== */

int mp_cli_default_backend(mp_ctx *ctx, char **url) {
  return mp_cli_home_file(ctx, "state.db", url);
}

int mp_cli_env_backend(const char **name, const char **url) {
  static const char *const vars[] = {"MINIPULUMI_BACKEND_URL",
                                     "PULUMI_BACKEND_URL"};
  for (size_t i = 0; i < MP_ARRAY_LEN(vars); i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) {
      if (name)
        *name = vars[i];
      *url = v;
      return 1;
    }
  }
  return 0;
}

int mp_cli_backend_url(mp_ctx *ctx, char **url, char **source) {
  *url = NULL;
  const char *env_name = NULL, *env = NULL;
  char *src = NULL, *path = NULL;
  int status = 0;
  if (ctx->backend && *ctx->backend) {
    *url = mp_xstrdup(ctx->backend);
    src = mp_xstrdup("the --backend flag");
  } else if (mp_cli_env_backend(&env_name, &env)) {
    *url = mp_xstrdup(env);
    src = mp_xasprintf("the %s environment variable", env_name);
  } else if ((status = mp_cli_credentials_current(ctx, url)) == 0 && *url) {
    mp_cli_home_file(ctx, CREDENTIALS, &path);
    src = mp_xasprintf("the minipulumi login in %s", path ? path : "?");
  } else if (!status &&
             (status = mp_cli_pulumi_creds_current(ctx, url)) == 0 && *url) {
    path = mp_cli_pulumi_creds_path();
    src = mp_xasprintf("the Pulumi login in %s", path);
  } else if (status == 0) {
    status = mp_cli_default_backend(ctx, url);
    src = mp_xstrdup("minipulumi's default (no login)");
  }
  free(path);
  if (source)
    *source = src;
  else
    free(src);
  return status;
}

char *mp_cli_backend_normalize(const char *url) {
  if (strstr(url, "://") || url[0] == '/')
    return mp_xstrdup(url);
  /* The folder resolved (it must exist for the store anyway), the file
   * name kept: the file may not exist yet. */
  const char *slash = strrchr(url, '/');
  char *dir = slash ? mp_xstrndup(url, (size_t)(slash - url)) : mp_xstrdup(".");
  char *real = realpath(*dir ? dir : "/", NULL);
  char *abs = real ? mp_xasprintf("%s/%s", real, slash ? slash + 1 : url)
                   : mp_xstrdup(url);
  free(real);
  free(dir);
  return abs;
}

int mp_cli_login_url(mp_ctx *ctx, const mp_strv *pos, const char *cloud_url,
                     int local, char **url) {
  *url = NULL;
  const char *given = pos->len ? pos->items[0] : cloud_url;
  if (local && given)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "a URL may not be specified when --local mode is "
                        "enabled");
  if (local) { /* Pulumi's `login --local`: the DIY folder ~ */
    *url = mp_xstrdup("file://~");
    return 0;
  }
  if (given) {
    *url = mp_cli_backend_normalize(given);
    return 0;
  }
  return mp_cli_backend_url(ctx, url, NULL);
}

/* Go's strconv.ParseBool truth, as Pulumi's env.GetBool reads variables. */
static int env_bool(const char *name) {
  const char *v = getenv(name);
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True"};
  for (size_t i = 0; v && i < MP_ARRAY_LEN(yes); i++)
    if (strcmp(v, yes[i]) == 0) return 1;
  return 0;
}

int mp_cli_store_opts(mp_ctx *ctx, mp_store_opts *o) {
  memset(o, 0, sizeof(*o));
  const char *verify = getenv("MINIPULUMI_VERIFY_WRITES");
  o->verify_writes = verify && *verify && strcmp(verify, "0") != 0 &&
                     !ctx->no_integrity;
  o->diy_gzip = env_bool("PULUMI_DIY_BACKEND_GZIP");
  o->diy_legacy_layout = env_bool("PULUMI_DIY_BACKEND_LEGACY_LAYOUT");
  o->diy_no_backups = env_bool("PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS");
  o->home = getenv("HOME");
  const char *v = getenv("MINIPULUMI_LOCK_LEASE_SECONDS");
  if (!v || !*v)
    return 0;
  char *end;
  double secs = strtod(v, &end);
  if (*end || !(secs > 0) || secs > 86400.0 * 365)
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "MINIPULUMI_LOCK_LEASE_SECONDS must be a positive "
                        "number of seconds, not '%s'",
                        v);
  o->lease_ms = (int64_t)(secs * 1000.0 + 0.5);
  if (o->lease_ms < 1)
    o->lease_ms = 1;
  return 0;
}
