#!/usr/bin/env bash
# Installs minipulumi's build dependencies on a Debian machine with apt-get.
# Idempotent: prints nothing and changes nothing when all are installed;
# runs `apt-get update` only when something has to be installed.
set -euo pipefail

packages=(
  build-essential meson ninja-build pkg-config
  protobuf-c-compiler libprotobuf-c-dev libprotobuf-dev
  libuv1-dev libsqlite3-dev libcjson-dev libnghttp2-dev libyaml-dev
  libssl-dev python3
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [ "$status" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: apt-get not found; install them with your package manager" >&2
  exit 1
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: not root and sudo not found; install them as root" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
