/* The objects of a DIY store in an S3 bucket (`s3://BUCKET[/PREFIX]`), as
 * Pulumi's DIY backend keeps them through gocloud's blob package: each
 * path under the root is the key PREFIX/<path>; a folder is a key prefix
 * ending in '/', listed with ListObjectsV2 and the delimiter '/'. A put is
 * one PutObject (S3 shows readers the old object or the new one, never a
 * torn one); a copy is CopyObject. */
#include "state/blob_util.h"
#include "state/s3_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <libxml/tree.h>

typedef struct s3_objs {
  mp_diy_objs base;
  s3_conf c;
} s3_objs;

static s3_objs *S(mp_diy_objs *o) { return (s3_objs *)o; }

/* The key of |path| (which starts with the root). Owned. */
static char *key_of(const s3_conf *c, const char *path) {
  size_t n = strlen(c->root);
  if (strncmp(path, c->root, n) != 0 || (path[n] != '/' && path[n] != '\0'))
    MP_BUG("path '%s' is not under '%s'", path, c->root);
  const char *rest = path[n] == '/' ? path + n + 1 : path + n;
  if (*c->prefix == '\0')
    return mp_xstrdup(rest);
  return mp_xasprintf("%s/%s", c->prefix, rest);
}

int mp__s3_fail(const s3_conf *c, const char *what, const char *key,
                const s3_reply *r, mp_err *err) {
  char *code = NULL, *msg = NULL;
  xmlDoc *doc = mp__xml_parse(&r->body);
  xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
  if (root && strcmp((const char *)root->name, "Error") == 0) {
    code = mp__xml_text(mp__xml_child(root, "Code"));
    msg = mp__xml_text(mp__xml_child(root, "Message"));
  }
  if (doc)
    xmlFreeDoc(doc);
  if (code == NULL) /* a HEAD has no body: S3's codes for its statuses */
    code = mp_xstrdup(r->status == 404   ? "NotFound"
                      : r->status == 403 ? "Forbidden"
                      : r->status == 301 ? "PermanentRedirect"
                      : r->status == 400 ? "BadRequest"
                                         : "Error");
  int enoent = strcmp(code, "NoSuchKey") == 0 ||
               (strcmp(code, "NotFound") == 0 && key != NULL);
  const char *hint = "";
  if (strcmp(code, "NoSuchBucket") == 0)
    hint = "; create the bucket or check its name";
  else if (strcmp(code, "AccessDenied") == 0 ||
           strcmp(code, "Forbidden") == 0 ||
           strcmp(code, "InvalidAccessKeyId") == 0 ||
           strcmp(code, "SignatureDoesNotMatch") == 0)
    hint = "; check the AWS credentials and the bucket's policy";
  else if (strcmp(code, "PermanentRedirect") == 0 ||
           strcmp(code, "AuthorizationHeaderMalformed") == 0 ||
           strcmp(code, "IllegalLocationConstraintException") == 0)
    hint = "; the bucket is in another region: set ?region= in the URL or "
           "AWS_REGION";
  int rc = mp_err_set(err, enoent ? MP_ENOENT : MP_EIO,
                      "cannot %s 's3://%s/%s': S3 answered %ld %s%s%s%s",
                      what, c->bucket, key ? key : "", r->status, code,
                      msg && *msg ? ": " : "", msg ? msg : "", hint);
  free(code);
  free(msg);
  return rc;
}

static int ok(const s3_reply *r) { return r->status >= 200 && r->status < 300; }

