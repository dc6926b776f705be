/* Where an `azblob://` store is and who we are there, as gocloud's
 * azureblob URL opener finds them (Pulumi hands the URL to it and puts
 * the path in front of every key, backend.go newDIYBackend): the
 * environment's AZURE_STORAGE_* defaults, overridden by the URL's
 * parameters, make the service URL (NewServiceURL); the credentials are
 * AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY (Shared Key), else
 * AZURE_STORAGE_SAS_TOKEN (newCredInfoFromEnv). */
#include "state/az_int.h"
#include "state/blob_util.h"
#include "state/store.h"
#include "state/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"

static const char *env_nonempty(const char *name) {
  const char *v = mp__store_env(name);
  return v && *v ? v : NULL;
}

/* An AZURE_STORAGE_IS_* variable: gocloud ignores a value that is no
 * boolean (false). */
static int env_bool(const char *name) {
  const char *v = env_nonempty(name);
  int b = 0;
  if (v == NULL || mp__go_parse_bool(v, &b) < 0)
    return 0;
  return b;
}

void mp__az_conf_free(az_conf *c) {
  free(c->container);
  free(c->prefix);
  free(c->account);
  free(c->service);
  free(c->key_account);
  free(c->key);
  free(c->sas);
  free(c->root);
  free(c->where);
  memset(c, 0, sizeof(*c));
}

static void set_str(char **dst, const char *v) {
  free(*dst);
  *dst = mp_xstrdup(v);
}

/* The URL's parameters over the environment's defaults. */
typedef struct az_params {
  char *account, *domain, *protocol, *prefix;
  int cdn, localemu;
} az_params;

static int parse_query(const char *url, char *q, az_params *p, mp_err *err) {
  mp_strv seen;
  mp_strv_init(&seen);
  int rc = 0;
  char *k, *v;
  for (char *cur = q; rc == 0 && mp__bucket_query_next(&cur, &k, &v);) {
    int b = 0;
    if (mp_strv_contains(&seen, k)) {
      rc = mp_err_set(err, MP_EINVAL, "multiple values of '%s' in '%s'", k,
                      url);
    } else if (strcmp(k, "storage_account") == 0) {
      set_str(&p->account, v);
    } else if (strcmp(k, "domain") == 0) {
      set_str(&p->domain, v);
    } else if (strcmp(k, "protocol") == 0) {
      set_str(&p->protocol, v);
    } else if (strcmp(k, "prefix") == 0) {
      set_str(&p->prefix, v);
    } else if (strcmp(k, "cdn") == 0 || strcmp(k, "localemu") == 0) {
      if (mp__go_parse_bool(v, &b) < 0)
        rc = mp_err_set(err, MP_EINVAL,
                        "invalid value '%s' of %s in '%s': true or false", v,
                        k, url);
      *(strcmp(k, "cdn") == 0 ? &p->cdn : &p->localemu) = b;
    } else {
      rc = mp_err_set(err, MP_EINVAL,
                      "unknown query parameter '%s' in '%s'; an azblob:// "
                      "URL takes storage_account, domain, protocol, "
                      "localemu, cdn and prefix",
                      k, url);
    }
    mp_strv_push(&seen, k);
    free(k);
    free(v);
  }
  mp_strv_destroy(&seen);
  return rc;
}

/* gocloud's NewServiceURL: PROTOCOL://ACCOUNT.DOMAIN; the domain alone
 * for a CDN; PROTOCOL://DOMAIN/ACCOUNT for an emulator (localemu, or a
 * domain starting with 127.0.0.1 or localhost). */
static int service_url(const char *url, const az_params *p, az_conf *c,
                       mp_err *err) {
  const char *domain = p->domain && *p->domain ? p->domain
                                               : "blob.core.windows.net";
  const char *proto = p->protocol && *p->protocol ? p->protocol : "https";
  if (strcmp(proto, "http") != 0 && strcmp(proto, "https") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "invalid protocol '%s' for '%s': http or https", proto,
                      url);
  if (strncmp(domain, "127.0.0.1", 9) == 0 ||
      strncmp(domain, "localhost", 9) == 0 || p->localemu)
    c->service = mp_xasprintf("%s://%s/%s", proto, domain, c->account);
  else if (p->cdn)
    c->service = mp_xasprintf("%s://%s", proto, domain);
  else
    c->service = mp_xasprintf("%s://%s.%s", proto, c->account, domain);
  size_t n = strlen(c->service);
  while (n > 0 && c->service[n - 1] == '/')
    c->service[--n] = '\0';
  return 0;
}

