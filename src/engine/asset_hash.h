/* Asset and archive hashes computed on registration, as Pulumi's resource
 * monitor computes them (it unmarshals a registration's inputs and a
 * component's outputs with ComputeAssetHashes; sdk/go/common/resource/
 * asset and archive, EnsureHashWithWD):
 *
 * - a text asset: the SHA-256 of its text;
 * - a path asset: of the file's bytes (a relative path starts from the
 *   program's working directory);
 * - a URI asset: of the bytes an http(s) GET answers (whatever its
 *   status, as Pulumi), or of a file:// URI's file;
 * - a path or URI archive whose name ends in .tar, .tgz, .tar.gz, .zip or
 *   .jar: of the file's (or the download's) bytes as they are;
 * - any other archive (a folder, a map of assets and archives): of the
 *   tar Go's archive/tar writes of its members, one header a member
 *   (mode 0600, no owner, no time), as Pulumi serializes it (asset_tar.c;
 *   the members in asset_members.c).
 *
 * Nested assets and archives get theirs first, as Pulumi unmarshals the
 * inner values first. A hash already set is kept. */
#ifndef MP_ENGINE_ASSET_HASH_H
#define MP_ENGINE_ASSET_HASH_H

#include "engine/err.h"
#include "engine/mem.h"
#include "engine/value.h"

/* Fetches an http(s) URL: fills |body| with the answer's bytes. Returns 0
 * or an MP_E code with |err| set. Called on the hashing thread. */
typedef int (*mp_asset_fetch_fn)(void *ud, const char *url, mp_buf *body,
                                 mp_err *err);

typedef struct mp_asset_hash_opts {
  /* The folder relative paths start from (Pulumi's runinfo.Pwd, the
   * program's folder); NULL: the process's working directory. */
  const char *wd;
  /* How http(s) URIs are fetched; NULL: such assets fail to hash. */
  mp_asset_fetch_fn fetch;
  void *fetch_ud;
} mp_asset_hash_opts;

/* Gives every asset and archive in |v| that has no hash its hash, in
 * place (objects, arrays, secrets, outputs and an archive's members are
 * walked). Returns 0, or an MP_E code with |err| reading Pulumi's
 * "failed to compute asset hash for \"<key>\": <why>" (or "archive
 * hash"); the values hashed before the failure keep their hash. */
int mp_value_hash_assets(mp_value *v, const mp_asset_hash_opts *o,
                         mp_err *err);

/* Whether |v| holds an asset or archive without a hash other than a text
 * asset: hashing it reads files or downloads (a text asset's hash is
 * mp_value_hash_text_assets'). */
int mp_value_assets_need_io(const mp_value *v);

/* The hash of |a| alone (an ASSET or ARCHIVE value, its hash ignored),
 * as 64 hex digits into |hex|. 0 or an MP_E code. */
int mp_asset_hash_of(const mp_value *a, const mp_asset_hash_opts *o,
                     char hex[65], mp_err *err);

/* Gives every text asset in |v| that has no hash the SHA-256 hex of its
 * text, in place; other assets are left alone. */
void mp_value_hash_text_assets(mp_value *v);

#endif
