/* The objects under the DIY layout (diy_*.c): a folder (diy_obj_dir.c),
 * an S3 bucket (diy_obj_s3.c) or an Azure Blob container (diy_obj_az.c). Each object is named by its full path as
 * the layout code builds it: the store's root ("/abs/folder" or
 * "s3://bucket/prefix") then "/.pulumi/...". A "folder" of a bucket is a
 * key prefix ending in '/', as gocloud's blob.List with a delimiter shows
 * them to Pulumi's DIY backend. */
#ifndef MP_DIY_OBJ_H
#define MP_DIY_OBJ_H

#include <stdint.h>

#include "engine/err.h"
#include "engine/mem.h"

typedef struct mp_diy_obj_info {
  int64_t mtime_ns; /* when it was last written */
  char ident[96];   /* changes whenever its content may have changed */
} mp_diy_obj_info;

typedef struct mp_diy_objs mp_diy_objs;
typedef struct mp_diy_objs_ops {
  /* The bytes of |path| into |out|; MP_ENOENT if there is none. */
  int (*get)(mp_diy_objs *o, const char *path, mp_buf *out, mp_err *err);
  /* Writes |path| whole: a reader sees the old bytes or the new ones. */
  int (*put)(mp_diy_objs *o, const char *path, const char *data, size_t len,
             mp_err *err);
  /* Removes |path|; a missing one is fine. */
  int (*del)(mp_diy_objs *o, const char *path, mp_err *err);
  /* Appends the names directly under folder |dir| (objects and folders,
   * unsorted); none if it is missing. */
  int (*list)(mp_diy_objs *o, const char *dir, mp_strv *out, mp_err *err);
  /* |to| becomes a copy of |from|; MP_ENOENT if |from| is missing. */
  int (*copy)(mp_diy_objs *o, const char *from, const char *to, mp_err *err);
  /* What |path| is; MP_ENOENT if there is none. */
  int (*head)(mp_diy_objs *o, const char *path, mp_diy_obj_info *info,
              mp_err *err);
  /* Removes |dir| and everything under it; a missing one is fine. */
  int (*del_tree)(mp_diy_objs *o, const char *dir, mp_err *err);
  /* Optional (NULL: copy, then delete): |from| becomes |to|. */
  int (*move)(mp_diy_objs *o, const char *from, const char *to, mp_err *err);
  /* Optional (NULL: put): writes |path| whole, as put, but may leave it
   * in the system's cache until sync; a killed process loses nothing of
   * it, a power loss may lose it (never tear it). */
  int (*put_unsynced)(mp_diy_objs *o, const char *path, const char *data,
                      size_t len, mp_err *err);
  /* Optional (NULL: nothing to do): what put_unsynced wrote to |path| is
   * on disk, with its name. */
  int (*sync)(mp_diy_objs *o, const char *path, mp_err *err);
  /* Optional (NULL: nothing to do): makes folder |dir|. */
  int (*mkdirs)(mp_diy_objs *o, const char *dir, mp_err *err);
  /* 0 if objects can be written; else why not. */
  int (*writable)(mp_diy_objs *o, mp_err *err);
  void (*free)(mp_diy_objs *o);
} mp_diy_objs_ops;

struct mp_diy_objs {
  const mp_diy_objs_ops *ops;
};

/* The folder implementation (paths are absolute file names). */
mp_diy_objs *mp__diy_objs_dir(void);

/* The S3 implementation for `s3://BUCKET[/PREFIX][?params]`; *root gets
 * "s3://BUCKET[/PREFIX]" (owned), the root of every path given to it. */
int mp__diy_objs_s3(const char *url, const char *home, mp_diy_objs **out,
                    char **root, mp_err *err);

/* The Azure Blob implementation for `azblob://CONTAINER[/PREFIX][?params]`;
 * *root gets "azblob://CONTAINER[/PREFIX]" (owned). */
int mp__diy_objs_az(const char *url, mp_diy_objs **out, char **root,
                    mp_err *err);

#endif
