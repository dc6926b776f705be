#!/bin/bash
# Issue 49 (5): an archive's symbolic links are resolved against the links
# it made before them, as the file system will resolve them: a chain of
# relative links that each look inside (x/y -> .., c -> x/y/.., d -> c/..)
# is refused, and so is a link whose meaning a later entry changes, or a
# hard link to a symbolic link. Links that stay inside install as before.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"

python3 - "$T" <<'PY'
import io, sys, tarfile
T = sys.argv[1]
def make(name, entries):
    with tarfile.open(f"{T}/{name}.tgz", "w:gz") as t:
        data = b"#!/bin/sh\nexit 0\n"
        i = tarfile.TarInfo("pulumi-resource-links"); i.size = len(data); i.mode = 0o755
        t.addfile(i, io.BytesIO(data))
        for path, kind, target in entries:
            i = tarfile.TarInfo(path); i.type = kind; i.mode = 0o755
            if kind in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                i.linkname = target
            t.addfile(i)
D, S, H = tarfile.DIRTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE
# Each link looks inside on its own, but x/y is the folder itself, so c
# (x/y/..) is its parent, and d (c/..) one more.
make("chain", [("x", D, None), ("x/y", S, ".."), ("c", S, "x/y/.."), ("d", S, "c/..")])
# a -> b/.. is the folder while x is a folder; x then becomes a link to
# `.`, and a climbs out.
make("later", [("x", D, None), ("b", S, "x"), ("a", S, "b/.."), ("x", S, ".")])
# h is a hard link to the link sub/s (which is `..` from sub): h is then a
# link `..` at the top.
make("hardsym", [("sub", D, None), ("sub/s", S, ".."), ("h", H, "sub/s")])
make("loop", [("p", S, "q"), ("q", S, "p")])
# Links that stay inside.
make("fine", [("lib", D, None), ("lib/v1", D, None), ("lib/cur", S, "v1"),
              ("bin", D, None), ("bin/tool", S, "../pulumi-resource-links"),
              ("x", D, None), ("x/y", S, ".."), ("top", S, "x/y/lib/cur/.."),
              ("copy", H, "pulumi-resource-links")])
PY

for bad in chain:c later:a hardsym:h loop:q; do
  name=${bad%%:*} entry=${bad#*:}
  run plugin install resource "links-$name" 1.0.0 --file "$T/$name.tgz"
  expect_rc 1 "$name: refused"
  expect_err "refusing the tarball '$T/$name.tgz': its entry '$entry' is" "$name: the entry is named"
  [ -e "$CACHE/resource-links-$name-v1.0.0" ] && fail "$name: nothing stays installed"
  [ -e "$CACHE/resource-links-$name-v1.0.0.partial" ] && fail "$name: no marker stays"
done
expect_err "a loop of symbolic links" "a loop is named so"
run plugin install resource links-chain 1.0.0 --file "$T/chain.tgz"
expect_err "a symbolic link to outside the plugin's folder" "the chain's message"
run plugin install resource links-hardsym 1.0.0 --file "$T/hardsym.tgz"
expect_err "a hard link to a symbolic link" "the hard link's message"

run plugin install resource links-fine 1.0.0 --file "$T/fine.tgz"
expect_rc 0 "links that stay inside"
D="$CACHE/resource-links-fine-v1.0.0"
[ "$(readlink "$D/bin/tool")" = ../pulumi-resource-links ] || fail "bin/tool is installed"
[ -d "$D/top/v1" ] || fail "top resolves inside: $(ls -la "$D")"
[ -x "$D/copy" ] || fail "a hard link to a file is installed"
finish
