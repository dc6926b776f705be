/* The objects of a DIY store in a bucket (bucket_int.h), as Pulumi's DIY
 * backend keeps them through gocloud's blob package: a folder is listed
 * with the delimiter '/', every page of it; a tree is removed by a deep
 * listing then a delete per object. */
#include "state/blob_util.h"
#include "state/bucket_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static mp_bucket *B(mp_diy_objs *o) { return (mp_bucket *)o; }

/* The key of |path| (which starts with the root). Owned. */
static char *key_of(const mp_bucket *b, const char *path) {
  size_t n = strlen(b->root);
  if (strncmp(path, b->root, n) != 0 || (path[n] != '/' && path[n] != '\0'))
    MP_BUG("path '%s' is not under '%s'", path, b->root);
  const char *rest = path[n] == '/' ? path + n + 1 : path + n;
  if (*b->prefix == '\0')
    return mp_xstrdup(rest);
  return mp_xasprintf("%s/%s", b->prefix, rest);
}

static int b_get(mp_diy_objs *o, const char *path, mp_buf *out, mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, path);
  mp_bucket_reply r;
  int rc = b->cl->request(b, "GET", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (mp__bucket_ok(&r))
      mp_buf_append(out, r.body.data ? r.body.data : "", r.body.len);
    else
      rc = b->cl->fail(b, "read", key, &r, err);
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int b_put(mp_diy_objs *o, const char *path, const char *data,
                 size_t len, mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, path);
  mp_bucket_reply r;
  int rc = b->cl->request(b, "PUT", key, NULL, data, len, b->cl->put_headers,
                          &r, err);
  if (rc == 0) {
    if (!mp__bucket_ok(&r))
      rc = b->cl->fail(b, "write", key, &r, err);
    if (rc == MP_ENOENT) /* a missing bucket is no missing object */
      rc = err->code = MP_EIO;
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int del_key(mp_bucket *b, const char *key, mp_err *err) {
  mp_bucket_reply r;
  int rc = b->cl->request(b, "DELETE", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    /* a missing object is fine, a missing bucket is not */
    if (!mp__bucket_ok(&r) &&
        !(b->cl->delete_404_is_missing && r.status == 404) &&
        (rc = b->cl->fail(b, "remove", key, &r, err)) == MP_ENOENT) {
      rc = 0;
      mp_err_clear(err);
    }
    mp_buf_destroy(&r.body);
  }
  return rc;
}

static int b_del(mp_diy_objs *o, const char *path, mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, path);
  int rc = del_key(b, key, err);
  free(key);
  return rc;
}

/* Adds the entries of one listing page |root| under |prefix| (|pl|
 * bytes) to |out|: with |deep| the whole keys, else the names directly
 * under it (a folder's without its '/'), each once. */
static void add_entries(const mp_bucket_client *cl, xmlNode *root,
                        const char *prefix, size_t pl, int deep,
                        mp_strv *out) {
  xmlNode *holder = cl->list_entries ? mp__xml_child(root, cl->list_entries)
                                     : root;
  for (xmlNode *n = holder ? holder->children : NULL; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    int is_obj = strcmp((const char *)n->name, cl->obj_elem) == 0;
    int is_dir = strcmp((const char *)n->name, cl->dir_elem) == 0;
    if (!is_obj && !is_dir)
      continue;
    char *k = mp__xml_text(mp__xml_child(n, is_obj ? cl->obj_name
                                                   : cl->dir_name));
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
}

/* Lists |prefix| (ending in '/'), every page, into |out| (add_entries). */
static int list_keys(mp_bucket *b, const char *prefix, int deep, mp_strv *out,
                     mp_err *err) {
  const mp_bucket_client *cl = b->cl;
  char *eprefix = mp__url_encode(prefix, 0);
  char *token = NULL, *last = NULL; /* this page's token, the one before */
  int rc = 0;
  do {
    char *etoken = token ? mp__url_encode(token, 0) : NULL;
    char *q = cl->list_query(eprefix, deep, etoken);
    free(etoken);
    free(last);
    last = token;
    token = NULL;
    mp_bucket_reply r;
    rc = cl->request(b, "GET", NULL, q, NULL, 0, NULL, &r, err);
    free(q);
    if (rc < 0)
      break;
    if (!mp__bucket_ok(&r)) {
      rc = cl->fail(b, "list", prefix, &r, err);
      if (rc == MP_ENOENT)
        rc = err->code = MP_EIO;
      mp_buf_destroy(&r.body);
      break;
    }
    xmlDoc *doc = mp__xml_parse(&r.body);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (root == NULL || strcmp((const char *)root->name, cl->list_root) != 0) {
      rc = mp_err_set(err, MP_EPROTO,
                      "cannot list '%s/%s': the answer is no %s", b->where,
                      prefix, cl->list_root);
    } else {
      add_entries(cl, root, prefix, strlen(prefix), deep, out);
      token = cl->list_next(root);
      /* a server that gives no new token would be asked for ever */
      if (token && (*token == '\0' || (last && !strcmp(token, last)))) {
        rc = mp_err_set(err, MP_EPROTO,
                        "cannot list '%s/%s': the server said there is more "
                        "but gave %s continuation token; check the server's "
                        "address",
                        b->where, prefix, *token ? "the same" : "an empty");
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

static int b_list(mp_diy_objs *o, const char *dir, mp_strv *out,
                  mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, dir);
  char *prefix = mp_xasprintf("%s/", key);
  int rc = list_keys(b, prefix, 0, out, err);
  free(prefix);
  free(key);
  return rc;
}

static int b_copy(mp_diy_objs *o, const char *from, const char *to,
                  mp_err *err) {
  mp_bucket *b = B(o);
  char *fk = key_of(b, from), *tk = key_of(b, to);
  int rc = b->cl->copy(b, fk, tk, err);
  free(fk);
  free(tk);
  return rc;
}

static int b_head(mp_diy_objs *o, const char *path, mp_diy_obj_info *info,
                  mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, path);
  mp_bucket_reply r;
  int rc = b->cl->request(b, "HEAD", key, NULL, NULL, 0, NULL, &r, err);
  if (rc == 0) {
    if (mp__bucket_ok(&r)) {
      time_t t = curl_getdate(r.last_modified, NULL);
      info->mtime_ns = (int64_t)t * 1000000000;
      snprintf(info->ident, sizeof(info->ident), "%.40s:%.40s", r.etag,
               r.last_modified);
    } else {
      rc = b->cl->fail(b, "read", key, &r, err);
    }
    mp_buf_destroy(&r.body);
  }
  free(key);
  return rc;
}

static int b_del_tree(mp_diy_objs *o, const char *dir, mp_err *err) {
  mp_bucket *b = B(o);
  char *key = key_of(b, dir);
  char *prefix = mp_xasprintf("%s/", key);
  mp_strv keys;
  mp_strv_init(&keys);
  int rc = list_keys(b, prefix, 1, &keys, err);
  for (size_t i = 0; rc == 0 && i < keys.len; i++)
    rc = del_key(b, keys.items[i], err);
  if (rc == 0)
    rc = del_key(b, key, err); /* |dir| may be an object itself */
  mp_strv_destroy(&keys);
  free(prefix);
  free(key);
  return rc;
}

/* Whether the bucket answers to us: one listing of .pulumi/. */
static int b_writable(mp_diy_objs *o, mp_err *err) {
  mp_bucket *b = B(o);
  mp_strv names;
  mp_strv_init(&names);
  char *prefix = *b->prefix ? mp_xasprintf("%s/.pulumi/", b->prefix)
                            : mp_xstrdup(".pulumi/");
  int rc = list_keys(b, prefix, 0, &names, err);
  free(prefix);
  mp_strv_destroy(&names);
  return rc;
}

static void b_free(mp_diy_objs *o) {
  mp_bucket *b = B(o);
  mp__bucket_share_close(b);
  b->cl->free(b);
}

static const mp_diy_objs_ops bucket_ops = {
    .get = b_get,
    .put = b_put,
    .del = b_del,
    .list = b_list,
    .copy = b_copy,
    .head = b_head,
    .del_tree = b_del_tree,
    .move = NULL,
    .mkdirs = NULL,
    .writable = b_writable,
    .free = b_free,
};

void mp__bucket_init(mp_bucket *b) {
  b->base.ops = &bucket_ops;
  mp__bucket_share_open(b);
}
