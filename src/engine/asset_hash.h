/* Asset hashes computed on registration (asset_hash.c). */
#ifndef MP_ENGINE_ASSET_HASH_H
#define MP_ENGINE_ASSET_HASH_H

#include "engine/value.h"

/* Gives every text asset in |v| that has no hash the SHA-256 hex of its
 * text, in place. */
void mp_value_hash_text_assets(mp_value *v);

#endif
