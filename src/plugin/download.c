/* Downloading a plugin's tarball (plugin/download.h) with libcurl, from
 * the sources Pulumi knows, after its download URL overrides. */
#include "plugin/download.h"

#include <curl/curl.h>
#include <openssl/evp.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "engine/mem.h"
#include "engine/value.h"
#include "plugin/release_json.h"

/* ---- the platform ---- */

const char *mp_plugin_platform_os(void) { return "linux"; }

const char *mp_plugin_platform_arch(void) {
  struct utsname u;
  if (uname(&u) == 0 &&
      (strcmp(u.machine, "aarch64") == 0 || strcmp(u.machine, "arm64") == 0))
    return "arm64";
  return "amd64";
}

/* Go's url.QueryEscape. */
static char *query_escape(const char *s) {
  mp_buf b;
  mp_buf_init(&b);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("-_.~", *p))
      mp_buf_printf(&b, "%c", *p);
    else if (*p == ' ')
      mp_buf_puts(&b, "+");
    else
      mp_buf_printf(&b, "%%%02X", *p);
  }
  if (b.data == NULL)
    mp_buf_puts(&b, "");
  return mp_buf_detach(&b, NULL);
}

static char *asset_name(const char *kind, const char *name, const char *v) {
  return mp_xasprintf("pulumi-%s-%s-v%s-%s-%s.tar.gz", kind, name, v,
                      mp_plugin_platform_os(), mp_plugin_platform_arch());
}

/* Replaces every |from| in |*s| by |to|. */
static void replace_all(char **s, const char *from, const char *to) {
  mp_buf b;
  mp_buf_init(&b);
  size_t n = strlen(from);
  const char *p = *s, *hit;
  while ((hit = strstr(p, from)) != NULL) {
    mp_buf_printf(&b, "%.*s%s", (int)(hit - p), p, to);
    p = hit + n;
  }
  mp_buf_puts(&b, p);
  free(*s);
  *s = mp_buf_detach(&b, NULL);
}

/* ---- overrides: "regexp=URL,..." ---- */

/* Go's named groups `(?P<name>` become plain groups; their names are kept
 * by group number so that `${name}` can be filled in like `$1`. */
static char *posix_pattern(const char *re, mp_strv *names) {
  mp_buf b;
  mp_buf_init(&b);
  size_t group = 0;
  for (const char *p = re; *p; p++) {
    if (*p == '\\' && p[1]) {
      mp_buf_printf(&b, "%c%c", p[0], p[1]);
      p++;
      continue;
    }
    if (*p == '(') {
      group++;
      while (names->len < group)
        mp_strv_push(names, "");
      if (strncmp(p, "(?P<", 4) == 0 && strchr(p + 4, '>')) {
        const char *end = strchr(p + 4, '>');
        char *name = mp_xstrndup(p + 4, (size_t)(end - p - 4));
        free(names->items[group - 1]);
        names->items[group - 1] = name;
        p = end;
      }
      mp_buf_puts(&b, "(");
      continue;
    }
    mp_buf_printf(&b, "%c", *p);
  }
  return mp_buf_detach(&b, NULL);
}

/* The override for |url|, if one matches (owned), else NULL. */
static int apply_overrides(const char *overrides, const char *url, char **out,
                           mp_err *err) {
  *out = NULL;
  if (overrides == NULL || *overrides == '\0')
    return 0;
  char *list = mp_xstrdup(overrides);
  int rc = 0;
  char *save = NULL;
  for (char *pair = strtok_r(list, ",", &save); pair && rc == 0 && !*out;
       pair = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(pair, '=');
    if (eq == NULL || eq == pair || eq[1] == '\0' || strchr(eq + 1, '=')) {
      rc = mp_err_set(err, MP_EINVAL,
                      "error parsing `pluginDownloadURLOverrides`: expected "
                      "format to be \"regexp1=URL1,regexp2=URL2\"; got \"%s\"",
                      overrides);
      break;
    }
    *eq = '\0';
    mp_strv names;
    mp_strv_init(&names);
    char *pat = posix_pattern(pair, &names);
    regex_t re;
    if (regcomp(&re, pat, REG_EXTENDED) != 0) {
      rc = mp_err_set(err, MP_EINVAL,
                      "error parsing `pluginDownloadURLOverrides`: bad "
                      "regular expression '%s'",
                      pair);
    } else {
      regmatch_t m[10];
      if (regexec(&re, url, 10, m, 0) == 0) {
        char *res = mp_xstrdup(eq + 1);
        for (size_t i = 0; i < 10; i++) {
          char *val = m[i].rm_so < 0
                          ? mp_xstrdup("")
                          : mp_xstrndup(url + m[i].rm_so,
                                        (size_t)(m[i].rm_eo - m[i].rm_so));
          char *num = mp_xasprintf("$%zu", i);
          replace_all(&res, num, val);
          free(num);
          if (i > 0 && i <= names.len && names.items[i - 1][0]) {
            char *named = mp_xasprintf("${%s}", names.items[i - 1]);
            replace_all(&res, named, val);
            free(named);
          }
          free(val);
        }
        *out = res;
      }
      regfree(&re);
    }
    free(pat);
    mp_strv_destroy(&names);
  }
  free(list);
  return rc;
}

