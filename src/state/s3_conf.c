/* Where an `s3://` store is and who we are there: the URL's parameters as
 * gocloud's s3blob URL opener reads them (Pulumi hands the URL to it
 * untouched and puts the path in front of every key, backend.go
 * newDIYBackend), and the credentials and region as the AWS CLI and SDKs
 * find them: the environment, then the profile's entries in the shared
 * credentials and config files. */
#include "state/blob_util.h"
#include "state/s3_int.h"
#include "state/store.h"
#include "state/store_int.h"

#include <ctype.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static char *home_of(const char *home) {
  if (home && *home)
    return mp_xstrdup(home);
  const char *h = mp__store_env("HOME");
  if (h && *h)
    return mp_xstrdup(h);
  struct passwd *pw = getpwuid(getuid());
  return pw && pw->pw_dir ? mp_xstrdup(pw->pw_dir) : mp_xstrdup("/");
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
  return s;
}

/* The value of |key| in section |section| of INI file |path| (owned), or
 * NULL. */
static char *ini_get(const char *path, const char *section, const char *key) {
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return NULL;
  char line[4096];
  int in = 0;
  char *found = NULL;
  while (found == NULL && fgets(line, sizeof(line), f)) {
    char *l = trim(line);
    if (*l == '#' || *l == ';' || *l == '\0')
      continue;
    if (*l == '[') {
      char *end = strchr(l, ']');
      if (end) {
        *end = '\0';
        in = strcmp(trim(l + 1), section) == 0;
      }
      continue;
    }
    char *eq = strchr(l, '=');
    if (!in || eq == NULL)
      continue;
    *eq = '\0';
    if (strcmp(trim(l), key) == 0)
      found = mp_xstrdup(trim(eq + 1));
  }
  fclose(f);
  return found;
}

static const char *env_nonempty(const char *name) {
  const char *v = mp__store_env(name);
  return v && *v ? v : NULL;
}

/* The profile's |key|: the credentials file's [name], then the config
 * file's [profile name] ([default] for the default profile). */
static char *profile_get(const char *home, const char *profile,
                         const char *key, int creds_first) {
  const char *cf = env_nonempty("AWS_SHARED_CREDENTIALS_FILE");
  const char *kf = env_nonempty("AWS_CONFIG_FILE");
  char *cpath = cf ? mp_xstrdup(cf) : mp_xasprintf("%s/.aws/credentials", home);
  char *kpath = kf ? mp_xstrdup(kf) : mp_xasprintf("%s/.aws/config", home);
  char *section = strcmp(profile, "default") == 0
                      ? mp_xstrdup("default")
                      : mp_xasprintf("profile %s", profile);
  char *v = creds_first ? ini_get(cpath, profile, key) : NULL;
  if (v == NULL)
    v = ini_get(kpath, section, key);
  free(section);
  free(cpath);
  free(kpath);
  return v;
}

void mp__s3_conf_free(s3_conf *c) {
  free(c->bucket);
  free(c->prefix);
  free(c->region);
  free(c->scheme);
  free(c->host);
  free(c->base_path);
  free(c->key_id);
  free(c->secret);
  free(c->token);
  free(c->root);
  free(c->where);
  memset(c, 0, sizeof(*c));
}

/* The endpoint parameter: a URL (SDK v2) or a bare host[:port] (SDK v1,
 * whose scheme disableSSL picks). */
static void set_endpoint(s3_conf *c, const char *ep, int no_ssl) {
  const char *rest = ep;
  const char *sep = strstr(ep, "://");
  free(c->scheme);
  if (sep) {
    c->scheme = mp_xstrndup(ep, (size_t)(sep - ep));
    rest = sep + 3;
  } else {
    c->scheme = mp_xstrdup(no_ssl ? "http" : "https");
  }
  size_t hl = strcspn(rest, "/");
  free(c->host);
  c->host = mp_xstrndup(rest, hl);
  free(c->base_path);
  c->base_path = mp_xstrdup(rest + hl);
  size_t n = strlen(c->base_path);
  while (n > 0 && c->base_path[n - 1] == '/')
    c->base_path[--n] = '\0';
}

