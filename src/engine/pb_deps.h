/* The dependencies per property of a gRPC message: a protobuf
 * map<string, {repeated string urns}> field. Pulumi's messages carry the
 * same map under several names and types (RegisterResourceRequest's
 * propertyDependencies, ConstructRequest's inputDependencies,
 * ResourceCallRequest's and CallRequest's argDependencies); forwarding a
 * request copies it from one to another. The copy works through the
 * messages' descriptors, so one function serves every pair. Only the RPC
 * layers include this header (as engine/value_pb.h). */
#ifndef MP_PB_DEPS_H
#define MP_PB_DEPS_H

#include <protobuf-c/protobuf-c.h>

/* The arrays a copy allocated: its entries, their values and the
 * pointers to the entries that the destination field holds. */
typedef struct mp_pb_deps {
  void *entries, *values, **ptrs;
} mp_pb_deps;

/* Sets the map field named |dst_field| of |dst| to the entries of the map
 * field |src_field| of |src|, in order; a missing value copies as no
 * urns. Keys and urns are borrowed from |src|; the arrays belong to |hold|
 * (free with mp_pb_deps_free once |dst| is packed or dropped). A field
 * that is not such a map is a programming error: it aborts. */
void mp_pb_deps_copy(ProtobufCMessage *dst, const char *dst_field,
                     const ProtobufCMessage *src, const char *src_field,
                     mp_pb_deps *hold);

void mp_pb_deps_free(mp_pb_deps *hold);

#endif
