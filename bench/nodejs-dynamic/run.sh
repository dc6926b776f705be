#!/bin/bash
# Times a no-op `minipulumi up` of N dynamic resources (default 1000 and
# 4000): the first up creates them, the second is timed. Prints the wall
# time and the program's own marks (node + SDK loaded; every registration
# answered), and its CPU time split between the engine (with its
# children) and the program's node (a `node` shim first on PATH runs the
# real node under /usr/bin/time). Usage: bench/nodejs-dynamic/run.sh BUILD_DIR [N...]
# Needs tests/nodejs/node_modules (scripts/npm-deps.sh tests/nodejs).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
M=$(realpath "$1/src/cli/minipulumi")
shift
[ $# -gt 0 ] || set -- 1000 4000
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export MINIPULUMI_BACKEND_URL="$W/state.db" PULUMI_CONFIG_PASSPHRASE=bench
cp "$HERE"/Pulumi.yaml "$HERE"/package.json "$HERE"/index.js "$W/"
ln -s "$HERE/../../tests/nodejs/node_modules" "$W/node_modules"
mkdir "$W/bin"
printf '#!/bin/sh\nexec /usr/bin/time -a -o %s -f "%%U %%S" %s "$@"\n' \
  "$W/node-cpu.txt" "$(command -v node)" >"$W/bin/node"
chmod +x "$W/bin/node"
export PATH="$W/bin:$PATH"
cd "$W"
for n in "$@"; do
  "$M" stack init "n$n" >/dev/null
  COUNT=$n "$M" up --yes --skip-preview >/dev/null
  rm -f "$W/node-cpu.txt"
  start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$W/time.txt" \
    env COUNT=$n "$M" up --yes --skip-preview >"$W/out.txt"
  end=$(date +%s.%N)
  read -r user sys <"$W/time.txt"
  prog=$(awk '{s += $1 + $2} END {printf "%d", s * 1000}' "$W/node-cpu.txt")
  all=$(echo "($user + $sys) * 1000 / 1" | bc)
  echo "N=$n no-op up: $(echo "$end - $start" | bc) s wall;" \
       "cpu ${all} ms (node ${prog} ms, engine $((all - prog)) ms);" \
       "$(grep -o 'bench: [a-z ]* [0-9]* ms' "$W/out.txt" | tr '\n' ';')" \
       "$(grep -o '[0-9]* unchanged' "$W/out.txt")"
done
