/* pulumi:index:Stash's methods (stash.c), for the provider of package
 * `pulumi` (builtins.c). Each returns 0. */
#ifndef MP_DEPLOY_STASH_H
#define MP_DEPLOY_STASH_H

#include "engine/provider.h"

int mp__stash_check(const mp_prov_req *q, mp_prov_resp *r);
int mp__stash_diff(const mp_prov_req *q, mp_prov_resp *r);
int mp__stash_create(const mp_prov_req *q, mp_prov_resp *r);
int mp__stash_update(const mp_prov_req *q, mp_prov_resp *r);
int mp__stash_read(const mp_prov_req *q, mp_prov_resp *r);

#endif
