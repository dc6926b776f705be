/* The objects of a DIY store in an Azure Blob container
 * (`azblob://CONTAINER[/PREFIX]`), as Pulumi's DIY backend keeps them
 * through gocloud's azureblob: each path under the root is the block blob
 * PREFIX/<path>; a folder is a name prefix ending in '/', listed with List
 * Blobs and the delimiter '/'. A put is one Put Blob (readers see the old
 * blob or the new one, never a torn one); a copy is Copy Blob, which
 * Azure makes at once within an account (a pending one is waited for, as
 * gocloud's Copy does). Pulumi's names need none of gocloud's key
 * escaping (names are letters, digits, '-', '_', '.'). */
#include "state/az_int.h"
#include "state/blob_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>
#include <libxml/tree.h>

typedef struct az_objs {
  mp_diy_objs base;
  az_conf c;
} az_objs;

static az_objs *A(mp_diy_objs *o) { return (az_objs *)o; }

/* The blob name of |path| (which starts with the root). Owned. */
static char *blob_of(const az_conf *c, const char *path) {
  size_t n = strlen(c->root);
  if (strncmp(path, c->root, n) != 0 || (path[n] != '/' && path[n] != '\0'))
    MP_BUG("path '%s' is not under '%s'", path, c->root);
  const char *rest = path[n] == '/' ? path + n + 1 : path + n;
  if (*c->prefix == '\0')
    return mp_xstrdup(rest);
  return mp_xasprintf("%s/%s", c->prefix, rest);
}

int mp__az_fail(const az_conf *c, const char *what, const char *blob,
                const az_reply *r, mp_err *err) {
  char *code = NULL, *msg = NULL;
  xmlDoc *doc = mp__xml_parse(&r->body);
  xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
  if (root && strcmp((const char *)root->name, "Error") == 0) {
    code = mp__xml_text(mp__xml_child(root, "Code"));
    msg = mp__xml_text(mp__xml_child(root, "Message"));
  }
  if (doc)
    xmlFreeDoc(doc);
  if (msg) /* Azure adds "\nRequestId:...\nTime:..." lines */
    msg[strcspn(msg, "\r\n")] = '\0';
  if (code == NULL && *r->error_code) /* a HEAD: the header alone */
    code = mp_xstrdup(r->error_code);
  if (code == NULL)
    code = mp_xstrdup(r->status == 404   ? "NotFound"
                      : r->status == 403 ? "Forbidden"
                      : r->status == 400 ? "BadRequest"
                                         : "Error");
  int enoent = strcmp(code, "BlobNotFound") == 0 ||
               (strcmp(code, "NotFound") == 0 && blob != NULL);
  const char *hint = "";
  if (strcmp(code, "ContainerNotFound") == 0)
    hint = "; create the container (az storage container create) or check "
           "its name";
  else if (strcmp(code, "AuthenticationFailed") == 0 ||
           strcmp(code, "InvalidAuthenticationInfo") == 0 ||
           strncmp(code, "Authorization", 13) == 0 ||
           strcmp(code, "Forbidden") == 0)
    hint = c->key ? "; check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY"
                  : "; check AZURE_STORAGE_SAS_TOKEN (its permissions and "
                    "expiry)";
  else if (strcmp(code, "InvalidResourceName") == 0 ||
           strcmp(code, "OutOfRangeInput") == 0)
    hint = "; a container name is 3 to 63 lower-case letters, digits and "
           "'-'";
  int rc = mp_err_set(err, enoent ? MP_ENOENT : MP_EIO,
                      "cannot %s 'azblob://%s/%s': Azure answered %ld %s%s%s%s",
                      what, c->container, blob ? blob : "", r->status, code,
                      msg && *msg ? ": " : "", msg ? msg : "", hint);
  free(code);
  free(msg);
  return rc;
}

static int ok(const az_reply *r) { return r->status >= 200 && r->status < 300; }

static int az_get(mp_diy_objs *o, const char *path, mp_buf *out,
                  mp_err *err) {
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, path);
  az_reply r;
  int rc = mp__az_request(c, "GET", blob, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (ok(&r))
      mp_buf_append(out, r.body.data ? r.body.data : "", r.body.len);
    else
      rc = mp__az_fail(c, "read", blob, &r, err);
    mp_buf_destroy(&r.body);
  }
  free(blob);
  return rc;
}

static int az_put(mp_diy_objs *o, const char *path, const char *data,
                  size_t len, mp_err *err) {
  static const char *const hs[] = {"x-ms-blob-type: BlockBlob", NULL};
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, path);
  az_reply r;
  int rc = mp__az_request(c, "PUT", blob, NULL, data, len, hs, &r, err);
  if (rc == 0) {
    if (!ok(&r))
      rc = mp__az_fail(c, "write", blob, &r, err);
    if (rc == MP_ENOENT)
      rc = err->code = MP_EIO;
    mp_buf_destroy(&r.body);
  }
  free(blob);
  return rc;
}

