/* The objects of a DIY store in an Azure Blob container
 * (`azblob://CONTAINER[/PREFIX]`), as Pulumi's DIY backend keeps them
 * through gocloud's azureblob: the bucket layer (diy_obj_bucket.c) with
 * Azure's client: List Blobs for a folder, a Put Blob of a block blob for
 * a put (readers see the old blob or the new one, never a torn one),
 * Azure's error codes, and Copy Blob for a copy, which
 * Azure makes at once within an account (a pending one is waited for, as
 * gocloud's Copy does). Pulumi's names need none of gocloud's key
 * escaping (names are letters, digits, '-', '_', '.'). */
#include "state/az_int.h"
#include "state/blob_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/tree.h>

static int az_fail(mp_bucket *b, const char *what, const char *blob,
                   const mp_bucket_reply *r, mp_err *err) {
  const az_conf *c = az_conf_of(b);
  char *code, *msg;
  mp__bucket_error_xml(r, &code, &msg);
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
  return mp__bucket_say_fail(b, "Azure", what, blob, r, code, msg, enoent, hint,
                             err);
}

static char *az_list_query(const char *eprefix, int deep,
                           const char *emarker) {
  return mp_xasprintf("restype=container&comp=list&prefix=%s%s%s%s", eprefix,
                      deep ? "" : "&delimiter=%2F", emarker ? "&marker=" : "",
                      emarker ? emarker : "");
}

static char *az_list_next(xmlNode *root) {
  char *next = mp__xml_text(mp__xml_child(root, "NextMarker"));
  if (next && *next)
    return next;
  free(next);
  return NULL;
}

/* Waits for a pending copy into |blob|: its status every 200 ms, for at
 * most 10 minutes. */
static int wait_copy(mp_bucket *b, const char *blob, mp_err *err) {
  const az_conf *c = az_conf_of(b);
  for (int i = 0; i < 3000; i++) {
    struct timespec ts = {0, 200 * 1000000L};
    nanosleep(&ts, NULL);
    mp_bucket_reply r;
    int rc = mp__az_request(b, "HEAD", blob, NULL, NULL, 0, NULL, &r, err);
    if (rc < 0)
      return rc;
    if (!mp__bucket_ok(&r))
      rc = az_fail(b, "copy to", blob, &r, err);
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

static int az_copy(mp_bucket *b, const char *fb, const char *tb,
                   mp_err *err) {
  const az_conf *c = az_conf_of(b);
  char *src = mp__az_url(c, fb, NULL);
  char *h = mp_xasprintf("x-ms-copy-source: %s", src);
  const char *hs[] = {h, NULL};
  mp_bucket_reply r;
  int rc = mp__az_request(b, "PUT", tb, NULL, NULL, 0, hs, &r, err);
  if (rc == 0) {
    if (!mp__bucket_ok(&r)) {
      /* a missing source: BlobNotFound, or CannotVerifyCopySource 404 */
      rc = az_fail(b, "copy", fb, &r, err);
      if (r.status == 404 && strstr(err->msg, "ContainerNotFound") == NULL)
        rc = err->code = MP_ENOENT;
    } else if (strcmp(r.copy_status, "pending") == 0) {
      rc = wait_copy(b, tb, err);
    } else if (*r.copy_status && strcmp(r.copy_status, "success") != 0) {
      rc = mp_err_set(err, MP_EIO,
                      "cannot copy 'azblob://%s/%s': the copy ended %s",
                      c->container, fb, r.copy_status);
    }
    mp_buf_destroy(&r.body);
  }
  free(h);
  free(src);
  return rc;
}

static void az_free(mp_bucket *b) {
  mp__az_conf_free(az_conf_of(b));
  free(b);
}

static const char *const put_headers[] = {"x-ms-blob-type: BlockBlob", NULL};

static const mp_bucket_client az_client = {
    .request = mp__az_request,
    .fail = az_fail,
    .copy = az_copy,
    .put_headers = put_headers,
    .delete_404_is_missing = 0, /* a missing container is an error */
    .list_query = az_list_query,
    .list_next = az_list_next,
    .list_root = "EnumerationResults",
    .list_entries = "Blobs",
    .obj_elem = "Blob",
    .obj_name = "Name",
    .dir_elem = "BlobPrefix",
    .dir_name = "Name",
    .free = az_free,
};

int mp__diy_objs_az(const char *url, mp_diy_objs **out, char **root,
                    mp_err *err) {
  *out = NULL;
  *root = NULL;
  az_objs *o = mp_xcalloc(1, sizeof(*o));
  if (mp__bucket_stall_seconds(&o->b.stall_seconds, err) != 0 ||
      mp__az_conf_parse(url, &o->c, err) < 0) {
    free(o);
    return err->code;
  }
  o->b.cl = &az_client;
  o->b.root = o->c.root;
  o->b.prefix = o->c.prefix;
  o->b.where = o->c.where;
  mp__bucket_init(&o->b);
  *root = mp_xstrdup(o->c.root);
  *out = &o->b.base;
  return 0;
}
