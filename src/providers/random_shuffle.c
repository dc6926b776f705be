/* RandomShuffle (pulumi-random's random_shuffle): a permutation of
 * `inputs`, `resultCount` long (default: all of them). Asked for more than
 * there are, further permutations are appended, so no element comes more
 * often than the others by more than one round. With `seed` the result is
 * the same every time for the same inputs; without, it comes from the
 * kernel CSPRNG. The id is "-", as the provider's. */
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "providers/random_int.h"

int mp__random_check_shuffle(const mp_value *news, mp_value *out,
                             mp_prov_resp *r) {
  (void)out;
  const mp_value *plain = mp__prov_plain(news);
  if (!mp__prov_is_unknown(plain, "inputs")) {
    const mp_value *in = mp__prov_plain(mp__prov_get(plain, "inputs"));
    if (in == NULL)
      mp_prov_resp_add_failure(r, "inputs", "missing required property");
    else if (in->kind != MP_VALUE_ARRAY)
      mp_prov_resp_add_failure(r, "inputs", "must be a list of strings");
    else
      for (size_t i = 0; i < in->u.arr.len; i++) {
        const mp_value *e = mp__prov_plain(in->u.arr.items[i]);
        if (e && e->kind != MP_VALUE_STRING && e->kind != MP_VALUE_UNKNOWN) {
          mp_prov_resp_add_failure(r, "inputs", "must be a list of strings");
          break;
        }
      }
  }
  int64_t n = 0;
  if (mp__prov_int(news, "resultCount", &n, r) == MP_PROV_FIELD_OK && n < 0)
    mp_prov_resp_add_failure(r, "resultCount", "must be at least 0");
  const char *seed;
  (void)mp__prov_str(news, "seed", &seed, r);
  return 0;
}

/* The source of the permutation: the seed's SHA-256 stream, or the
 * CSPRNG. */
typedef struct chooser {
  const char *seed;
  uint64_t counter;
} chooser;

static int below(chooser *c, uint64_t n, uint64_t *out, mp_err *err) {
  if (c->seed == NULL) return mp__prov_random_below(n, out, err);
  char *text = mp_xasprintf("%s\n%llu", c->seed,
                            (unsigned long long)c->counter++);
  char hex[65];
  mp_sha256_hex(text, strlen(text), hex);
  free(text);
  hex[16] = '\0';
  *out = strtoull(hex, NULL, 16) % n;
  return 0;
}

int mp__random_gen_shuffle(const mp_value *in, const char *type,
                           mp_value *outputs, char **id, mp_err *err) {
  mp_prov_resp tmp;
  mp_prov_resp_init(&tmp);
  mp__random_check_shuffle(in, outputs, &tmp);
  int rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0) return rc;
  const mp_value *list = mp__prov_plain(mp__prov_get(mp__prov_plain(in), "inputs"));
  size_t len = list->u.arr.len;
  int64_t want = (int64_t)len;
  (void)mp__prov_int(in, "resultCount", &want, NULL);
  chooser c = {NULL, 0};
  (void)mp__prov_str(in, "seed", &c.seed, NULL);
  if (c.seed && !*c.seed) c.seed = NULL;
  mp_value *results = mp_value_new_array();
  size_t *order = mp_xcalloc(len + 1, sizeof(*order));
  while (len > 0 && (int64_t)results->u.arr.len < want && rc == 0) {
    for (size_t i = 0; i < len; i++) order[i] = i;
    for (size_t i = len - 1; i > 0 && rc == 0; i--) { /* Fisher-Yates */
      uint64_t j = 0;
      rc = below(&c, i + 1, &j, err);
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (size_t i = 0; i < len && (int64_t)results->u.arr.len < want; i++)
      mp_value_array_push(results,
                          mp_value_dup(mp__prov_plain(list->u.arr.items[order[i]])));
  }
  free(order);
  if (rc < 0) {
    mp_value_free(results);
    return rc;
  }
  mp_value_object_set(outputs, "results", results);
  *id = mp_xstrdup("-");
  return 0;
}
