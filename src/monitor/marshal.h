/* Protobuf requests → goals, and states → responses. */
#ifndef MP_MARSHAL_H
#define MP_MARSHAL_H

#include "engine/asset_hash.h"
#include "engine/goal.h"
#include "engine/resource.h"
#include "pulumi/resource.pb-c.h"

/* The inputs' and the replacement trigger's assets and archives get
 * their hashes (|assets|: where from), as Pulumi's monitor computes them
 * on RegisterResource; |assets| NULL: the text assets only (the rest is
 * the caller's). */
int mp__monitor_goal_from_register(const Pulumirpc__RegisterResourceRequest *q,
                                   const mp_asset_hash_opts *assets,
                                   mp_goal **out, mp_err *err);
int mp__monitor_goal_from_read(const Pulumirpc__ReadResourceRequest *q,
                               mp_goal **out, mp_err *err);
/* Owned results; free with the matching _free. |pb_flags| from value_pb.h. */
Pulumirpc__RegisterResourceResponse *
mp__monitor_register_response(const mp_resource *st, unsigned pb_flags,
                              int preview);
void mp__monitor_register_response_free(Pulumirpc__RegisterResourceResponse *r);
Pulumirpc__ReadResourceResponse *
mp__monitor_read_response(const mp_resource *st, unsigned pb_flags);
void mp__monitor_read_response_free(Pulumirpc__ReadResourceResponse *r);
/* Parses a Go-style duration ("5m", "1h30m", "90s", "1.5h") into seconds.
 * Returns 0 or MP_EINVAL. */
int mp__monitor_parse_duration(const char *s, double *out, mp_err *err);

#endif
