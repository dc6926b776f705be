/* Property values <-> google.protobuf.Struct / Value, with Pulumi's
 * signature-key encoding as used on the gRPC wire (docs/sdk-contract.md,
 * "Property values on the wire"). Only the RPC layers (monitor, provider
 * client) include this header; engine headers never mention protobuf types
 * (docs/style.md, "Headers and layers").
 *
 * Ownership: every message returned by mp_value_to_pb* is allocated on the
 * heap by this module (all strings and sub-messages included) and must be
 * released with the matching mp_value_pb_*_free function, never with
 * protobuf-c's __free_unpacked (which would work today only because both
 * use malloc). Messages passed to mp_value_from_pb* are borrowed; they may
 * come from protobuf-c's __unpack and are released by their owner. */
#ifndef MP_VALUE_PB_H
#define MP_VALUE_PB_H

#include "engine/value.h"
#include "google/protobuf/struct.pb-c.h"

/* What the receiving side accepts (its Configure/SupportsFeature answers).
 * Without a flag the corresponding values are lowered to plain values. */
enum mp_value_pb_flags {
  /* Keep secrets as {sig: secret, value: v}; otherwise send v. */
  MP_PB_KEEP_SECRETS = 1 << 0,
  /* Keep resource references as {sig: ref, urn, id?, packageVersion?};
   * otherwise send the id of a custom resource ("" id: unknown) or the urn
   * of a component. */
  MP_PB_KEEP_RESOURCES = 1 << 1,
  /* Keep output values as {sig: output, value?, secret?, dependencies?};
   * otherwise send the value (a secret when the output is secret and
   * secrets are kept), or unknown when the value is unknown. */
  MP_PB_KEEP_OUTPUT_VALUES = 1 << 2,
  /* Drop unknowns (object keys and array elements) instead of sending the
   * unknown sentinel string (non-preview provider calls). */
  MP_PB_DROP_UNKNOWNS = 1 << 3,
  /* Omit object keys whose value is null. */
  MP_PB_SKIP_NULLS = 1 << 4
};

/* Encodes |v| (NULL means null) as a Value; every Value in the result has
 * its oneof member set (a kind-less Value crashes the Node SDK). Returns
 * an owned message (free with mp_value_pb_value_free); never fails. A
 * dropped unknown at the top (MP_PB_DROP_UNKNOWNS) is encoded as null. */
Google__Protobuf__Value *mp_value_to_pb(const mp_value *v, unsigned flags);

/* Encodes OBJECT |obj| (NULL means empty) as a Struct, keys in sorted
 * order. A top-level secret or known output wrapper around an object is
 * looked through. Sets *out to an owned message (free with
 * mp_value_pb_struct_free). Returns 0, or MP_EINVAL when |obj| is not an
 * object (then *out is NULL). */
int mp_value_to_pb_struct(const mp_value *obj, unsigned flags,
                          Google__Protobuf__Struct **out, mp_err *err);

/* Decodes |pb| (borrowed; NULL or a Value without a kind means null) into
 * a new value in *out, recognising the signature objects: secrets, assets
 * (the SDK's extra "__pulumiAsset" marker is ignored), archives, resource
 * references, output values (absent "value" = unknown) and the unknown
 * sentinel string. Returns 0, or MP_EPROTO with |err| naming the problem
 * and the property path (unrecognized signature, malformed special object,
 * nesting deeper than 512 levels). */
int mp_value_from_pb(const Google__Protobuf__Value *pb, mp_value **out,
                     mp_err *err);

/* Like mp_value_from_pb for a Struct (NULL means an empty object); *out is
 * an OBJECT on success. Returns 0 or MP_EPROTO. */
int mp_value_from_pb_struct(const Google__Protobuf__Struct *s, mp_value **out,
                            mp_err *err);

/* Free messages returned by this module; NULL is fine. */
void mp_value_pb_value_free(Google__Protobuf__Value *v);
void mp_value_pb_struct_free(Google__Protobuf__Struct *s);

/* Appends |msg|, any protobuf-c message, packed (its wire bytes), to
 * |out|. */
void mp_pb_pack(const ProtobufCMessage *msg, mp_buf *out);

#endif