/* ---- sources ---- */

/* The URL Pulumi matches overrides against: the github:// form for the
 * default source and for github:// sources (with their repository). */
static char *source_url(const char *name, const char *server) {
  if (server == NULL || *server == '\0')
    return mp_xasprintf("github://api.github.com/pulumi/pulumi-%s", name);
  if (strncmp(server, "github://", 9) == 0) {
    const char *path = strchr(server + 9, '/');
    if (path && !strchr(path + 1, '/'))
      return mp_xasprintf("%s/pulumi-%s", server, name);
  }
  return mp_xstrdup(server);
}

static char *interpolate(const char *url, const char *name, const char *v) {
  char *s = mp_xstrdup(url);
  const char *keys[] = {"NAME", "VERSION", "OS", "ARCH"};
  const char *vals[] = {name, v, mp_plugin_platform_os(),
                        mp_plugin_platform_arch()};
  for (size_t i = 0; i < 4; i++) {
    char *val = query_escape(vals[i]);
    char *a = mp_xasprintf("${%s}", keys[i]);
    char *b = mp_xasprintf("$%%7B%s%%7D", keys[i]);
    replace_all(&s, a, val);
    replace_all(&s, b, val);
    free(a);
    free(b);
    free(val);
  }
  return s;
}

static char *http_endpoint(const char *url, const char *kind, const char *name,
                           const char *v) {
  char *base = interpolate(url, name, v);
  size_t n = strlen(base);
  while (n && base[n - 1] == '/')
    base[--n] = '\0';
  char *asset = asset_name(kind, name, v);
  char *esc = query_escape(asset);
  char *end = mp_xasprintf("%s/%s", base, esc);
  free(esc);
  free(asset);
  free(base);
  return end;
}

/* ---- libcurl ---- */

typedef struct sink {
  FILE *f;     /* the tarball, or NULL */
  mp_buf *buf; /* a JSON answer, or NULL */
  const mp_plugin_download_opts *o;
} sink;

static size_t on_data(char *p, size_t size, size_t n, void *ud) {
  sink *s = ud;
  size_t len = size * n;
  if (s->f)
    return fwrite(p, 1, len, s->f);
  mp_buf_printf(s->buf, "%.*s", (int)len, p);
  return len;
}

static int cancelled(const mp_plugin_download_opts *o) {
  return o && o->cancel && *o->cancel;
}

/* libcurl calls it at least once a second, even when nothing arrives: a
 * non-zero answer ends the transfer (CURLE_ABORTED_BY_CALLBACK). */
static int on_progress(void *ud, curl_off_t total, curl_off_t now,
                       curl_off_t ut, curl_off_t un) {
  (void)ut;
  (void)un;
  sink *s = ud;
  if (cancelled(s->o))
    return 1;
  if (s->f && s->o->progress)
    s->o->progress(s->o->progress_ud, (uint64_t)now,
                   total > 0 ? (int64_t)total : -1);
  return 0;
}

/* One GET of |url| into |s|; |*code| the HTTP status (0: no answer). */
static CURLcode get_once(const char *url, const char *accept, const char *auth,
                         sink *s, long *code, char *errbuf) {
  CURL *c = curl_easy_init();
  if (c == NULL)
    return CURLE_FAILED_INIT;
  struct curl_slist *h = NULL;
  char *a = mp_xasprintf("Accept: %s", accept);
  h = curl_slist_append(h, a);
  char *z = auth ? mp_xasprintf("Authorization: %s", auth) : NULL;
  if (z)
    h = curl_slist_append(h, z);
  mp_http_setopts(c, s->o ? &s->o->http : NULL, url);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "pulumi-cli/1 (minipulumi; linux)");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
  curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(c, CURLOPT_XFERINFODATA, s);
  curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  errbuf[0] = '\0';
  CURLcode r = curl_easy_perform(c);
  *code = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, code);
  curl_easy_cleanup(c);
  curl_slist_free_all(h);
  free(a);
  free(z);
  return r;
}

