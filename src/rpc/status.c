#include "rpc/status.h"

#include <stdlib.h>
#include <string.h>

#include "google/rpc/status.pb-c.h"

const char *mp_rpc_code_name(int code) {
  static const char *const names[] = {
      "OK",
      "CANCELLED",
      "UNKNOWN",
      "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED",
      "NOT_FOUND",
      "ALREADY_EXISTS",
      "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION",
      "ABORTED",
      "OUT_OF_RANGE",
      "UNIMPLEMENTED",
      "INTERNAL",
      "UNAVAILABLE",
      "DATA_LOSS",
      "UNAUTHENTICATED",
  };
  if (code < 0 || (size_t)code >= MP_ARRAY_LEN(names)) return "UNKNOWN_CODE";
  return names[code];
}

/* The table gRPC's HTTP/2 transport documents for non-200 replies. */
int mp_rpc_code_from_http(int http_status) {
  switch (http_status) {
  case 400: return MP_RPC_INTERNAL;
  case 401: return MP_RPC_UNAUTHENTICATED;
  case 403: return MP_RPC_PERMISSION_DENIED;
  case 404: return MP_RPC_UNIMPLEMENTED;
  case 429:
  case 502:
  case 503:
  case 504: return MP_RPC_UNAVAILABLE;
  default: return MP_RPC_UNKNOWN;
  }
}

void mp_rpc_status_init(mp_rpc_status *st) { memset(st, 0, sizeof(*st)); }

void mp_rpc_status_destroy(mp_rpc_status *st) {
  free(st->message);
  for (size_t i = 0; i < st->ndetails; i++) {
    free(st->details[i].type_url);
    free(st->details[i].value);
  }
  free(st->details);
  mp_rpc_status_init(st);
}

void mp_rpc_status_set(mp_rpc_status *st, int code, const char *message) {
  free(st->message);
  st->code = code;
  st->message = mp_xstrdup(message);
}

void mp_rpc_status_move(mp_rpc_status *dst, mp_rpc_status *src) {
  mp_rpc_status_destroy(dst);
  *dst = *src;
  mp_rpc_status_init(src);
}

const mp_rpc_detail *mp_rpc_status_find_detail(const mp_rpc_status *st,
                                               const char *type_name) {
  for (size_t i = 0; i < st->ndetails; i++) {
    const char *url = st->details[i].type_url;
    const char *slash = strrchr(url, '/');
    const char *name = slash ? slash + 1 : url;
    if (strcmp(name, type_name) == 0) return &st->details[i];
  }
  return NULL;
}

int mp_rpc_status_decode_details(mp_rpc_status *st, const uint8_t *bin,
                                 size_t len, mp_err *err) {
  Google__Rpc__Status *pb = google__rpc__status__unpack(NULL, len, bin);
  if (pb == NULL)
    return mp_err_set(err, MP_EPROTO,
                      "grpc-status-details-bin holds %zu bytes that are not a "
                      "google.rpc.Status message",
                      len);
  st->details = mp_xreallocarray(st->details, st->ndetails + pb->n_details,
                                 sizeof(*st->details));
  for (size_t i = 0; i < pb->n_details; i++) {
    const Google__Protobuf__Any *any = pb->details[i];
    mp_rpc_detail *d = &st->details[st->ndetails++];
    d->type_url = mp_xstrdup(any->type_url ? any->type_url : "");
    d->len = any->value.len;
    d->value = mp_xmalloc(d->len);
    if (d->len) memcpy(d->value, any->value.data, d->len);
  }
  google__rpc__status__free_unpacked(pb, NULL);
  return 0;
}

void mp_rpc_status_encode_details(int code, const char *message,
                                  const mp_rpc_detail *details, size_t n,
                                  mp_buf *out) {
  Google__Rpc__Status pb = GOOGLE__RPC__STATUS__INIT;
  Google__Protobuf__Any *anys = mp_xcalloc(n, sizeof(*anys));
  Google__Protobuf__Any **ptrs = mp_xcalloc(n, sizeof(*ptrs));
  pb.code = code;
  pb.message = (char *)(message ? message : "");
  for (size_t i = 0; i < n; i++) {
    google__protobuf__any__init(&anys[i]);
    anys[i].type_url = details[i].type_url;
    anys[i].value.data = details[i].value;
    anys[i].value.len = details[i].len;
    ptrs[i] = &anys[i];
  }
  pb.n_details = n;
  pb.details = ptrs;
  size_t size = google__rpc__status__get_packed_size(&pb);
  uint8_t *bytes = mp_xmalloc(size);
  google__rpc__status__pack(&pb, bytes);
  mp_buf_append(out, bytes, size);
  free(bytes);
  free(ptrs);
  free(anys);
}

static const char hex_digits[] = "0123456789ABCDEF";

char *mp_rpc_pct_encode(const char *s) {
  mp_buf b;
  mp_buf_init(&b);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p >= 0x20 && *p <= 0x7e && *p != '%') {
      mp_buf_putc(&b, (char)*p);
      continue;
    }
    char esc[3] = {'%', hex_digits[*p >> 4], hex_digits[*p & 15]};
    mp_buf_append(&b, esc, 3);
  }
  return mp_buf_detach(&b, NULL);
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char *mp_rpc_pct_decode(const char *s, size_t n) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < n; i++) {
    int hi = s[i] == '%' && i + 2 < n ? hex_value(s[i + 1]) : -1;
    int lo = hi >= 0 ? hex_value(s[i + 2]) : -1;
    if (lo >= 0) {
      mp_buf_putc(&b, (char)(hi << 4 | lo));
      i += 2;
    } else {
      mp_buf_putc(&b, s[i]);
    }
  }
  return mp_buf_detach(&b, NULL);
}

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void mp_rpc_b64_encode(const uint8_t *p, size_t n, mp_buf *out) {
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
    if (i + 2 < n) v |= p[i + 2];
    char q[4] = {b64_alphabet[v >> 18 & 63], b64_alphabet[v >> 12 & 63],
                 i + 1 < n ? b64_alphabet[v >> 6 & 63] : '=',
                 i + 2 < n ? b64_alphabet[v & 63] : '='};
    mp_buf_append(out, q, 4);
  }
}

static int b64_value(char c) {
  const char *at = c ? strchr(b64_alphabet, c) : NULL;
  return at ? (int)(at - b64_alphabet) : -1;
}

int mp_rpc_b64_decode(const char *s, size_t n, mp_buf *out, mp_err *err) {
  while (n > 0 && s[n - 1] == '=') n--;
  if (n % 4 == 1)
    return mp_err_set(err, MP_EPROTO,
                      "base64 value has a bad length (%zu characters)", n);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; i++) {
    int v = b64_value(s[i]);
    if (v < 0)
      return mp_err_set(err, MP_EPROTO,
                        "base64 value has a bad character at offset %zu", i);
    acc = acc << 6 | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      mp_buf_putc(out, (char)(acc >> bits & 0xff));
    }
  }
  return 0;
}
