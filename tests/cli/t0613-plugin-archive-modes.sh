#!/bin/bash
# Issue 49 (4): an archive's modes when a plugin is installed (as root,
# where they would count most): its `.` entry does not set the plugin
# folder's mode, setuid, setgid and sticky bits are dropped, folders get
# 0700 (as Pulumi's extraction makes them), and a device node, a FIFO or
# a socket refuses the whole archive, leaving nothing installed.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"
umask 022

python3 - "$T" <<'PY'
import io, sys, tarfile
T = sys.argv[1]
def entry(t, name, kind=tarfile.REGTYPE, mode=0o644, data=b"", **kw):
    i = tarfile.TarInfo(name); i.type = kind; i.mode = mode
    i.uid = i.gid = 0; i.uname = i.gname = "root"
    for k, v in kw.items(): setattr(i, k, v)
    i.size = len(data) if kind == tarfile.REGTYPE else 0
    t.addfile(i, io.BytesIO(data) if i.size else None)
def make(name, *extra):
    with tarfile.open(f"{T}/{name}.tgz", "w:gz") as t:
        entry(t, ".", tarfile.DIRTYPE, 0o777)
        entry(t, "./pulumi-resource-modes", mode=0o4755, data=b"#!/bin/sh\nexit 0\n")
        entry(t, "./lib", tarfile.DIRTYPE, 0o1777)
        entry(t, "./lib/helper", mode=0o2775, data=b"#!/bin/sh\n")
        entry(t, "./lib/data", mode=0o640, data=b"data\n")
        for e in extra:
            entry(t, *e[:2], **e[2])
make("modes")
make("chardev", ("./dev-null", tarfile.CHRTYPE, {"devmajor": 1, "devminor": 3}))
make("blockdev", ("./disk", tarfile.BLKTYPE, {"devmajor": 7, "devminor": 0}))
make("fifo", ("./lib/pipe", tarfile.FIFOTYPE, {}))
PY

run plugin install resource modes 1.0.0 --file "$T/modes.tgz"
expect_rc 0 "install of an archive with odd modes"
D="$CACHE/resource-modes-v1.0.0"
mode() { stat -c %a "$1"; }
[ "$(mode "$D")" = 700 ] || fail "the plugin folder keeps the install's mode, not the archive's '.': $(mode "$D")"
[ "$(mode "$D/pulumi-resource-modes")" = 755 ] ||
  fail "no setuid bit on the plugin: $(mode "$D/pulumi-resource-modes")"
[ "$(mode "$D/lib")" = 700 ] || fail "a folder is 0700, without its sticky bit: $(mode "$D/lib")"
[ "$(mode "$D/lib/helper")" = 755 ] || fail "no setgid bit, the umask applies: $(mode "$D/lib/helper")"
[ "$(mode "$D/lib/data")" = 640 ] || fail "plain permissions are kept: $(mode "$D/lib/data")"
[ -x "$D/pulumi-resource-modes" ] || fail "the plugin is executable"

for bad in chardev:"a character device" blockdev:"a block device" fifo:"a FIFO"; do
  name=${bad%%:*} what=${bad#*:}
  run plugin install resource "$name" 1.0.0 --file "$T/$name.tgz"
  expect_rc 1 "$name: refused"
  expect_err "refusing the tarball '$T/$name.tgz'" "$name: the archive is named"
  expect_err "is $what, which a plugin may not hold" "$name: and why"
  [ -e "$CACHE/resource-$name-v1.0.0" ] && fail "$name: nothing stays installed: $(find "$CACHE/resource-$name-v1.0.0")"
  [ -e "$CACHE/resource-$name-v1.0.0.partial" ] && fail "$name: no marker stays"
done
finish