/* gocloud's choice: the account's key, else a SAS token. A connection
 * string and Azure AD (az login, a managed identity) are not read. */
static int credentials(const char *url, az_conf *c, mp_err *err) {
  const char *acct = env_nonempty("AZURE_STORAGE_ACCOUNT");
  const char *key = env_nonempty("AZURE_STORAGE_KEY");
  const char *sas = env_nonempty("AZURE_STORAGE_SAS_TOKEN");
  if (acct && key) {
    mp_buf b;
    mp_buf_init(&b);
    mp_err e;
    mp_err_clear(&e);
    if (mp_base64_decode(key, strlen(key), &b, &e) < 0 || b.len == 0) {
      mp_buf_destroy(&b);
      return mp_err_set(err, MP_EINVAL,
                        "AZURE_STORAGE_KEY is not an account key (base64, "
                        "as the Azure portal shows it under Access keys)");
    }
    c->key = (unsigned char *)mp_buf_detach(&b, &c->key_len);
    c->key_account = mp_xstrdup(acct);
    return 0;
  }
  if (sas) {
    c->sas = mp_xstrdup(sas[0] == '?' ? sas + 1 : sas);
    return 0;
  }
  if (env_nonempty("AZURE_STORAGE_CONNECTION_STRING") ||
      env_nonempty("AZURE_STORAGEBLOB_CONNECTIONSTRING"))
    return mp_err_set(err, MP_EINVAL,
                      "no Azure credentials for '%s': minipulumi does not "
                      "read AZURE_STORAGE_CONNECTION_STRING; set "
                      "AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY (its "
                      "AccountName and AccountKey) instead",
                      url);
  return mp_err_set(err, MP_EINVAL,
                    "no Azure credentials for '%s': set AZURE_STORAGE_ACCOUNT "
                    "and AZURE_STORAGE_KEY, or AZURE_STORAGE_SAS_TOKEN (Azure "
                    "AD logins, az login and managed identities, are not "
                    "supported)",
                    url);
}

int mp__az_conf_parse(const char *url, az_conf *c, mp_err *err) {
  memset(c, 0, sizeof(*c));
  char *path, *q;
  if (mp__bucket_url_split(url, "azblob://", "container",
                           "azblob://CONTAINER[/PREFIX]",
                           "Azure credentials come from AZURE_STORAGE_ACCOUNT "
                           "and AZURE_STORAGE_KEY or AZURE_STORAGE_SAS_TOKEN",
                           &c->container, &path, &q, err) < 0)
    return err->code;
  az_params prm = {0};
  /* gocloud's defaults from the environment (NewDefaultServiceURLOptions) */
  if (env_nonempty("AZURE_STORAGE_ACCOUNT"))
    prm.account = mp_xstrdup(env_nonempty("AZURE_STORAGE_ACCOUNT"));
  if (env_nonempty("AZURE_STORAGE_DOMAIN"))
    prm.domain = mp_xstrdup(env_nonempty("AZURE_STORAGE_DOMAIN"));
  if (env_nonempty("AZURE_STORAGE_PROTOCOL"))
    prm.protocol = mp_xstrdup(env_nonempty("AZURE_STORAGE_PROTOCOL"));
  prm.cdn = env_bool("AZURE_STORAGE_IS_CDN");
  prm.localemu = env_bool("AZURE_STORAGE_IS_LOCAL_EMULATOR");
  int rc = parse_query(url, q, &prm, err);
  free(q);

  /* the key prefix: gocloud's ?prefix= then Pulumi's path */
  c->prefix = mp__bucket_prefix(prm.prefix, path);
  c->root = *c->prefix
                ? mp_xasprintf("azblob://%s/%s", c->container, c->prefix)
                : mp_xasprintf("azblob://%s", c->container);
  c->where = mp_xasprintf("azblob://%s", c->container);
  free(path);
  if (rc == 0)
    rc = mp__prefix_check(url, c->prefix, err);

  if (rc == 0 && (prm.account == NULL || *prm.account == '\0'))
    rc = mp_err_set(err, MP_EINVAL,
                    "no Azure storage account for '%s': set "
                    "AZURE_STORAGE_ACCOUNT or add ?storage_account=NAME to "
                    "the URL",
                    url);
  if (rc == 0) {
    c->account = mp_xstrdup(prm.account);
    rc = service_url(url, &prm, c, err);
  }
  if (rc == 0)
    rc = credentials(url, c, err);
  free(prm.account);
  free(prm.domain);
  free(prm.protocol);
  free(prm.prefix);
  if (rc < 0)
    mp__az_conf_free(c);
  return rc;
}