/* A GET with Pulumi's retries: five attempts, 80 ms doubling between
 * them, none after an HTTP answer. |s->f| is rewound before each. */
static int get(const char *url, const char *accept, const char *auth, sink *s,
               mp_err *err) {
  mp_http_init();
  long delay_ms = 80;
  for (int attempt = 1;; attempt++) {
    if (s->f) {
      rewind(s->f);
      if (ftruncate(fileno(s->f), 0) != 0) {
        return mp_err_set(err, MP_EIO, "cannot write the download: %s",
                          strerror(errno));
      }
    } else {
      mp_buf_reset(s->buf);
    }
    char errbuf[CURL_ERROR_SIZE];
    long code = 0;
    CURLcode r = get_once(url, accept, auth, s, &code, errbuf);
    if (r == CURLE_OK && code >= 200 && code <= 299)
      return 0;
    if (r == CURLE_OK)
      return mp_err_set(err, MP_EIO, "%ld HTTP error fetching plugin from %s",
                        code, url);
    if (r == CURLE_WRITE_ERROR)
      return mp_err_set(err, MP_EIO, "cannot write the download of %s", url);
    if (r == CURLE_ABORTED_BY_CALLBACK || cancelled(s->o))
      return mp_err_set(err, MP_ECANCELED, "the download of %s was cancelled",
                        url);
    /* Deterministic, or a server that answered and then sent nothing for
     * the stall limit: another attempt would only wait as long again. */
    if (r == CURLE_TOO_MANY_REDIRECTS ||
        (r == CURLE_OPERATION_TIMEDOUT && code != 0))
      return mp_err_set(err, MP_EIO, "%s: %s", url,
                        errbuf[0] ? errbuf : curl_easy_strerror(r));
    if (attempt == 5)
      return mp_err_set(err, MP_EIO, "failed all 5 attempts: %s: %s", url,
                        errbuf[0] ? errbuf : curl_easy_strerror(r));
    struct timespec ts = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    delay_ms *= 2;
  }
}

/* ---- GitHub and GitLab releases ---- */

/* A github://<host>/<org>[/<repo>] or gitlab://<host>/<project> source. */
typedef struct release_src {
  int gitlab;
  char *host;
  char *owner; /* GitHub: the organisation; GitLab: the project */
  char *repo;  /* GitHub only */
  char *auth;  /* the Authorization header's value, or NULL */
} release_src;

static void release_src_free(release_src *r) {
  free(r->host);
  free(r->owner);
  free(r->repo);
  free(r->auth);
}

/* Splits "<scheme>://<host>/<path>" (|path| without its leading '/' and
 * trailing '/'s). */
static void split_url(const char *url, char **host, char **path) {
  const char *h = strstr(url, "://") + 3;
  const char *slash = strchr(h, '/');
  *host = mp_xstrndup(h, slash ? (size_t)(slash - h) : strlen(h));
  const char *p = slash ? slash + 1 : "";
  size_t len = strlen(p);
  while (len && p[len - 1] == '/')
    len--;
  *path = mp_xstrndup(p, len);
}

/* Parses |src| (github:// or gitlab://) for plugin |name|, as Pulumi's
 * newGithubSource and newGitlabSource check it. */
static int release_src_parse(const char *src, const char *name,
                             const mp_plugin_download_opts *o, release_src *r,
                             mp_err *err) {
  memset(r, 0, sizeof(*r));
  r->gitlab = strncmp(src, "gitlab://", 9) == 0;
  char *path = NULL;
  split_url(src, &r->host, &path);
  char *slash = strchr(path, '/');
  int bad = *r->host == '\0' || *path == '\0' ||
            (r->gitlab ? slash != NULL : slash && strchr(slash + 1, '/'));
  int rc = 0;
  if (bad && r->gitlab)
    rc = mp_err_set(err, MP_EINVAL,
                    "gitlab:// url must have the format <host>/<project>, "
                    "was: %s",
                    src);
  else if (bad)
    rc = mp_err_set(err, MP_EINVAL,
                    "github:// url must have the format "
                    "<host>/<organization>[/<repository>], was: %s",
                    src);
  else if (r->gitlab)
    r->owner = mp_xstrdup(path);
  else {
    r->owner =
        slash ? mp_xstrndup(path, (size_t)(slash - path)) : mp_xstrdup(path);
    r->repo = slash ? mp_xstrdup(slash + 1) : mp_xasprintf("pulumi-%s", name);
  }
  const char *token = r->gitlab ? o->gitlab_token : o->github_token;
  if (rc == 0 && token && *token)
    r->auth = mp_xasprintf("%s %s", r->gitlab ? "Bearer" : "token", token);
  free(path);
  if (rc < 0)
    release_src_free(r);
  return rc;
}

