/* What the files of the asset hashes share (asset_hash.c, asset_tar.c,
 * asset_members.c): a member's bytes (a blob), the members of an archive
 * in Pulumi's order, and the tar Go's archive/tar writes of them. */
#ifndef MP_ENGINE_ASSET_INT_H
#define MP_ENGINE_ASSET_INT_H

#include <stdint.h>

#include "engine/asset_hash.h"

/* The bytes of one asset or archive member, read once from the start:
 * a file (|fd|), bytes in memory (|mem|, |owned| when they are ours) or
 * the current entry of an archive being read (|ar|, a libarchive
 * reader). */
typedef struct mp__blob {
  uint64_t size; /* the size it claims (a file's, an entry's) */
  int fd;        /* or -1 */
  const unsigned char *mem;
  size_t off;
  mp_buf owned;
  struct archive *ar;
} mp__blob;

void mp__blob_init(mp__blob *b);
/* Reads up to |n| bytes: the count, 0 at the end, or an MP_E code with
 * |err| set. */
long mp__blob_read(mp__blob *b, void *buf, size_t n, mp_err *err);
/* Closes the file, frees owned bytes; leaves |ar| to its owner. */
void mp__blob_close(mp__blob *b);

/* Pulumi's Asset.ReadWithWD: opens the bytes of ASSET |a| into |b|. */
int mp__asset_open(const mp_value *a, const mp_asset_hash_opts *o,
                   mp__blob *b, mp_err *err);

/* Go's path.Clean and path.Join of two elements (an empty one is left
 * out), owned. */
char *mp__path_clean(const char *p);
char *mp__path_join(const char *a, const char *b);

/* The archive formats Pulumi knows by a name's ending (.tar, .tgz,
 * .tar.gz, .zip, .jar), or MP__NOT_ARCHIVE. */
enum mp__archive_format {
  MP__NOT_ARCHIVE = 0,
  MP__TAR,
  MP__TGZ,
  MP__ZIP /* and .jar */
};
enum mp__archive_format mp__archive_format(const char *name);

/* The path of a URI (from the first '/' after the host to '?' or '#'),
 * owned; its scheme (before "://") in |scheme| (owned) and whether its
 * host is empty or "localhost" in |*local|. MP_EINVAL when |uri| has no
 * "<scheme>://". */
int mp__uri_split(const char *uri, char **scheme, char **path, int *local,
                  mp_err *err);

/* Called for each member of an archive, in Pulumi's order, with its name
 * in the tar and its bytes (read them before returning). */
typedef int (*mp__member_fn)(void *ud, const char *name, mp__blob *b,
                             mp_err *err);

/* Pulumi's Archive.OpenWithWD: the members of ARCHIVE |arc| (a map of
 * assets and archives, flattened, keys in byte order; a folder walked as
 * filepath.Walk walks it; a .tar/.tgz/.zip file or download read). */
int mp__archive_members(const mp_value *arc, const mp_asset_hash_opts *o,
                        mp__member_fn fn, void *ud, mp_err *err);

/* The SHA-256 of the tar Go's archive/tar Writer writes of |arc|'s
 * members (Pulumi's archiveTar): each member once, by its first
 * occurrence. */
int mp__archive_tar_hash(const mp_value *arc, const mp_asset_hash_opts *o,
                         char hex[65], mp_err *err);

#endif