static int s3_get(mp_diy_objs *o, const char *path, mp_buf *out,
                  mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, path);
  s3_reply r;
  int rc = mp__s3_request(c, "GET", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (ok(&r))
      mp_buf_append(out, r.body.data ? r.body.data : "", r.body.len);
    else
      rc = mp__s3_fail(c, "read", key, &r, err);
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int s3_put(mp_diy_objs *o, const char *path, const char *data,
                  size_t len, mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, path);
  s3_reply r;
  int rc = mp__s3_request(c, "PUT", key, NULL, data, len, NULL, &r, err);
  if (rc == 0) {
    if (!ok(&r))
      rc = mp__s3_fail(c, "write", key, &r, err);
    if (rc == MP_ENOENT)
      rc = err->code = MP_EIO;
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int del_key(s3_conf *c, const char *key, mp_err *err) {
  s3_reply r;
  int rc = mp__s3_request(c, "DELETE", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (!ok(&r) && r.status != 404)
      rc = mp__s3_fail(c, "remove", key, &r, err);
    mp_buf_destroy(&r.body);
  }
  return rc;
}

static int s3_del(mp_diy_objs *o, const char *path, mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, path);
  int rc = del_key(c, key, err);
  free(key);
  return rc;
}

/* ListObjectsV2 of |prefix| (ending in '/'), every page: each key (all of
 * them with |deep|, else only those directly under it, and the folders'
 * names) into |out|. With |deep| the whole keys, else the names. */
static int list_keys(s3_conf *c, const char *prefix, int deep, mp_strv *out,
                     mp_err *err) {
  char *eprefix = mp__url_encode(prefix, 0);
  char *token = NULL, *last = NULL; /* this page's token, the one before */
  int rc = 0;
  size_t pl = strlen(prefix);
  do {
    /* the parameters in the order SigV4's canonical query wants */
    char *etoken = token ? mp__url_encode(token, 0) : NULL;
    char *q = mp_xasprintf("%s%s%s%slist-type=2&prefix=%s",
                           etoken ? "continuation-token=" : "",
                           etoken ? etoken : "", etoken ? "&" : "",
                           deep ? "" : "delimiter=%2F&", eprefix);
    free(etoken);
    free(last);
    last = token;
    token = NULL;
    s3_reply r;
    rc = mp__s3_request(c, "GET", NULL, q, NULL, 0, NULL, &r, err);
    free(q);
    if (rc < 0)
      break;
    if (!ok(&r)) {
      rc = mp__s3_fail(c, "list", prefix, &r, err);
      if (rc == MP_ENOENT)
        rc = err->code = MP_EIO;
      mp_buf_destroy(&r.body);
      break;
    }
    xmlDoc *doc = mp__xml_parse(&r.body);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root == NULL ||
        strcmp((const char *)root->name, "ListBucketResult") != 0) {
      rc = mp_err_set(err, MP_EPROTO,
                      "cannot list 's3://%s/%s': the answer is no "
                      "ListBucketResult",
                      c->bucket, prefix);
    } else {
      for (xmlNode *n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
          continue;
        int is_obj = strcmp((const char *)n->name, "Contents") == 0;
        int is_dir = strcmp((const char *)n->name, "CommonPrefixes") == 0;
        if (!is_obj && !is_dir)
          continue;
        char *k = mp__xml_text(mp__xml_child(n, is_obj ? "Key" : "Prefix"));
        if (k && strlen(k) > pl && strncmp(k, prefix, pl) == 0) {
          if (deep) {
            mp_strv_push(out, k);
          } else {
            char *name = k + pl;
            size_t nl = strlen(name);
            if (nl > 0 && name[nl - 1] == '/')
              name[nl - 1] = '\0';
            if (*name && !mp_strv_contains(out, name))
              mp_strv_push(out, name);
          }
        }
        free(k);
      }
      char *trunc = mp__xml_text(mp__xml_child(root, "IsTruncated"));
      if (trunc && strcmp(trunc, "true") == 0)
        token = mp__xml_text(mp__xml_child(root, "NextContinuationToken"));
      free(trunc);
      /* a server that gives no new token would be asked for ever */
      if (token && (*token == '\0' || (last && !strcmp(token, last)))) {
        rc = mp_err_set(err, MP_EPROTO,
                        "cannot list 's3://%s/%s': the server said there is "
                        "more but gave %s continuation token; check the "
                        "endpoint",
                        c->bucket, prefix, *token ? "the same" : "an empty");
        free(token);
        token = NULL;
      }
    }
    if (doc)
      xmlFreeDoc(doc);
    mp_buf_destroy(&r.body);
  } while (rc == 0 && token);
  free(token);
  free(last);
  free(eprefix);
  return rc;
}

