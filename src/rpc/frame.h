/* gRPC message framing over HTTP/2 DATA: every message is a 5-byte prefix
 * (a compressed flag, then the length as 32-bit big-endian) followed by the
 * protobuf bytes. The reader reassembles one unary message from DATA chunks
 * of any size. Pure code; the owner's thread. */
#ifndef MP_RPC_FRAME_H
#define MP_RPC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "engine/err.h"
#include "engine/mem.h"

#define MP_RPC_PREFIX_LEN 5
/* The largest message a gRPC frame can carry (the length is 32 bits). */
#define MP_RPC_MAX_FRAME_LEN 0xffffffffu
/* Default receive limit: the SDK and its provider servers accept 400 MiB. */
#define MP_RPC_DEFAULT_MAX_RECV ((size_t)400 << 20)

/* Writes the prefix of an uncompressed message of |len| bytes
 * (|len| <= MP_RPC_MAX_FRAME_LEN) to |out|. */
void mp_rpc_frame_prefix(uint8_t out[MP_RPC_PREFIX_LEN], size_t len);

/* Reassembles the single message of a unary request or reply.
 * Storage grows geometrically up to the announced length, so a message of
 * n bytes costs O(n) copying however it is split, and a peer that announces
 * a large message but sends little makes us allocate little. */
typedef struct mp_rpc_reader {
  size_t max; /* largest accepted message, bytes */
  uint8_t prefix[MP_RPC_PREFIX_LEN];
  size_t prefix_got; /* bytes of |prefix| read so far, 0..5 */
  size_t want;       /* announced message length (valid when prefix_got==5) */
  mp_buf msg;        /* message bytes read so far; msg.len <= want */
  int complete;      /* one whole message has been read */
  int status;        /* gRPC code of the failure (enum mp_rpc_code), or 0 */
} mp_rpc_reader;

/* Prepares |r| to accept one message of at most |max| bytes. */
void mp_rpc_reader_init(mp_rpc_reader *r, size_t max);
/* Frees what |r| holds. */
void mp_rpc_reader_destroy(mp_rpc_reader *r);

/* Consumes DATA bytes |p|[0..n). Returns 0, or MP_EPROTO with r->status
 * set: RESOURCE_EXHAUSTED for a message longer than r->max, INTERNAL for a
 * compressed or otherwise bad prefix or for bytes after the one message.
 * After a failure the reader refuses everything. */
int mp_rpc_reader_feed(mp_rpc_reader *r, const uint8_t *p, size_t n,
                       mp_err *err);

/* 1 when bytes of an unfinished message are pending (the stream ended
 * mid-message), else 0. */
int mp_rpc_reader_partial(const mp_rpc_reader *r);

/* Moves the completed message into |out| (destroyed first); |r| keeps
 * nothing. Only when r->complete. */
void mp_rpc_reader_take(mp_rpc_reader *r, mp_buf *out);

#endif
