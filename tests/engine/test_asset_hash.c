/* Tests for src/engine/asset_hash.c: the hash Pulumi's monitor gives a
 * registered text asset (resource.NewTextAsset's: SHA-256 of the text),
 * wherever it sits in the inputs; a hash already set and other assets
 * are left alone. */
#include "engine/asset_hash.h"

#include <stdlib.h>

#include "testutil.h"

/* sha256("the asset contents"), as l2-resource-any expects it. */
#define HASH "70577d90d7d5e094513e114ab32d343a62fe8afbc917dc81656b1a6ee663bd74"

static void test_text_asset_gets_its_hash(void) {
  mp_value *v = mp_value_new_asset(NULL, "the asset contents", NULL, NULL);
  mp_value_hash_text_assets(v);
  CHECK_STR(v->u.asset.hash, HASH);
  mp_value_free(v);
}

static void test_nested_assets(void) {
  mp_value *obj = mp_value_new_object();
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(arr, mp_value_new_secret(
                               mp_value_new_asset(NULL, "the asset contents", NULL, NULL)));
  mp_value_object_set(obj, "list", arr);
  mp_value_object_set(obj, "kept", mp_value_new_asset("given", "x", NULL, NULL));
  mp_value_object_set(obj, "path", mp_value_new_asset(NULL, NULL, "a.txt", NULL));
  mp_value_hash_text_assets(obj);
  const mp_value *l = mp_value_object_get(obj, "list");
  CHECK_STR(l->u.arr.items[0]->u.secret->u.asset.hash, HASH);
  CHECK_STR(mp_value_object_get(obj, "kept")->u.asset.hash, "given");
  CHECK(mp_value_object_get(obj, "path")->u.asset.hash == NULL);
  mp_value_free(obj);
}

int main(void) {
  RUN(test_text_asset_gets_its_hash);
  RUN(test_nested_assets);
  return mp_test_summary();
}
