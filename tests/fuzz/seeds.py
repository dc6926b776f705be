#!/usr/bin/env python3
"""Writes the binary seeds of the libFuzzer corpora (tests/fuzz/corpus/):
google.protobuf.Value messages of the values the engine's tests use
(fuzz_value_pb), gRPC frames (fuzz_rpc_reader) and HTTP/2 client streams
of gRPC calls to the Engine service (fuzz_rpc_server). The text corpora
are files taken from the tests. Run from anywhere; rewrites the seeds."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SIG = "4dabf18193072939515e22adb298388d"
SECRET, ASSET, ARCHIVE = ("1b47061264138c4ac30d75fd1eb44270",
                          "c44067f5952c0a294b673a41bacd8c17",
                          "0def7320c3a5731c473e5ecbe6d01bc7")
REF, OUTPUT = ("5cf8f73096256a8f31e491e813e4eb8e",
               "d0e6a833031e9bbcd3f4e8bde6ca49a4")
UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
URN = "urn:pulumi:dev::proj::test:index:Resource::a"


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(num, wire, payload):
    key = varint(num << 3 | wire)
    if wire == 2:
        return key + varint(len(payload)) + payload
    return key + payload


def pb_value(v):
    """google.protobuf.Value of a Python value (None, bool, number, str,
    list, dict)."""
    if v is None:
        return field(1, 0, varint(0))
    if isinstance(v, bool):
        return field(4, 0, varint(int(v)))
    if isinstance(v, (int, float)):
        return field(2, 1, struct.pack("<d", float(v)))
    if isinstance(v, str):
        return field(3, 2, v.encode())
    if isinstance(v, list):
        return field(6, 2, b"".join(field(1, 2, pb_value(x)) for x in v))
    return field(5, 2, pb_struct(v))


def pb_struct(d):
    return b"".join(
        field(1, 2, field(1, 2, k.encode()) + field(2, 2, pb_value(x)))
        for k, x in d.items())


VALUES = {
    "plain": {"s": "text", "n": 42, "f": 1.5, "b": True, "z": None,
              "l": [1, "two", [3]], "o": {"k": "v"}},
    "secret": {"password": {SIG: SECRET, "value": "s3cret"}},
    "unknown": {"id": UNKNOWN, "list": [UNKNOWN, 1]},
    "asset": {"a": {SIG: ASSET, "text": "hello", "hash": ""},
              "p": {SIG: ASSET, "path": "./file.txt", "__pulumiAsset": True},
              "u": {SIG: ASSET, "uri": "https://example.com/x"}},
    "archive": {"a": {SIG: ARCHIVE, "assets": {
        "f": {SIG: ASSET, "text": "x"},
        "d": {SIG: ARCHIVE, "path": "./dir"}}},
        "u": {SIG: ARCHIVE, "uri": "https://example.com/a.zip"}},
    "ref": {"r": {SIG: REF, "urn": URN, "id": "id-1", "packageVersion": "1.0.0"},
            "c": {SIG: REF, "urn": URN}},
    "output": {"known": {SIG: OUTPUT, "value": "v", "secret": True,
                         "dependencies": [URN]},
               "unknown": {SIG: OUTPUT, "dependencies": [URN]},
               "nested": {SIG: SECRET, "value": {SIG: OUTPUT, "value": [1]}}},
    "bad-sig": {"x": {SIG: "nope"}},
    "bad-secret": {"x": {SIG: SECRET}},
}


# ---- gRPC frames and HTTP/2 streams ----

def grpc_frame(msg, compressed=0):
    return bytes([compressed]) + struct.pack(">I", len(msg)) + msg


def h2_frame(ftype, flags, stream, payload):
    return (struct.pack(">I", len(payload))[1:] + bytes([ftype, flags]) +
            struct.pack(">I", stream) + payload)


def hpack(headers):
    """Literal header fields without indexing, names and values raw."""
    out = b""
    for name, value in headers:
        out += b"\x00" + varint_h(len(name)) + name.encode()
        out += varint_h(len(value)) + value.encode()
    return out


def varint_h(n):  # HPACK integer with a 7-bit prefix, no Huffman
    if n < 127:
        return bytes([n])
    out = bytes([127])
    n -= 127
    while n >= 128:
        out += bytes([n % 128 + 128])
        n //= 128
    return out + bytes([n])


PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST, SETTINGS, PING, GOAWAY, WINDOW = 0, 1, 3, 4, 6, 7, 8
END_STREAM, END_HEADERS, ACK = 1, 4, 1


def request_headers(path, ctype="application/grpc"):
    return hpack([(":method", "POST"), (":scheme", "http"), (":path", path),
                  (":authority", "127.0.0.1"), ("content-type", ctype),
                  ("te", "trailers")])


def call(stream, path, msg, ctype="application/grpc", split=None):
    out = h2_frame(HEADERS, END_HEADERS, stream, request_headers(path, ctype))
    body = grpc_frame(msg)
    if split:
        out += h2_frame(DATA, 0, stream, body[:split])
        body = body[split:]
    return out + h2_frame(DATA, END_STREAM, stream, body)


LOG = (field(1, 0, varint(2)) + field(2, 2, b"a warning") +
       field(3, 2, URN.encode()) + field(4, 0, varint(7)))
SET_ROOT = field(1, 2, b"urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev")
START = PREFACE + h2_frame(SETTINGS, 0, 0, b"")

STREAMS = {
    "log": START + call(1, "/pulumirpc.Engine/Log", LOG),
    "log-split": START + call(1, "/pulumirpc.Engine/Log", LOG, split=3),
    "roots": START + call(1, "/pulumirpc.Engine/SetRootResource", SET_ROOT) +
    call(3, "/pulumirpc.Engine/GetRootResource", b""),
    "unknown-method": START + call(1, "/pulumirpc.Nope/Nothing", b"x"),
    "bad-content-type": START + call(1, "/pulumirpc.Engine/Log", LOG,
                                     ctype="text/plain"),
    "too-large": START + call(1, "/pulumirpc.Engine/Log",
                              field(2, 2, b"x" * 5000)),
    "compressed": START + h2_frame(HEADERS, END_HEADERS, 1,
                                   request_headers("/pulumirpc.Engine/Log")) +
    h2_frame(DATA, END_STREAM, 1, grpc_frame(LOG, compressed=1)),
    "no-message": START + h2_frame(HEADERS, END_HEADERS | END_STREAM, 1,
                                   request_headers("/pulumirpc.Engine/Log")),
    "control": START + h2_frame(PING, 0, 0, b"12345678") +
    h2_frame(WINDOW, 0, 0, struct.pack(">I", 1 << 20)) +
    h2_frame(SETTINGS, ACK, 0, b"") +
    call(1, "/pulumirpc.Engine/Log", LOG) +
    h2_frame(RST, 0, 1, struct.pack(">I", 8)) +
    h2_frame(GOAWAY, 0, 0, struct.pack(">II", 1, 0)),
    "bad-log": START + call(1, "/pulumirpc.Engine/Log", b"\xff\xff\xff"),
}

FRAMES = {
    "empty": grpc_frame(b""),
    "log": grpc_frame(LOG),
    "compressed": grpc_frame(LOG, compressed=1),
    "trailing": grpc_frame(b"ab") + b"cd",
    "short": grpc_frame(b"abcdef")[:8],
    "huge-length": b"\x00\xff\xff\xff\xffxyz",
}


def write(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    for name, v in VALUES.items():
        write("fuzz_value_pb", name, pb_value(v))
    for name, s in STREAMS.items():
        write("fuzz_rpc_server", name, s)
    for name, f in FRAMES.items():
        # The first byte: receive limit 63 * 16 bytes, chunks of 4 bytes.
        write("fuzz_rpc_reader", name, bytes([0x7F]) + f)


if __name__ == "__main__":
    main()
