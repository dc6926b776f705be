/* Helpers shared by the built-in providers (src/providers/). Not part of
 * the engine's interface: only files in this directory include it. */
#ifndef MP_PROVIDERS_INT_H
#define MP_PROVIDERS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/provider.h"

/* The header every built-in provider instance starts with. */
typedef struct mp__prov_base {
  mp_provider hdr;
  char *version; /* reported by GetPluginInfo, owned */
} mp__prov_base;

/* Factories of the four packages (builtin.c dispatches to them). Each sets
 * *out to an unconfigured instance. Return 0. The test provider's
 * |default_world| (copied; may be NULL) is its world when neither Configure
 * nor the request's config names one. */
/* Whether each built-in implements the resource type or function |tok|
 * (|function|: a function token); what it does not goes to the plugin
 * (builtin.h mp_builtin_implements). */
int mp__prov_random_implements(const char *tok, int function);
int mp__prov_command_implements(const char *tok, int function);
int mp__prov_local_implements(const char *tok, int function);
int mp__prov_random_new(const char *pkg, const char *version, mp_provider **out,
                        mp_err *err);
int mp__prov_command_new(const char *pkg, const char *version,
                         mp_provider **out, mp_err *err);
int mp__prov_local_new(const char *pkg, const char *version, mp_provider **out,
                       mp_err *err);
int mp__prov_test_new(const char *default_world, const char *pkg,
                      const char *version, mp_provider **out, mp_err *err);

/* Fills the base header; |version| NULL means "0.1.0". */
void mp__prov_base_init(mp__prov_base *b, const mp_provider_vtable *vt,
                        const char *pkg, const char *version);
/* Frees the base's strings (not the struct). */
void mp__prov_base_destroy(mp__prov_base *b);
/* GetPluginInfo for any built-in: the base's version. */
int mp__prov_plugin_info(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                         mp_err *err);
/* Configure for providers without configuration: accepts secrets,
 * resources and preview. */
int mp__prov_configure_plain(mp_provider *p, const mp_prov_req *q,
                             mp_prov_resp *r, mp_err *err);

/* ---- values ---- */

/* |v| without its SECRET and known OUTPUT wrappers (borrowed); NULL stays
 * NULL, an unknown OUTPUT becomes NULL. */
const mp_value *mp__prov_plain(const mp_value *v);
/* The unwrapped value of |key| in the object |obj|, or NULL when |obj| is
 * not an object, lacks the key, or the value is NULL-kind. */
const mp_value *mp__prov_get(const mp_value *obj, const char *key);
/* 1 if the value of |key| in |obj| is UNKNOWN or an unknown OUTPUT
 * (through secret wrappers). */
int mp__prov_is_unknown(const mp_value *obj, const char *key);
/* The string at |key|, or NULL when absent or not a string. */
const char *mp__prov_get_str(const mp_value *obj, const char *key);
/* A deep copy of |v| if it is an OBJECT, else a new empty OBJECT. */
mp_value *mp__prov_obj_dup(const mp_value *v);

/* How an optional typed input was found. */
typedef enum mp__prov_field {
  MP_PROV_FIELD_MISSING = 0,
  MP_PROV_FIELD_UNKNOWN, /* computed: not known during preview */
  MP_PROV_FIELD_OK,
  MP_PROV_FIELD_BAD /* a failure was added to |r| */
} mp__prov_field;

/* Reads an integer input |key| into *out. A wrong type or a fraction adds
 * a check failure naming |key| to |r|. */
mp__prov_field mp__prov_int(const mp_value *obj, const char *key, int64_t *out,
                            mp_prov_resp *r);
/* Reads a boolean input. */
mp__prov_field mp__prov_bool(const mp_value *obj, const char *key, int *out,
                             mp_prov_resp *r);
/* Reads a string input. *out is borrowed from |obj|. */
mp__prov_field mp__prov_str(const mp_value *obj, const char *key,
                            const char **out, mp_prov_resp *r);

/* Appends to |out| the keys of |olds| and |news| (both OBJECTs or NULL)
 * whose values differ (secrets compared through), skipping the keys listed
 * in |skip| (NULL-terminated, may be NULL). Returns the count appended. */
size_t mp__prov_changed_keys(const mp_value *olds, const mp_value *news,
                             const char *const *skip, mp_strv *out);

/* Turns the check failures in |r| into one MP_EINVAL error naming the
 * resource type |type|. Returns 0 if |r| has none. */
int mp__prov_failures_to_err(const mp_prov_resp *r, const char *type,
                             mp_err *err);

/* ---- randomness ---- */

/* Fills |buf| from the kernel CSPRNG (getrandom). Returns 0 or MP_EIO. */
int mp__prov_random_bytes(void *buf, size_t n, mp_err *err);
/* A uniform integer in [0, n) (n >= 1), without modulo bias. */
int mp__prov_random_below(uint64_t n, uint64_t *out, mp_err *err);
/* Lowercase hex of |p| into |out| (2n+1 bytes). */
void mp__prov_hex(const unsigned char *p, size_t n, char *out);
/* A fresh random lowercase hex string of |nbytes| random bytes (owned). */
int mp__prov_random_hex(size_t nbytes, char **out, mp_err *err);

/* A mkostemp() template for a temporary file beside |path| (same folder,
 * so a rename over |path| is atomic): "<dir>/.<name>.tmp-" and the six
 * placeholder characters mkostemp replaces. Owned. */
char *mp__prov_tmp_beside(const char *path);

#endif
