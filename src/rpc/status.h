/* gRPC status: codes, the status a call ends with, its error details
 * (google.rpc.Status in grpc-status-details-bin), and the text codecs the
 * trailers need (percent-encoded grpc-message, base64 -bin values).
 * Pure functions; any thread. */
#ifndef MP_RPC_STATUS_H
#define MP_RPC_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/mem.h"

/* The gRPC status codes (their wire numbers). */
enum mp_rpc_code {
  MP_RPC_OK = 0,
  MP_RPC_CANCELLED = 1,
  MP_RPC_UNKNOWN = 2,
  MP_RPC_INVALID_ARGUMENT = 3,
  MP_RPC_DEADLINE_EXCEEDED = 4,
  MP_RPC_NOT_FOUND = 5,
  MP_RPC_ALREADY_EXISTS = 6,
  MP_RPC_PERMISSION_DENIED = 7,
  MP_RPC_RESOURCE_EXHAUSTED = 8,
  MP_RPC_FAILED_PRECONDITION = 9,
  MP_RPC_ABORTED = 10,
  MP_RPC_OUT_OF_RANGE = 11,
  MP_RPC_UNIMPLEMENTED = 12,
  MP_RPC_INTERNAL = 13,
  MP_RPC_UNAVAILABLE = 14,
  MP_RPC_DATA_LOSS = 15,
  MP_RPC_UNAUTHENTICATED = 16
};

/* The type name (the part of an Any's type URL after the last '/') of the
 * detail a provider attaches to a partially failed Create/Update/Read. */
#define MP_RPC_TYPE_INIT_FAILED "pulumirpc.ErrorResourceInitFailed"

/* One google.protobuf.Any from a status's details. */
typedef struct mp_rpc_detail {
  char *type_url; /* e.g.
                     "type.googleapis.com/pulumirpc.ErrorResourceInitFailed" */
  uint8_t *value; /* the packed message, owned */
  size_t len;
} mp_rpc_detail;

/* How a call ended: the gRPC code, the peer's message (percent-decoded) and
 * the details it attached. Caller storage; owns its strings. */
typedef struct mp_rpc_status {
  int code;               /* enum mp_rpc_code */
  char *message;          /* NUL-terminated; NULL when there is none */
  mp_rpc_detail *details; /* from grpc-status-details-bin, in wire order */
  size_t ndetails;
} mp_rpc_status;

/* The code's name as gRPC spells it ("OK", "CANCELLED", ...,
 * "UNAUTHENTICATED"); "UNKNOWN_CODE" outside 0..16. */
const char *mp_rpc_code_name(int code);

/* The gRPC code a client reports for an HTTP status that is not 200
 * (404 -> UNIMPLEMENTED, 503 -> UNAVAILABLE, ...; others UNKNOWN). */
int mp_rpc_code_from_http(int http_status);

/* Sets |st| to OK with no message and no details. */
void mp_rpc_status_init(mp_rpc_status *st);
/* Frees the contents of |st| and leaves it OK. */
void mp_rpc_status_destroy(mp_rpc_status *st);
/* Replaces the code and message of |st| (|message| copied, may be NULL);
 * keeps its details. */
void mp_rpc_status_set(mp_rpc_status *st, int code, const char *message);
/* Moves the contents of |src| into |dst| (whose old contents are freed);
 * |src| is left OK and empty. */
void mp_rpc_status_move(mp_rpc_status *dst, mp_rpc_status *src);

/* The first detail of |st| whose type URL ends in "/<type_name>" (or equals
 * |type_name|), or NULL. Borrowed; valid while |st| is unchanged. */
const mp_rpc_detail *mp_rpc_status_find_detail(const mp_rpc_status *st,
                                               const char *type_name);

/* Decodes a packed google.rpc.Status (the bytes of grpc-status-details-bin
 * after base64) and appends its details to |st|. |st|'s code and message
 * are left alone: the trailers' grpc-status and grpc-message rule.
 * Returns 0, or MP_EPROTO when the bytes are not a google.rpc.Status. */
int mp_rpc_status_decode_details(mp_rpc_status *st, const uint8_t *bin,
                                 size_t len, mp_err *err);

/* Packs google.rpc.Status{|code|, |message|, |details|[0..n)} into |out|
 * (appended). |message| may be NULL. */
void mp_rpc_status_encode_details(int code, const char *message,
                                  const mp_rpc_detail *details, size_t n,
                                  mp_buf *out);

/* Percent-encodes |s| for grpc-message: bytes outside 0x20..0x7e and '%'
 * become "%XX". Returns an owned string. */
char *mp_rpc_pct_encode(const char *s);

/* Percent-decodes |s|[0..n). A '%' not followed by two hex digits is kept
 * as it is (a peer's message is shown, never rejected). Returns an owned
 * NUL-terminated string. */
char *mp_rpc_pct_decode(const char *s, size_t n);

/* Appends the standard base64 (with padding) of |p|[0..n) to |out|. */
void mp_rpc_b64_encode(const uint8_t *p, size_t n, mp_buf *out);

/* Decodes standard base64 |s|[0..n), padded or not (gRPC allows both), and
 * appends the bytes to |out|. Returns 0, or MP_EPROTO for a character
 * outside the alphabet or a bad length. */
int mp_rpc_b64_decode(const char *s, size_t n, mp_buf *out, mp_err *err);

#endif