static int del_blob(az_conf *c, const char *blob, mp_err *err) {
  az_reply r;
  int rc = mp__az_request(c, "DELETE", blob, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    /* a missing blob is fine, a missing container is not */
    if (!ok(&r) && (rc = mp__az_fail(c, "remove", blob, &r, err)) ==
                       MP_ENOENT) {
      rc = 0;
      mp_err_clear(err);
    }
    mp_buf_destroy(&r.body);
  }
  return rc;
}

static int az_del(mp_diy_objs *o, const char *path, mp_err *err) {
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, path);
  int rc = del_blob(c, blob, err);
  free(blob);
  return rc;
}

/* List Blobs of |prefix| (ending in '/'), every page: each blob (all of
 * them with |deep|, as whole names; else only the names directly under
 * it, and the folders') into |out|. */
static int list_blobs(az_conf *c, const char *prefix, int deep, mp_strv *out,
                      mp_err *err) {
  char *eprefix = mp__url_encode(prefix, 0);
  char *marker = NULL, *last = NULL; /* this page's marker, the one before */
  int rc = 0;
  size_t pl = strlen(prefix);
  do {
    char *emarker = marker ? mp__url_encode(marker, 0) : NULL;
    char *q = mp_xasprintf("restype=container&comp=list&prefix=%s%s%s%s",
                           eprefix, deep ? "" : "&delimiter=%2F",
                           emarker ? "&marker=" : "", emarker ? emarker : "");
    free(emarker);
    free(last);
    last = marker;
    marker = NULL;
    az_reply r;
    rc = mp__az_request(c, "GET", NULL, q, NULL, 0, NULL, &r, err);
    free(q);
    if (rc < 0)
      break;
    if (!ok(&r)) {
      rc = mp__az_fail(c, "list", prefix, &r, err);
      if (rc == MP_ENOENT)
        rc = err->code = MP_EIO;
      mp_buf_destroy(&r.body);
      break;
    }
    xmlDoc *doc = mp__xml_parse(&r.body);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root == NULL ||
        strcmp((const char *)root->name, "EnumerationResults") != 0) {
      rc = mp_err_set(err, MP_EPROTO,
                      "cannot list 'azblob://%s/%s': the answer is no "
                      "EnumerationResults",
                      c->container, prefix);
    } else {
      xmlNode *blobs = mp__xml_child(root, "Blobs");
      for (xmlNode *n = blobs ? blobs->children : NULL; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
          continue;
        int is_blob = strcmp((const char *)n->name, "Blob") == 0;
        int is_dir = strcmp((const char *)n->name, "BlobPrefix") == 0;
        if (!is_blob && !is_dir)
          continue;
        char *k = mp__xml_text(mp__xml_child(n, "Name"));
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
      char *next = mp__xml_text(mp__xml_child(root, "NextMarker"));
      if (next && *next && last && !strcmp(next, last)) {
        /* a server that gives no new marker would be asked for ever */
        rc = mp_err_set(err, MP_EPROTO,
                        "cannot list 'azblob://%s/%s': the server gave the "
                        "same NextMarker twice; check the domain",
                        c->container, prefix);
        free(next);
      } else if (next && *next) {
        marker = next;
      } else {
        free(next);
      }
    }
    if (doc)
      xmlFreeDoc(doc);
    mp_buf_destroy(&r.body);
  } while (rc == 0 && marker);
  free(marker);
  free(last);
  free(eprefix);
  return rc;
}

static int az_list(mp_diy_objs *o, const char *dir, mp_strv *out,
                   mp_err *err) {
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, dir);
  char *prefix = mp_xasprintf("%s/", blob);
  int rc = list_blobs(c, prefix, 0, out, err);
  free(prefix);
  free(blob);
  return rc;
}

/* Waits for a pending copy into |blob|: its status every 200 ms, for at
 * most 10 minutes. */
static int wait_copy(az_conf *c, const char *blob, mp_err *err) {
  for (int i = 0; i < 3000; i++) {
    struct timespec ts = {0, 200 * 1000000L};
    nanosleep(&ts, NULL);
    az_reply r;
    int rc = mp__az_request(c, "HEAD", blob, NULL, NULL, 0, NULL, &r, err);
    if (rc < 0)
      return rc;
    if (!ok(&r))
      rc = mp__az_fail(c, "copy to", blob, &r, err);
    mp_buf_destroy(&r.body);
    if (rc < 0)
      return rc == MP_ENOENT ? (err->code = MP_EIO) : rc;
    if (strcmp(r.copy_status, "pending") != 0) {
      if (strcmp(r.copy_status, "success") == 0)
        return 0;
      return mp_err_set(err, MP_EIO,
                        "cannot copy to 'azblob://%s/%s': the copy ended "
                        "%s",
                        c->container, blob, r.copy_status);
    }
  }
  return mp_err_set(err, MP_EIO,
                    "cannot copy to 'azblob://%s/%s': still pending after "
                    "10 minutes",
                    c->container, blob);
}

