#!/bin/bash
# The README's first command, scripts/run-example.sh, as the user sees it,
# with apt-get, dpkg-query, meson and ninja replaced by recorders on PATH
# (the real ones would install packages and rebuild the tree): it installs
# only what the build needs (no PostgreSQL, clang or Node.js, which only
# the tests need; scripts/setup.sh without --main still installs them),
# says what it does at each stage, shows ninja's progress lines, builds
# only the binary, and runs the main job with the real minipulumi.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$@"
R=$T/repo
mkdir -p "$R/scripts" "$R/examples/random-file" "$T/fake"
cp "$ROOT/scripts/run-example.sh" "$ROOT/scripts/setup.sh" "$R/scripts/"
cp "$ROOT/examples/random-file/Pulumi.yaml" "$R/examples/random-file/"

# recorders: nothing is installed; apt-get and sudo log their arguments
cat >"$T/fake/dpkg-query" <<'SH'
#!/bin/sh
exit 1
SH
cat >"$T/fake/apt-get" <<SH
#!/bin/sh
echo "apt-get \$*" >>"$T/apt.log"
echo "Setting up something ..."
SH
cat >"$T/fake/sudo" <<'SH'
#!/bin/sh
exec "$@"
SH
cat >"$T/fake/meson" <<SH
#!/bin/sh
echo "meson \$*" >>"$T/build.log"
echo "The Meson build system"
SH
# ninja: its progress lines, and the binary (a link to the one under test)
cat >"$T/fake/ninja" <<SH
#!/bin/sh
echo "ninja \$*" >>"$T/build.log"
echo "ninja: Entering directory \\\`build'"
echo "[1/2] Compiling C object src/cli/minipulumi.p/main.c.o"
echo "[2/2] Linking target src/cli/minipulumi"
mkdir -p build/src/cli && ln -sf "$M" build/src/cli/minipulumi
SH
chmod +x "$T/fake/"*
unset MINIPULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE
export PATH="$T/fake:$PATH"
# as root, setup.sh runs apt-get itself; otherwise through the fake sudo
(cd "$R" && ./scripts/run-example.sh) </dev/null >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
ERR=$(cat "$T/err")
expect_rc 0 "run-example.sh"

# only the build's packages
install=$(grep ' install ' "$T/apt.log")
case "$install" in *libuv1-dev*) ;; *) fail "installs the build's packages: $install" ;; esac
for p in postgresql clang-14 libclang-rt-14-dev nodejs npm graphviz; do
  case " $install " in *" $p "*) fail "the first command installs $p, which only the tests need" ;; esac
done

# each stage said, in order, with ninja's progress and the job's output
check "the stages, in order" '
stages = [l for l in out.splitlines() if l.startswith("==> ")]
want = ["checking the build dependencies", "configuring the build tree",
        "building minipulumi", "running the main job", "done: the binary is build/src/cli/minipulumi"]
assert len(stages) == len(want), stages
for s, w in zip(stages, want):
    assert s[4:].startswith(w), (s, w)
'
expect_out "setup: apt-get install" "setup says it installs"
expect_out "[1/2] Compiling C object" "ninja's progress lines"
expect_out "Current stack outputs (3):" "the main job's outputs"
grep -q '^ninja -C build src/cli/minipulumi$' "$T/build.log" || fail "builds only the binary: $(cat "$T/build.log")"

# scripts/setup.sh without --main (scripts/test.sh's) installs the tests' packages too
: >"$T/apt.log"
(cd "$R" && PATH="$T/fake:$PATH" ./scripts/setup.sh) </dev/null >"$T/out" 2>"$T/err" ||
  fail "setup.sh: $(cat "$T/err")"
install=$(grep ' install ' "$T/apt.log")
for p in postgresql clang-14 graphviz libuv1-dev; do
  case " $install " in *" $p "*) ;; *) fail "setup.sh (the tests') installs $p: $install" ;; esac
done
finish
