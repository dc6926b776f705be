#!/bin/bash
# plugin install resource NAME VERSION --file: a tarball built here (a
# folder holding pulumi-resource-testprov, a wrapper that runs the test
# plugin with its version baked in) goes into the cache in Pulumi's layout
# and serves an up; an installed plugin is kept unless --reinstall; two
# installs of the same plugin at once leave one whole plugin; an
# executable is installed as the plugin; a tarball with an absolute path,
# a `..` or a link pointing out is refused and leaves nothing installed;
# Pulumi's errors for a missing version or a bad kind.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"

# tarball VERSION: $T/pulumi-resource-testprov-v<VERSION>-linux-amd64.tar.gz
tarball() {
  local d="$T/pkg-$1"
  testprov_plugin "$1" "$d"
  mkdir -p "$d/lib"
  echo "a file beside the plugin" >"$d/lib/README"
  tar -czf "$T/pulumi-resource-testprov-v$1-linux-amd64.tar.gz" -C "$d" .
}
tarball 1.0.0
tarball 2.0.0
TGZ1="$T/pulumi-resource-testprov-v1.0.0-linux-amd64.tar.gz"

run plugin install resource testprov 1.0.0 --file "$TGZ1"
expect_rc 0 "install from a tarball"
expect_err "[resource plugin testprov-1.0.0] installing" "Pulumi's progress line"
[ -x "$CACHE/resource-testprov-v1.0.0/pulumi-resource-testprov" ] ||
  fail "the plugin is in Pulumi's layout: $(find "$CACHE")"
[ -f "$CACHE/resource-testprov-v1.0.0/lib/README" ] || fail "its other files too"
[ -e "$CACHE/resource-testprov-v1.0.0.partial" ] && fail "no .partial left"
[ -e "$CACHE/resource-testprov-v1.0.0.lock" ] || fail "the lock file stays, as Pulumi's"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  by: ${a.servedBy}
resources:
  a:
    type: testprov:index:Item
    properties:
      value: one
    options: {version: 1.0.0}
YAML
run stack init dev
run up -y --skip-preview
expect_rc 0 "up with the installed plugin"
expect_out 'by: "1.0.0"' "the installed plugin serves"

# Kept unless --reinstall: a marker inside the folder tells.
touch "$CACHE/resource-testprov-v1.0.0/marker"
run plugin install resource testprov v1.0.0 --file "$TGZ1"
expect_rc 0 "install of what is installed"
expect_not_out "installing" "nothing to install"
[ -e "$CACHE/resource-testprov-v1.0.0/marker" ] || fail "an installed plugin is kept"
run plugin install resource testprov 1.0.0 --file "$TGZ1" --reinstall
expect_rc 0 "--reinstall"
[ -e "$CACHE/resource-testprov-v1.0.0/marker" ] && fail "--reinstall starts afresh"

# A failed install's leftovers (its .partial) are replaced.
mkdir -p "$CACHE/resource-testprov-v2.0.0" && touch "$CACHE/resource-testprov-v2.0.0.partial"
run plugin ls --json
check "a plugin being installed is not listed" '
assert [x["version"] for x in doc()] == ["1.0.0"], out'
# Two installs at once: one writes, the other waits for the lock and finds it.
"$M" plugin install resource testprov 2.0.0 --file "$T/pulumi-resource-testprov-v2.0.0-linux-amd64.tar.gz" >"$T/i1" 2>&1 &
p1=$!
"$M" plugin install resource testprov 2.0.0 --file "$T/pulumi-resource-testprov-v2.0.0-linux-amd64.tar.gz" >"$T/i2" 2>&1 &
p2=$!
wait $p1 || fail "the first concurrent install: $(cat "$T/i1")"
wait $p2 || fail "the second concurrent install: $(cat "$T/i2")"
[ -x "$CACHE/resource-testprov-v2.0.0/pulumi-resource-testprov" ] || fail "2.0.0 is installed"
[ -e "$CACHE/resource-testprov-v2.0.0.partial" ] && fail "2.0.0 is whole"
[ "$(find "$CACHE/resource-testprov-v2.0.0" -type f | wc -l)" = 2 ] || fail "2.0.0 holds its two files once"

# An executable becomes the plugin.
printf '#!/bin/sh\nexit 0\n' >"$T/pulumi-resource-solo" && chmod +x "$T/pulumi-resource-solo"
run plugin install resource solo 0.1.0 --file "$T/pulumi-resource-solo"
expect_rc 0 "install of an executable"
[ -x "$CACHE/resource-solo-v0.1.0/pulumi-resource-solo" ] || fail "the executable is the plugin"
chmod -x "$T/pulumi-resource-solo"
run plugin install resource solo 0.2.0 --file "$T/pulumi-resource-solo"
expect_rc 1 "a file that is neither a tarball nor executable"
expect_err "is not executable" "Pulumi's words"

# Tarballs that would write outside the plugin's folder.
python3 - "$T" <<'PY'
import io, sys, tarfile
T = sys.argv[1]
def make(name, add):
    with tarfile.open(f"{T}/{name}.tar.gz", "w:gz") as t:
        data = b"#!/bin/sh\n"
        i = tarfile.TarInfo("pulumi-resource-evil"); i.size = len(data); i.mode = 0o755
        t.addfile(i, io.BytesIO(data))
        add(t)
def file_at(path):
    def add(t):
        i = tarfile.TarInfo(path); i.size = 3
        t.addfile(i, io.BytesIO(b"bad"))
    return add
def link_to(target):
    def add(t):
        i = tarfile.TarInfo("lib/out"); i.type = tarfile.SYMTYPE; i.linkname = target
        t.addfile(i)
    return add
make("dotdot", file_at("../../escaped"))
make("deep", file_at("lib/../../escaped"))
make("absolute", file_at(f"{T}/escaped-abs"))
make("symlink", link_to("../../.."))
PY
for bad in dotdot deep absolute symlink; do
  run plugin install resource evil 1.0.0 --file "$T/$bad.tar.gz"
  expect_rc 1 "$bad: refused"
  expect_err "refusing the tarball '$T/$bad.tar.gz'" "$bad: the message names the tarball"
  expect_err "outside the plugin's folder" "$bad: and why"
  [ -e "$CACHE/resource-evil-v1.0.0" ] && fail "$bad: nothing stays installed"
  [ -e "$CACHE/resource-evil-v1.0.0.partial" ] && fail "$bad: no marker stays"
done
[ -e "$PULUMI_HOME/escaped" ] || [ -e "$T/escaped" ] || [ -e "$T/escaped-abs" ] &&
  fail "a file escaped: $(ls "$T" "$PULUMI_HOME")"

run plugin install resource testprov --file "$TGZ1"
expect_rc 2 "a file without a version"
expect_err "missing plugin version argument, this is required if installing from a file" "Pulumi's words"
run plugin install thing testprov 1.0.0 --file "$TGZ1"
expect_rc 2 "a bad kind"
expect_err "unrecognized plugin kind: thing" "Pulumi's words"
run plugin install resource testprov 3.0.0 --file "$T/none.tar.gz"
expect_rc 1 "a missing file"
expect_err "none.tar.gz" "the file is named"
no_orphans "the end"
finish
