#!/bin/bash
# P10: a TypeScript program of N @pulumi/random resources (default 1000),
# served by the engine's built-in random provider: the create `up`, then
# a no-op `up`, each under /usr/bin/time. Prints, for each, the wall
# time, the CPU time of the whole run (the engine and its children), the
# program's own (node, ts-node's compile included: a `node` shim first on
# PATH runs the real node under /usr/bin/time) and the engine's (the
# difference: the engine and its built-in provider). CPU time, unlike
# wall time, means something on a loaded machine. Usage: bench/nodejs-random/run.sh BUILD_DIR [N...]
# Needs tests/nodejs/node_modules (scripts/npm-deps.sh tests/nodejs).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
M=$(realpath "$1/src/cli/minipulumi")
shift
[ $# -gt 0 ] || set -- 1000
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export MINIPULUMI_BACKEND_URL="$W/state.db" PULUMI_CONFIG_PASSPHRASE=bench
cp "$HERE"/Pulumi.yaml "$HERE"/package.json "$HERE"/index.ts \
   "$HERE"/tsconfig.json "$W/"
ln -s "$HERE/../../tests/nodejs/node_modules" "$W/node_modules"
mkdir "$W/bin"
printf '#!/bin/sh\nexec /usr/bin/time -a -o %s -f "%%U %%S" %s "$@"\n' \
  "$W/node-cpu.txt" "$(command -v node)" >"$W/bin/node"
chmod +x "$W/bin/node"
export PATH="$W/bin:$PATH"
cd "$W"
timed() { # label N: one `up`, its figures on one line
  /usr/bin/time -f '%e %U %S %M' -o "$W/time.txt" \
    env COUNT="$2" "$M" up --yes --skip-preview >"$W/out.txt"
  read -r wall user sys rss <"$W/time.txt"
  prog=$(awk '{s += $1 + $2} END {printf "%d", s * 1000}' "$W/node-cpu.txt")
  rm -f "$W/node-cpu.txt"
  echo "$1 N=$2: ${wall} s wall; cpu $(echo "($user + $sys) * 1000" | bc) ms" \
       "(program ${prog} ms, engine $(echo "($user + $sys) * 1000 - $prog" | bc) ms);" \
       "peak RSS ${rss} KB; $(grep -o "[0-9]* \(created\|unchanged\)" "$W/out.txt" | tail -1)"
}
for n in "$@"; do
  "$M" stack init "n$n" >/dev/null
  timed create "$n"
  timed no-op "$n"
done
