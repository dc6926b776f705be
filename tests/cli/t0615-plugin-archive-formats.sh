#!/bin/bash
# Issue 49 (10): `plugin install --file` tells an archive by its content
# (libarchive), not by its exec bit: .tar.xz, .tar.bz2, zip and an
# old-style (v7) tar install like a .tar.gz, executable or not; a
# compressed file that holds no archive is refused, even when it is
# executable; a program is still installed as the plugin.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"

python3 - "$T" <<'PY'
import bz2, io, lzma, sys, tarfile, zipfile
T = sys.argv[1]
PROG = b"#!/bin/sh\nexit 0\n"
def tar_bytes(name, fmt=tarfile.USTAR_FORMAT):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=fmt) as t:
        i = tarfile.TarInfo(f"pulumi-resource-{name}"); i.size = len(PROG); i.mode = 0o755
        t.addfile(i, io.BytesIO(PROG))
    return b.getvalue()
def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
write(f"{T}/xz.tar.xz", lzma.compress(tar_bytes("xz")))
write(f"{T}/bz.tar.bz2", bz2.compress(tar_bytes("bz")))
write(f"{T}/plain.tar", tar_bytes("plain", tarfile.GNU_FORMAT))
# v7: a ustar header without its magic and version, checksum redone.
raw = bytearray(tar_bytes("vseven"))
raw[257:265] = b"\0" * 8
raw[148:156] = b" " * 8
raw[148:156] = b"%06o\0 " % sum(raw[:512])
write(f"{T}/v7.tar", bytes(raw))
z = io.BytesIO()
with zipfile.ZipFile(z, "w") as zf:
    info = zipfile.ZipInfo("pulumi-resource-zipped")
    info.external_attr = 0o100755 << 16
    zf.writestr(info, PROG)
write(f"{T}/zipped.zip", z.getvalue())
# xz of a program, not of an archive.
write(f"{T}/prog.xz", lzma.compress(PROG))
PY

for f in xz:xz.tar.xz bz:bz.tar.bz2 plain:plain.tar vseven:v7.tar zipped:zipped.zip; do
  name=${f%%:*} file=${f#*:}
  chmod 644 "$T/$file"
  run plugin install resource "$name" 1.0.0 --file "$T/$file"
  expect_rc 0 "$file: installed"
  [ -x "$CACHE/resource-$name-v1.0.0/pulumi-resource-$name" ] ||
    fail "$file: the archive's plugin is installed: $(find "$CACHE/resource-$name-v1.0.0" 2>&1)"
done
# The exec bit does not make an archive a program.
chmod 755 "$T/bz.tar.bz2"
run plugin install resource bz 2.0.0 --file "$T/bz.tar.bz2"
expect_rc 0 "an executable archive is still an archive"
[ -x "$CACHE/resource-bz-v2.0.0/pulumi-resource-bz" ] || fail "its plugin is installed"
[ -e "$CACHE/resource-bz-v2.0.0/pulumi-resource-bz.tar.bz2" ] && fail "nothing else"

chmod 755 "$T/prog.xz"
run plugin install resource prog 1.0.0 --file "$T/prog.xz"
expect_rc 1 "a compressed file that holds no archive"
expect_err "is xz-compressed but holds no archive" "the message says what it is"
[ -e "$CACHE/resource-prog-v1.0.0" ] && fail "nothing is installed"

printf '#!/bin/sh\nexit 0\n' >"$T/pulumi-resource-solo" && chmod 755 "$T/pulumi-resource-solo"
run plugin install resource solo 1.0.0 --file "$T/pulumi-resource-solo"
expect_rc 0 "a program"
[ -x "$CACHE/resource-solo-v1.0.0/pulumi-resource-solo" ] || fail "the program is the plugin"
chmod 644 "$T/pulumi-resource-solo"
run plugin install resource solo 2.0.0 --file "$T/pulumi-resource-solo"
expect_rc 1 "a program that is not executable"
expect_err "is not executable" "Pulumi's words"
finish