static int s3_list(mp_diy_objs *o, const char *dir, mp_strv *out,
                   mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, dir);
  char *prefix = mp_xasprintf("%s/", key);
  int rc = list_keys(c, prefix, 0, out, err);
  free(prefix);
  free(key);
  return rc;
}

static int s3_copy(mp_diy_objs *o, const char *from, const char *to,
                   mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *fk = key_of(c, from), *tk = key_of(c, to);
  char *src = mp_xasprintf("%s/%s", c->bucket, fk);
  char *esrc = mp__url_encode(src, 1);
  char *h = mp_xasprintf("x-amz-copy-source: /%s", esrc);
  s3_reply r;
  int rc = mp__s3_request(c, "PUT", tk, NULL, NULL, 0, h, &r, err);
  if (rc == 0) {
    /* a CopyObject may fail with 200 and an Error body */
    int failed = !ok(&r) || (r.body.data && strstr(r.body.data, "<Error>"));
    if (failed)
      rc = mp__s3_fail(c, "copy", fk, &r, err);
    mp_buf_destroy(&r.body);
  }
  free(h);
  free(esrc);
  free(src);
  free(fk);
  free(tk);
  return rc;
}

static int s3_head(mp_diy_objs *o, const char *path, mp_diy_obj_info *info,
                   mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, path);
  s3_reply r;
  int rc = mp__s3_request(c, "HEAD", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (ok(&r)) {
      time_t t = curl_getdate(r.last_modified, NULL);
      info->mtime_ns = (int64_t)t * 1000000000;
      snprintf(info->ident, sizeof(info->ident), "%.40s:%.40s", r.etag,
               r.last_modified);
    } else {
      rc = mp__s3_fail(c, "read", key, &r, err);
    }
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int s3_del_tree(mp_diy_objs *o, const char *dir, mp_err *err) {
  s3_conf *c = &S(o)->c;
  char *key = key_of(c, dir);
  char *prefix = mp_xasprintf("%s/", key);
  mp_strv keys;
  mp_strv_init(&keys);
  int rc = list_keys(c, prefix, 1, &keys, err);
  for (size_t i = 0; rc == 0 && i < keys.len; i++)
    rc = del_key(c, keys.items[i], err);
  if (rc == 0)
    rc = del_key(c, key, err); /* |dir| may be an object itself */
  mp_strv_destroy(&keys);
  free(prefix);
  free(key);
  return rc;
}

/* Whether the bucket answers to us: one listing of the root. */
static int s3_writable(mp_diy_objs *o, mp_err *err) {
  s3_conf *c = &S(o)->c;
  mp_strv names;
  mp_strv_init(&names);
  char *prefix = *c->prefix ? mp_xasprintf("%s/.pulumi/", c->prefix)
                            : mp_xstrdup(".pulumi/");
  int rc = list_keys(c, prefix, 0, &names, err);
  free(prefix);
  mp_strv_destroy(&names);
  return rc;
}

static void s3_free(mp_diy_objs *o) {
  mp__s3_conf_free(&S(o)->c);
  free(o);
}

static const mp_diy_objs_ops s3_ops = {
    .get = s3_get,
    .put = s3_put,
    .del = s3_del,
    .list = s3_list,
    .copy = s3_copy,
    .head = s3_head,
    .del_tree = s3_del_tree,
    .move = NULL,
    .mkdirs = NULL,
    .writable = s3_writable,
    .free = s3_free,
};

int mp__diy_objs_s3(const char *url, const char *home, mp_diy_objs **out,
                    char **root, mp_err *err) {
  *out = NULL;
  *root = NULL;
  s3_objs *o = mp_xcalloc(1, sizeof(*o));
  o->base.ops = &s3_ops;
  if (mp__s3_conf_parse(url, home, &o->c, err) < 0) {
    free(o);
    return err->code;
  }
  *root = mp_xstrdup(o->c.root);
  *out = &o->base;
  return 0;
}