int mp__s3_conf_parse(const char *url, const char *home_opt, s3_conf *c,
                      mp_err *err) {
  memset(c, 0, sizeof(*c));
  char *path, *q;
  if (mp__bucket_url_split(url, "s3://", "bucket",
                           "s3://BUCKET[/PREFIX][?region=...]",
                           "S3 credentials come from AWS_ACCESS_KEY_ID and "
                           "AWS_SECRET_ACCESS_KEY or a profile",
                           &c->bucket, &path, &q, err) < 0)
    return err->code;
  char *region = NULL, *endpoint = NULL, *profile = NULL, *qprefix = NULL;
  int path_style = 0, no_ssl = 0, rc = 0;
  char *k, *v;
  for (char *cur = q; rc == 0 && mp__bucket_query_next(&cur, &k, &v);) {
    int b;
    if (strcmp(k, "region") == 0) {
      free(region);
      region = mp_xstrdup(v);
    } else if (strcmp(k, "endpoint") == 0) {
      free(endpoint);
      endpoint = mp_xstrdup(v);
    } else if (strcmp(k, "profile") == 0) {
      free(profile);
      profile = mp_xstrdup(v);
    } else if (strcmp(k, "prefix") == 0) {
      free(qprefix);
      qprefix = mp_xstrdup(v);
    } else if (strcmp(k, "s3ForcePathStyle") == 0 ||
               strcmp(k, "use_path_style") == 0) {
      if (mp__go_parse_bool(v, &b) < 0)
        rc = mp_err_set(err, MP_EINVAL,
                        "invalid value '%s' of %s in '%s': true or false", v,
                        k, url);
      path_style = b;
    } else if (strcmp(k, "disableSSL") == 0 ||
               strcmp(k, "disable_https") == 0) {
      if (mp__go_parse_bool(v, &b) < 0)
        rc = mp_err_set(err, MP_EINVAL,
                        "invalid value '%s' of %s in '%s': true or false", v,
                        k, url);
      no_ssl = b;
    } else if (strcmp(k, "awssdk") == 0) {
      /* picks the Go SDK's version in gocloud; no meaning here */
      if (strcmp(v, "v1") != 0 && strcmp(v, "v2") != 0 &&
          strcmp(v, "V1") != 0 && strcmp(v, "V2") != 0 && *v)
        rc = mp_err_set(err, MP_EINVAL,
                        "invalid value '%s' of awssdk in '%s': v1 or v2", v,
                        url);
    } else {
      rc = mp_err_set(err, MP_EINVAL,
                      "unknown query parameter '%s' in '%s'; an s3:// URL "
                      "takes region, endpoint, s3ForcePathStyle, "
                      "use_path_style, disableSSL, disable_https, profile, "
                      "prefix and awssdk",
                      k, url);
    }
    free(k);
    free(v);
  }
  free(q);
  /* the key prefix: gocloud's ?prefix= then Pulumi's path */
  c->prefix = mp__bucket_prefix(qprefix, path);
  c->root = *c->prefix ? mp_xasprintf("s3://%s/%s", c->bucket, c->prefix)
                       : mp_xasprintf("s3://%s", c->bucket);
  c->where = mp_xasprintf("s3://%s", c->bucket);
  free(path);
  free(qprefix);
  if (rc == 0)
    rc = mp__prefix_check(url, c->prefix, err);

  char *home = home_of(home_opt);
  const char *prof = profile ? profile : env_nonempty("AWS_PROFILE");
  if (prof == NULL)
    prof = "default";
  /* the region: the URL, the environment, the profile */
  if (rc == 0) {
    if (region && *region)
      c->region = mp_xstrdup(region);
    else if (env_nonempty("AWS_REGION"))
      c->region = mp_xstrdup(env_nonempty("AWS_REGION"));
    else if (env_nonempty("AWS_DEFAULT_REGION"))
      c->region = mp_xstrdup(env_nonempty("AWS_DEFAULT_REGION"));
    else
      c->region = profile_get(home, prof, "region", 0);
    if (c->region == NULL)
      rc = mp_err_set(err, MP_EINVAL,
                      "no AWS region for '%s': add ?region=REGION to the URL, "
                      "or set AWS_REGION, or region in the profile '%s'",
                      url, prof);
  }
  /* the credentials: the environment (unless the URL names a profile, as
   * gocloud's profile= makes the SDK read that profile), then the
   * profile */
  if (rc == 0) {
    const char *ak = env_nonempty("AWS_ACCESS_KEY_ID");
    const char *sk = env_nonempty("AWS_SECRET_ACCESS_KEY");
    if (profile == NULL && ak && sk) {
      c->key_id = mp_xstrdup(ak);
      c->secret = mp_xstrdup(sk);
      const char *tok = env_nonempty("AWS_SESSION_TOKEN");
      c->token = tok ? mp_xstrdup(tok) : NULL;
    } else {
      c->key_id = profile_get(home, prof, "aws_access_key_id", 1);
      c->secret = profile_get(home, prof, "aws_secret_access_key", 1);
      c->token = profile_get(home, prof, "aws_session_token", 1);
    }
    if (c->key_id == NULL || c->secret == NULL)
      rc = mp_err_set(err, MP_EINVAL,
                      "no AWS credentials for '%s': set AWS_ACCESS_KEY_ID and "
                      "AWS_SECRET_ACCESS_KEY, or aws_access_key_id and "
                      "aws_secret_access_key of the profile '%s' in "
                      "~/.aws/credentials",
                      url, prof);
  }
  free(home);
  if (rc == 0) {
    if (endpoint && *endpoint) {
      set_endpoint(c, endpoint, no_ssl);
    } else {
      char *ep = mp_xasprintf("s3.%s.amazonaws.com", c->region);
      set_endpoint(c, ep, no_ssl);
      free(ep);
    }
    c->path_style = path_style;
  }
  free(region);
  free(endpoint);
  free(profile);
  if (rc < 0)
    mp__s3_conf_free(c);
  return rc;
}
