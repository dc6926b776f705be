/* The Pulumi CLI's own login: $PULUMI_HOME/credentials.json (by default
 * ~/.pulumi; PULUMI_CREDENTIALS_PATH names another folder), as Pulumi's
 * workspace reads it (sdk/go/common/workspace/creds.go). minipulumi reads
 * its "current" backend, and writes the logins that the Pulumi CLI can use
 * the same way (file:// folders in Pulumi's DIY layout) as Pulumi's DIY
 * login does (pkg/backend/diy: StoreAccount(url, Account{}, true)), so
 * that `pulumi`, the Automation API and minipulumi agree on the backend.
 * Pulumi Cloud tokens in the file are never touched. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "engine/prog_name.h"
#include "cli/backend.h"
#include "cli/messages.h"
#include "plugin/cache.h"

/* Go's zero time.Time, which Pulumi's DIY login stores as lastValidatedAt */
#define GO_ZERO_TIME "0001-01-01T00:00:00Z"

char *mp_cli_pulumi_creds_path(void) {
  const char *dir = getenv("PULUMI_CREDENTIALS_PATH");
  if (!dir || !*dir)
    dir = getenv("PULUMI_HOME");
  if (dir && *dir)
    return mp_xasprintf("%s/credentials.json", dir);
  return mp_cli_home_path(".pulumi/credentials.json");
}

int mp_cli_url_pulumi_shared(const char *url) {
  return strncmp(url, "file://", 7) == 0;
}

/* What to do, with %s for the command's name as typed. */
static const char hint[] = "re-run `pulumi login` or `%s login` to reset it";

int mp_cli_pulumi_creds_current(mp_ctx *ctx, char **url) {
  *url = NULL;
  char *path = mp_cli_pulumi_creds_path();
  cJSON *j;
  int status = mp_cli_creds_read(ctx, path, hint, &j);
  const cJSON *cur = j ? cJSON_GetObjectItemCaseSensitive(j, "current") : NULL;
  if (cJSON_IsString(cur) && *cur->valuestring)
    *url = mp_xstrdup(cur->valuestring);
  cJSON_Delete(j);
  if (!status && *url && (!strncmp(*url, "https://", 8) ||
                          !strncmp(*url, "http://", 7))) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "the Pulumi CLI is logged in to '%s' (in '%s'), a "
                          "Pulumi Cloud backend, which minipulumi cannot "
                          "use; choose a backend with `%s login "
                          "<url>`, --backend or MINIPULUMI_BACKEND_URL",
                          *url, path, mp_prog_name());
    free(*url);
    *url = NULL;
  }
  free(path);
  return status;
}

/* An object member |name| of |j|, made if missing or not an object. */
static cJSON *object_member(cJSON *j, const char *name) {
  cJSON *o = cJSON_GetObjectItemCaseSensitive(j, name);
  if (cJSON_IsObject(o))
    return o;
  cJSON_DeleteItemFromObjectCaseSensitive(j, name);
  return cJSON_AddObjectToObject(j, name);
}

static void forget(cJSON *j, const char *url) {
  cJSON_DeleteItemFromObjectCaseSensitive(object_member(j, "accessTokens"), url);
  cJSON_DeleteItemFromObjectCaseSensitive(object_member(j, "accounts"), url);
  const cJSON *cur = cJSON_GetObjectItemCaseSensitive(j, "current");
  if (cJSON_IsString(cur) && !strcmp(cur->valuestring, url))
    cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
}

/* Forgets every login the Pulumi CLI shares with minipulumi. */
static void forget_shared(cJSON *j) {
  const char *names[] = {"accessTokens", "accounts"};
  for (size_t n = 0; n < MP_ARRAY_LEN(names); n++) {
    cJSON *o = object_member(j, names[n]), *e = o->child;
    while (e) {
      cJSON *next = e->next;
      if (mp_cli_url_pulumi_shared(e->string))
        cJSON_Delete(cJSON_DetachItemViaPointer(o, e));
      e = next;
    }
  }
  const cJSON *cur = cJSON_GetObjectItemCaseSensitive(j, "current");
  if (cJSON_IsString(cur) && mp_cli_url_pulumi_shared(cur->valuestring))
    cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
}

static void remember(cJSON *j, const char *url) {
  forget(j, url);
  cJSON_AddStringToObject(object_member(j, "accessTokens"), url, "");
  cJSON *acct = cJSON_AddObjectToObject(object_member(j, "accounts"), url);
  cJSON_AddStringToObject(acct, "lastValidatedAt", GO_ZERO_TIME);
  cJSON_DeleteItemFromObjectCaseSensitive(j, "current");
  cJSON_AddStringToObject(j, "current", url);
}

/* |j|'s members in Pulumi's order (current, accessTokens, accounts, then
 * anything else), |j| emptied. */
static cJSON *in_pulumi_order(cJSON *j) {
  cJSON *o = cJSON_CreateObject();
  const char *names[] = {"current", "accessTokens", "accounts"};
  for (size_t n = 0; n < MP_ARRAY_LEN(names); n++) {
    cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(j, names[n]);
    if (it)
      cJSON_AddItemToObject(o, names[n], it);
  }
  while (j->child) {
    cJSON *it = cJSON_DetachItemViaPointer(j, j->child);
    cJSON_AddItemToObject(o, it->string, it);
  }
  return o;
}

int mp_cli_pulumi_creds_update(mp_ctx *ctx, enum mp_cli_creds_op op,
                               const char *url) {
  char *path = mp_cli_pulumi_creds_path();
  if (op != MP_CREDS_LOGIN && access(path, F_OK) != 0) {
    free(path); /* nothing to forget */
    return 0;
  }
  cJSON *j = NULL;
  mp_err err;
  mp_err_clear(&err);
  char *dir = mp_xstrndup(path, (size_t)(strrchr(path, '/') - path));
  int status = 0;
  if (op == MP_CREDS_LOGIN && *dir && mp_plugin_mkdir_p(dir, &err) != 0)
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  free(dir);
  if (!status)
    status = mp_cli_creds_read(ctx, path, hint, &j);
  if (!status) {
    if (op == MP_CREDS_LOGIN)
      remember(j, url);
    else if (op == MP_CREDS_LOGOUT)
      forget(j, url);
    else
      forget_shared(j);
    /* As Pulumi's StoreCredentials: no token left, no file. */
    const cJSON *tokens = cJSON_GetObjectItemCaseSensitive(j, "accessTokens");
    if (!tokens || !tokens->child) {
      if (unlink(path) != 0 && errno != ENOENT)
        status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot remove '%s': %s",
                              path, strerror(errno));
    } else {
      cJSON *o = in_pulumi_order(j);
      status = mp_cli_creds_write(ctx, path, o);
      cJSON_Delete(o);
    }
  }
  cJSON_Delete(j);
  free(path);
  return status;
}