static int az_copy(mp_diy_objs *o, const char *from, const char *to,
                   mp_err *err) {
  az_conf *c = &A(o)->c;
  char *fb = blob_of(c, from), *tb = blob_of(c, to);
  char *src = mp__az_url(c, fb, NULL);
  char *h = mp_xasprintf("x-ms-copy-source: %s", src);
  const char *hs[] = {h, NULL};
  az_reply r;
  int rc = mp__az_request(c, "PUT", tb, NULL, NULL, 0, hs, &r, err);
  if (rc == 0) {
    if (!ok(&r)) {
      /* a missing source: BlobNotFound, or CannotVerifyCopySource 404 */
      rc = mp__az_fail(c, "copy", fb, &r, err);
      if (r.status == 404 && strstr(err->msg, "ContainerNotFound") == NULL)
        rc = err->code = MP_ENOENT;
    } else if (strcmp(r.copy_status, "pending") == 0) {
      rc = wait_copy(c, tb, err);
    } else if (*r.copy_status && strcmp(r.copy_status, "success") != 0) {
      rc = mp_err_set(err, MP_EIO,
                      "cannot copy 'azblob://%s/%s': the copy ended %s",
                      c->container, fb, r.copy_status);
    }
    mp_buf_destroy(&r.body);
  }
  free(h);
  free(src);
  free(fb);
  free(tb);
  return rc;
}

static int az_head(mp_diy_objs *o, const char *path, mp_diy_obj_info *info,
                   mp_err *err) {
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, path);
  az_reply r;
  int rc = mp__az_request(c, "HEAD", blob, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (ok(&r)) {
      time_t t = curl_getdate(r.last_modified, NULL);
      info->mtime_ns = (int64_t)t * 1000000000;
      snprintf(info->ident, sizeof(info->ident), "%.40s:%.40s", r.etag,
               r.last_modified);
    } else {
      rc = mp__az_fail(c, "read", blob, &r, err);
    }
    mp_buf_destroy(&r.body);
  }
  free(blob);
  return rc;
}

static int az_del_tree(mp_diy_objs *o, const char *dir, mp_err *err) {
  az_conf *c = &A(o)->c;
  char *blob = blob_of(c, dir);
  char *prefix = mp_xasprintf("%s/", blob);
  mp_strv names;
  mp_strv_init(&names);
  int rc = list_blobs(c, prefix, 1, &names, err);
  for (size_t i = 0; rc == 0 && i < names.len; i++)
    rc = del_blob(c, names.items[i], err);
  if (rc == 0)
    rc = del_blob(c, blob, err); /* |dir| may be a blob itself */
  mp_strv_destroy(&names);
  free(prefix);
  free(blob);
  return rc;
}

/* Whether the container answers to us: one listing of .pulumi/. */
static int az_writable(mp_diy_objs *o, mp_err *err) {
  az_conf *c = &A(o)->c;
  mp_strv names;
  mp_strv_init(&names);
  char *prefix = *c->prefix ? mp_xasprintf("%s/.pulumi/", c->prefix)
                            : mp_xstrdup(".pulumi/");
  int rc = list_blobs(c, prefix, 0, &names, err);
  free(prefix);
  mp_strv_destroy(&names);
  return rc;
}

static void az_free(mp_diy_objs *o) {
  mp__az_conf_free(&A(o)->c);
  free(o);
}

static const mp_diy_objs_ops az_ops = {
    .get = az_get,
    .put = az_put,
    .del = az_del,
    .list = az_list,
    .copy = az_copy,
    .head = az_head,
    .del_tree = az_del_tree,
    .move = NULL,
    .mkdirs = NULL,
    .writable = az_writable,
    .free = az_free,
};

int mp__diy_objs_az(const char *url, mp_diy_objs **out, char **root,
                    mp_err *err) {
  *out = NULL;
  *root = NULL;
  az_objs *o = mp_xcalloc(1, sizeof(*o));
  o->base.ops = &az_ops;
  if (mp__az_conf_parse(url, &o->c, err) < 0) {
    free(o);
    return err->code;
  }
  *root = mp_xstrdup(o->c.root);
  *out = &o->base;
  return 0;
}