/* GETs |url| and decodes its JSON answer into |*doc| (owned). */
static int get_json(const char *url, const char *auth,
                    const mp_plugin_download_opts *o, const char *what,
                    mp_value **doc, mp_err *err) {
  mp_buf body;
  mp_buf_init(&body);
  sink s = {NULL, &body, o};
  *doc = NULL;
  int rc = get(url, "application/json", auth, &s, err);
  if (rc == 0)
    rc = mp_release_json_decode(body.data, body.len, what, doc, err);
  mp_buf_destroy(&body);
  return rc;
}

/* A GitHub release's asset: its API URL, found in the release's JSON. */
static int github_asset(const release_src *r, const char *asset, const char *v,
                        const mp_plugin_download_opts *o, char **url,
                        mp_err *err) {
  char *rel = mp_xasprintf("https://%s/repos/%s/%s/releases/tags/v%s", r->host,
                           r->owner, r->repo, v);
  mp_value *doc = NULL;
  int rc = get_json(rel, r->auth, o, "github", &doc, err);
  *url = NULL;
  if (rc == 0)
    rc = mp_release_json_asset(doc, asset, url, err);
  mp_value_free(doc);
  free(rel);
  return rc;
}

static int from_release(const char *src, const char *kind, const char *name,
                        const char *v, const mp_plugin_download_opts *o,
                        sink *s, mp_err *err) {
  release_src r;
  if (release_src_parse(src, name, o, &r, err) < 0)
    return err->code;
  char *asset = asset_name(kind, name, v);
  char *url = NULL;
  int rc = 0;
  if (r.gitlab)
    url = mp_xasprintf("https://%s/api/v4/projects/%s/releases/v%s/downloads/%s",
                       r.host, r.owner, v, asset);
  else
    rc = github_asset(&r, asset, v, o, &url, err);
  if (rc == 0)
    rc = get(url, "application/octet-stream", r.auth, s, err);
  free(url);
  free(asset);
  release_src_free(&r);
  return rc;
}

/* The tag of the latest release, as a version. */
static int release_latest(const char *src, const char *name,
                          const mp_plugin_download_opts *o, mp_semver *out,
                          mp_err *err) {
  release_src r;
  if (release_src_parse(src, name, o, &r, err) < 0)
    return err->code;
  char *url =
      r.gitlab
          ? mp_xasprintf("https://%s/api/v4/projects/%s/releases/permalink/"
                         "latest",
                         r.host, r.owner)
          : mp_xasprintf("https://%s/repos/%s/%s/releases/latest", r.host,
                         r.owner, r.repo);
  mp_value *doc = NULL;
  int rc = get_json(url, r.auth, o, r.gitlab ? "gitlab" : "github", &doc, err);
  if (rc == 0)
    rc = mp_release_json_tag(doc, out, err);
  mp_value_free(doc);
  free(url);
  release_src_free(&r);
  return rc;
}

static int from_source(const char *src, const char *kind, const char *name,
                       const char *v, const mp_plugin_download_opts *o, sink *s,
                       mp_err *err) {
  if (strncmp(src, "http://", 7) == 0 || strncmp(src, "https://", 8) == 0) {
    char *url = http_endpoint(src, kind, name, v);
    int rc = get(url, "*/*", NULL, s, err);
    free(url);
    return rc;
  }
  if (strncmp(src, "github://", 9) == 0 || strncmp(src, "gitlab://", 9) == 0)
    return from_release(src, kind, name, v, o, s, err);
  const char *colon = strstr(src, "://");
  return mp_err_set(err, MP_EINVAL, "unknown plugin source scheme: %.*s",
                    colon ? (int)(colon - src) : (int)strlen(src), src);
}

/* The source after overrides (owned), and whether it is Pulumi's default
 * (GitHub, then its download server). */
