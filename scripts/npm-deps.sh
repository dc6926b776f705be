#!/usr/bin/env bash
# Installs the Node.js test peers' packages with `npm ci`, one folder at a
# time (default: tests/rpc and tests/plugin_processes). Idempotent and
# quick when nothing changed: a folder whose node_modules was installed
# from the same package-lock.json (its hash is kept in
# node_modules/.mp-lock-hash) is skipped.
# Folders whose locks name the same packages (the locks differ only in
# the folder's own name and license: tests/plugin_processes, automation
# and components on @pulumi/pulumi; tests/language and policy on it and
# @pulumi/policy) share one install: the first such folder given gets
# `npm ci`, each later one a node_modules symlink to it (node resolves
# through the link to the same files). One `npm ci` of @pulumi/pulumi
# is about 110 MB and 15 to 20 s of CPU.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(tests/rpc tests/plugin_processes)

if ! command -v npm >/dev/null 2>&1; then
  echo "npm-deps: npm not found; run scripts/setup.sh" >&2
  exit 1
fi

# packages_key LOCK: a hash of what LOCK installs, leaving out the root
# package's own name, version and license.
packages_key() {
  python3 - "$1" <<'PY'
import hashlib, json, sys
lock = json.load(open(sys.argv[1]))
for k in ("name", "version"):
    lock.pop(k, None)
root = lock.get("packages", {}).get("", {})
for k in ("name", "version", "license"):
    root.pop(k, None)
print(hashlib.sha256(json.dumps(lock, sort_keys=True).encode()).hexdigest())
PY
}

declare -A installed=()  # packages_key -> the folder that holds them
for dir in "${dirs[@]}"; do
  lock="$dir/package-lock.json"
  key=$(packages_key "$lock")
  src=${installed[$key]:-}
  if [ -n "$src" ]; then
    link=$(realpath -m --relative-to="$dir" "$src/node_modules")
    if [ "$(readlink "$dir/node_modules" 2>/dev/null)" != "$link" ]; then
      echo "npm-deps: $dir shares $src/node_modules"
      rm -rf "$dir/node_modules"
      ln -s "$link" "$dir/node_modules"
    fi
    continue
  fi
  installed[$key]=$dir
  # Shared in an earlier run with a folder not given now: its own install.
  [ -L "$dir/node_modules" ] && rm "$dir/node_modules"
  stamp="$dir/node_modules/.mp-lock-hash"
  want=$(sha256sum "$lock" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    continue
  fi
  echo "npm-deps: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  echo "$want" >"$stamp"
done
