/* --policy-pack and --policy-pack-config of up, preview, refresh and
 * destroy, as a group of option rows, and their check: each
 * pack is a folder with a PulumiPolicy.yaml, each config a JSON object,
 * at most one config per pack, in the packs' order (Pulumi's rule). */
#ifndef MP_CLI_OP_POLICY_H
#define MP_CLI_OP_POLICY_H

#include "cli/args.h"
#include "cli/ctx.h"
#include "engine/value.h"

typedef struct mp_op_policy {
  mp_strv packs;   /* --policy-pack DIR, in order */
  mp_strv configs; /* --policy-pack-config FILE, the i-th for the i-th pack */
} mp_op_policy;

void mp_op_policy_init(mp_op_policy *p);
void mp_op_policy_destroy(mp_op_policy *p);

/* Fills |rows| (room for 3) with rows writing into |p|. */
void mp_op_policy_rows(mp_opt *rows, mp_op_policy *p);

/* Reads the --policy-pack-config file |path| into *out (an OBJECT; NULL
 * for an empty file, as Pulumi). Each entry must be an enforcement level
 * or an object (whose "enforcementLevel", if any, is one): Pulumi's
 * parse errors. Returns 0, MP_EIO or MP_EINVAL with |err| naming the flag
 * and path. */
int mp_op_policy_read_config(const char *path, mp_value **out, mp_err *err);

/* Refuses a pack that is not a policy pack folder, more configs than
 * packs, and a config that is not a readable JSON object, naming the
 * flag and the path. Returns 0 or an exit status. */
int mp_op_policy_check(mp_ctx *ctx, const mp_op_policy *p);

#endif