static int resolve(const char *name, const mp_plugin_download_opts *o,
                   char **src, int *fallback, mp_err *err) {
  char *match = source_url(name, o->server);
  char *over = NULL;
  int rc = apply_overrides(o->overrides, match, &over, err);
  *fallback = over == NULL && (o->server == NULL || *o->server == '\0');
  *src = over ? over : mp_xstrdup(o->server ? o->server : "");
  free(match);
  if (rc < 0) {
    free(*src);
    *src = NULL;
  }
  return rc;
}

int mp_plugin_download_source(const char *kind, const char *name,
                              const mp_semver *version,
                              const mp_plugin_download_opts *o, char **url,
                              mp_err *err) {
  *url = NULL;
  char *src = NULL;
  int fallback = 0;
  int rc = resolve(name, o, &src, &fallback, err);
  if (rc < 0)
    return rc;
  char *v = mp_semver_format(version);
  if (fallback)
    *url = source_url(name, NULL);
  else if (strncmp(src, "http://", 7) == 0 || strncmp(src, "https://", 8) == 0)
    *url = http_endpoint(src, kind, name, v);
  else
    *url = mp_xstrdup(src);
  free(v);
  free(src);
  return 0;
}

/* The SHA-256 of the file |path| against the hex digest |want|, as
 * Pulumi's checksumSource compares them. */
static int check_sum(const char *path, const char *want, mp_err *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return mp_err_set(err, MP_EIO, "cannot read '%s': %s", path,
                      strerror(errno));
  EVP_MD_CTX *md = EVP_MD_CTX_new();
  EVP_DigestInit_ex(md, EVP_sha256(), NULL);
  unsigned char buf[65536], sum[EVP_MAX_MD_SIZE];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    EVP_DigestUpdate(md, buf, n);
  unsigned len = 0;
  EVP_DigestFinal_ex(md, sum, &len);
  EVP_MD_CTX_free(md);
  fclose(f);
  char got[2 * EVP_MAX_MD_SIZE + 1];
  for (unsigned i = 0; i < len; i++)
    snprintf(got + 2 * i, 3, "%02x", sum[i]);
  got[2 * len] = '\0';
  if (strcasecmp(got, want) == 0)
    return 0;
  return mp_err_set(err, MP_EINVAL, "invalid checksum, expected %s, actual %s",
                    want, got);
}

int mp_plugin_download(const char *kind, const char *name,
                       const mp_semver *version,
                       const mp_plugin_download_opts *o, const char *dest,
                       mp_err *err) {
  char *src = NULL;
  int fallback = 0;
  int rc = resolve(name, o, &src, &fallback, err);
  if (rc < 0)
    return rc;
  FILE *f = fopen(dest, "wb");
  if (f == NULL) {
    free(src);
    return mp_err_set(err, MP_EIO, "cannot create '%s': %s", dest,
                      strerror(errno));
  }
  sink s = {f, NULL, o};
  char *v = mp_semver_format(version);
  if (fallback) {
    char *gh = source_url(name, NULL);
    rc = from_source(gh, kind, name, v, o, &s, err);
    free(gh);
    if (rc < 0 && rc != MP_ECANCELED) {
      /* As Pulumi: GitHub first, then its download server. */
      char *asset = asset_name(kind, name, v);
      char *esc = query_escape(asset);
      char *url =
          mp_xasprintf("https://get.pulumi.com/releases/plugins/%s", esc);
      rc = get(url, "*/*", NULL, &s, err);
      free(url);
      free(esc);
      free(asset);
    }
  } else {
    rc = from_source(src, kind, name, v, o, &s, err);
  }
  if (fclose(f) != 0 && rc == 0)
    rc =
        mp_err_set(err, MP_EIO, "cannot write '%s': %s", dest, strerror(errno));
  if (rc == 0 && o->checksum && *o->checksum)
    rc = check_sum(dest, o->checksum, err);
  free(v);
  free(src);
  return rc;
}

int mp_plugin_latest_version(const char *kind, const char *name,
                             const mp_plugin_download_opts *o, mp_semver *out,
                             mp_err *err) {
  (void)kind;
  char *src = NULL;
  int fallback = 0;
  int rc = resolve(name, o, &src, &fallback, err);
  if (rc < 0)
    return rc;
  if (fallback) {
    free(src);
    src = source_url(name, NULL);
  }
  if (strncmp(src, "github://", 9) == 0 || strncmp(src, "gitlab://", 9) == 0)
    rc = release_latest(src, name, o, out, err);
  else
    rc = mp_err_set(err, MP_EINVAL,
                    "GetLatestVersion is not supported for plugins from http "
                    "sources");
  free(src);
  return rc;
}
