/* The hashes the engine gives the assets a program registers, as Pulumi's
 * resource monitor does (it unmarshals a registration's inputs with
 * ComputeAssetHashes): a text asset without a hash gets the SHA-256 of
 * its text. Path and URI assets and archives are left as they come (their
 * hashes need the program's folder or a download; not done). */
#include "engine/asset_hash.h"

#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"

void mp_value_hash_text_assets(mp_value *v) {
  if (v == NULL) return;
  switch (v->kind) {
  case MP_VALUE_ASSET:
    if (v->u.asset.hash == NULL && v->u.asset.text) {
      char hex[65];
      mp_sha256_hex(v->u.asset.text, strlen(v->u.asset.text), hex);
      v->u.asset.hash = mp_xstrdup(hex);
    }
    break;
  case MP_VALUE_ARCHIVE:
    /* An archive's hash covers its members; its members keep theirs. */
    mp_value_hash_text_assets(v->u.archive.assets);
    break;
  case MP_VALUE_ARRAY:
    for (size_t i = 0; i < v->u.arr.len; i++) mp_value_hash_text_assets(v->u.arr.items[i]);
    break;
  case MP_VALUE_OBJECT:
    for (size_t i = 0; i < v->u.obj.len; i++) mp_value_hash_text_assets(v->u.obj.items[i].value);
    break;
  case MP_VALUE_SECRET:
    mp_value_hash_text_assets(v->u.secret);
    break;
  case MP_VALUE_OUTPUT:
    mp_value_hash_text_assets(v->u.output.value);
    break;
  default:
    break;
  }
}
