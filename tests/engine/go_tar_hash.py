#!/usr/bin/env python3
"""An independent reckoning of the archive hashes test_asset_hash.c
expects: the SHA-256 of the tar Go's archive/tar Writer writes when
Pulumi serializes an archive (archive.go archiveTar: each member with
only a name, mode 0600 and a size; USTAR, a long name split into prefix
and name where it can be, else a PAX "x" header; two zero blocks at the
end). Written from Go's archive/tar format rules, not from the C code;
its hashes were seen to equal those Go 1.19's archive/tar writes.

Run it to print the hashes of the test's cases (the C test states them).
"""
import hashlib

BLOCK = 512


def _string(b, off, size, s):
    b[off:off + min(len(s), size)] = s[:size]
    if len(s) < size:
        b[off + len(s)] = 0
    if len(s) > size and b[off + size - 1] == ord("/"):
        n = len(s[:size].rstrip(b"/"))
        b[off + n] = 0


def _octal(b, off, size, x):
    if x >= 8 ** (size - 1):
        x = 0
    _string(b, off, size, format(x, "o").rjust(size - 1, "0").encode())


def _finish(b):
    b[257:263] = b"ustar\0"
    b[263:265] = b"00"
    b[148:156] = b" " * 8
    _octal(b, 148, 7, sum(b))
    b[155] = ord(" ")


def _template(name, flag, size):
    b = bytearray(BLOCK)
    b[156] = ord(flag)
    _string(b, 0, 100, name)
    _octal(b, 100, 8, 0o600)
    _octal(b, 108, 8, 0)
    _octal(b, 116, 8, 0)
    _octal(b, 124, 12, size)
    _octal(b, 136, 12, 0)
    _octal(b, 329, 8, 0)
    _octal(b, 337, 8, 0)
    return b


def _split(name):
    """Where USTAR splits a long ASCII name (prefix <= 155, name <= 100)."""
    if len(name) <= 100 or not name.isascii():
        return None
    n = len(name)
    if n > 156:
        n = 156
    elif name[n - 1] == "/":
        n -= 1
    i = name.rfind("/", 0, n)
    if i <= 0 or len(name) - i - 1 > 100 or len(name) - i - 1 == 0 or i > 155:
        return None
    return i


def _pax_record(key, value):
    size = len(key) + len(value.encode()) + 3
    size += len(str(size))
    rec = "%d %s=%s\n" % (size, key, value)
    if len(rec.encode()) != size:
        size = len(rec.encode())
        rec = "%d %s=%s\n" % (size, key, value)
    return rec.encode()


def _pad(n):
    return b"\0" * ((BLOCK - n % BLOCK) % BLOCK)


def _clean_join(a, b):
    import posixpath
    parts = [p for p in (a, b) if p]
    return posixpath.normpath("/".join(parts)) if parts else ""


def _ascii(s):
    return "".join(c for c in s if ord(c) < 0x80 and c != "\0")


def header(name, size):
    flag = "5" if name.endswith("/") else "0"
    raw = name.encode()
    long_or_wide = not name.isascii() or len(raw) > 100
    split = _split(name)
    if long_or_wide and split is None:
        recs = _pax_record("path", name)
        d, f = name.rsplit("/", 1) if "/" in name else ("", name)
        xname = _clean_join(_clean_join(d + "/" if d else "", "PaxHeaders.0"), f)
        xname = _ascii(xname)[:100].rstrip("/")
        x = bytearray(BLOCK)
        x[156] = ord("x")
        _string(x, 0, 100, xname.encode())
        for off, sz in ((100, 8), (108, 8), (116, 8), (136, 12)):
            _octal(x, off, sz, 0)
        _octal(x, 124, 12, len(recs))
        _finish(x)
        b = _template(_ascii(name).encode(), flag, size)
        _finish(b)
        return bytes(x) + recs + _pad(len(recs)) + bytes(b)
    if split is not None:
        b = _template(raw[split + 1:], flag, size)
        _string(b, 345, 155, raw[:split])
    else:
        b = _template(raw, flag, size)
    _finish(b)
    return bytes(b)


def tar_hash(members):
    """members: (name, bytes) in Pulumi's order; a repeated name is kept
    once, at its first place."""
    seen, out = set(), b""
    for name, data in members:
        if name in seen:
            continue
        seen.add(name)
        out += header(name, len(data)) + data + _pad(len(data))
    return hashlib.sha256(out + b"\0" * 1024).hexdigest()


CASES = {
    # Pulumi's asset_test.go: FromAssets({"foo": text "a test asset"})
    "pulumi_foo": [("foo", b"a test asset")],
    "empty": [],
    # the l2-resource-asset-archive folder
    "folder": [("test.txt", b"data in a folder")],
    # l2-resource-asset-archive's asset archive: keys in byte order, the
    # folder and archive.tar's member under their keys
    "assarc": [("archive/dir/data.txt", b"data"), ("file", b"text"),
               ("folder/test.txt", b"data in a folder"),
               ("string", b"file contents")],
    # filepath.Walk's order, .pulumi left out
    "walk": [("B.txt", b"B"), ("a.txt", b"a"), ("b/c.txt", b"c"),
             ("b/d/e.txt", b"e")],
    # the first of two same names is kept
    "dedup": [("a/x.txt", b"from the folder"), ("a/x.txt", b"from the map")],
    # (keys in byte order) a non-ASCII name (PAX), a long name USTAR
    # splits, one it cannot (PAX)
    "names": [("caf\u00e9.txt", b"accent"),
              ("d" * 60 + "/" + "e" * 60 + "/f.txt", b"split"),
              ("g" * 120, b"pax")],
    # members of nested .tgz and .zip archives under their keys
    "nested": [("t/x/one.txt", b"one"), ("t/two.txt", b"two"),
               ("z/three.txt", b"three")],
}

if __name__ == "__main__":
    for case, members in CASES.items():
        print(case, tar_hash(members))
