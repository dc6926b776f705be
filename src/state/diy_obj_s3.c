/* The objects of a DIY store in an S3 bucket (`s3://BUCKET[/PREFIX]`), as
 * Pulumi's DIY backend keeps them through gocloud's blob package: the
 * bucket layer (diy_obj_bucket.c) with S3's client: ListObjectsV2 for a
 * folder, PutObject for a put (S3 shows readers the old object or the
 * new one, never a torn one), CopyObject for a copy, and S3's error
 * codes. */
#include "state/blob_util.h"
#include "state/s3_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

static int s3_fail(mp_bucket *b, const char *what, const char *key,
                   const mp_bucket_reply *r, mp_err *err) {
  char *code, *msg;
  mp__bucket_error_xml(r, &code, &msg);
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
  return mp__bucket_say_fail(b, "S3", what, key, r, code, msg, enoent, hint,
                             err);
}

/* the parameters in the order SigV4's canonical query wants */
static char *s3_list_query(const char *eprefix, int deep,
                           const char *etoken) {
  return mp_xasprintf("%s%s%s%slist-type=2&prefix=%s",
                      etoken ? "continuation-token=" : "",
                      etoken ? etoken : "", etoken ? "&" : "",
                      deep ? "" : "delimiter=%2F&", eprefix);
}

static char *s3_list_next(xmlNode *root) {
  char *token = NULL;
  char *trunc = mp__xml_text(mp__xml_child(root, "IsTruncated"));
  if (trunc && strcmp(trunc, "true") == 0)
    token = mp__xml_text(mp__xml_child(root, "NextContinuationToken"));
  free(trunc);
  return token;
}

static int s3_copy(mp_bucket *b, const char *fk, const char *tk,
                   mp_err *err) {
  const s3_conf *c = s3_conf_of(b);
  char *src = mp_xasprintf("%s/%s", c->bucket, fk);
  char *esrc = mp__url_encode(src, 1);
  char *h = mp_xasprintf("x-amz-copy-source: /%s", esrc);
  const char *hs[] = {h, NULL};
  mp_bucket_reply r;
  int rc = mp__s3_request(b, "PUT", tk, NULL, NULL, 0, hs, &r, err);
  if (rc == 0) {
    /* a CopyObject may fail with 200 and an Error body */
    int failed = !mp__bucket_ok(&r) ||
                 (r.body.data && strstr(r.body.data, "<Error>"));
    if (failed)
      rc = s3_fail(b, "copy", fk, &r, err);
    mp_buf_destroy(&r.body);
  }
  free(h);
  free(esrc);
  free(src);
  return rc;
}

static void s3_free(mp_bucket *b) {
  mp__s3_conf_free(s3_conf_of(b));
  free(b);
}

static const mp_bucket_client s3_client = {
    .request = mp__s3_request,
    .fail = s3_fail,
    .copy = s3_copy,
    .put_headers = NULL,
    .delete_404_is_missing = 1,
    .list_query = s3_list_query,
    .list_next = s3_list_next,
    .list_root = "ListBucketResult",
    .list_entries = NULL,
    .obj_elem = "Contents",
    .obj_name = "Key",
    .dir_elem = "CommonPrefixes",
    .dir_name = "Prefix",
    .free = s3_free,
};

int mp__diy_objs_s3(const char *url, const char *home, mp_diy_objs **out,
                    char **root, mp_err *err) {
  *out = NULL;
  *root = NULL;
  s3_objs *o = mp_xcalloc(1, sizeof(*o));
  if (mp__bucket_stall_seconds(&o->b.stall_seconds, err) != 0 ||
      mp__s3_conf_parse(url, home, &o->c, err) < 0) {
    free(o);
    return err->code;
  }
  o->b.cl = &s3_client;
  o->b.root = o->c.root;
  o->b.prefix = o->c.prefix;
  o->b.where = o->c.where;
  mp__bucket_init(&o->b);
  *root = mp_xstrdup(o->c.root);
  *out = &o->b.base;
  return 0;
}
