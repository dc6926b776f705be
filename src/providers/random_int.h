/* The `random` package's resource types, shared between random.c (the
 * provider table), random_string.c and random_pet.c. */
#ifndef MP_PROVIDERS_RANDOM_INT_H
#define MP_PROVIDERS_RANDOM_INT_H

#include "providers/providers_int.h"

/* Check of RandomString/RandomPassword: |out| is a copy of |news| that
 * receives the defaults; failures go to |r|. Returns 0. */
int mp__random_check_string(const mp_value *news, mp_value *out,
                            mp_prov_resp *r);
/* Check of RandomPet. */
int mp__random_check_pet(const mp_value *news, mp_value *out, mp_prov_resp *r);

/* Generators: add the result properties of checked inputs |in| to
 * |outputs| and set *id (owned). |type| names the type in errors. Return 0
 * or an MP_E code. */
int mp__random_gen_string(const mp_value *in, const char *type,
                          mp_value *outputs, char **id, mp_err *err);
int mp__random_gen_password(const mp_value *in, const char *type,
                            mp_value *outputs, char **id, mp_err *err);
int mp__random_gen_pet(const mp_value *in, const char *type, mp_value *outputs,
                       char **id, mp_err *err);

/* RandomShuffle (random_shuffle.c). */
int mp__random_check_shuffle(const mp_value *news, mp_value *out,
                             mp_prov_resp *r);
int mp__random_gen_shuffle(const mp_value *in, const char *type,
                           mp_value *outputs, char **id, mp_err *err);

/* RandomId's results (b64Url, b64Std, hex, dec, each after |prefix|) for
 * |bytes|; *id (owned) is the unprefixed URL-safe base64. */
void mp__random_id_outputs(const unsigned char *bytes, size_t n,
                           const char *prefix, mp_value *outputs, char **id);
/* RandomBytes' results (base64 and hex, both secret) for |bytes|. */
void mp__random_bytes_outputs(const unsigned char *bytes, size_t n,
                              mp_value *outputs);

/* Read: on refresh the state is the resource (nothing exists elsewhere);
 * on import the ID is parsed as pulumi-random documents it. */
int mp__random_read(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err);

#endif
