#!/usr/bin/env bash
# Installs minipulumi's dependencies on a Debian machine with apt-get.
#   scripts/setup.sh          what building and testing need (scripts/test.sh)
#   scripts/setup.sh --main   only what building minipulumi and running its
#                             main job need (scripts/run-example.sh): no
#                             PostgreSQL server, clang or Node.js
# Idempotent: prints nothing and changes nothing when all are installed;
# runs `apt-get update` only when something has to be installed, and lets
# apt-get show its progress.
set -euo pipefail

main_only=0
case "${1:-}" in
  --main) main_only=1 ;;
  "") ;;
  *) echo "setup: unknown option '$1' (expected --main or nothing)" >&2; exit 2 ;;
esac

# What building minipulumi needs.
packages=(
  build-essential meson ninja-build pkg-config
  protobuf-c-compiler libprotobuf-c-dev libprotobuf-dev
  libuv1-dev libsqlite3-dev libcjson-dev libnghttp2-dev libyaml-dev
  libssl-dev libpq-dev python3
  # gzipped checkpoints of file:// state folders
  zlib1g-dev
  # plugin tarballs (libarchive) and their downloads (libcurl)
  libarchive-dev libcurl4-openssl-dev
  # s3:// state: ListObjectsV2 answers are XML (libxml2)
  libxml2-dev
  # fn::length counts grapheme clusters with ICU's break iterator
  libicu-dev
  # `config set` weighs a value's entropy as Pulumi does, with zxcvbn
  libzxcvbn-dev
  # policy config schemas' `pattern`s: Go's (RE2) syntax, \d, (?i), ...
  libpcre2-dev
  # `minipulumi console`'s HTTP server
  libmicrohttpd-dev
)
# What only the tests need (and `stack graph --format svg|png`).
test_packages=(
  # `stack graph --format svg|png` renders with Graphviz's dot command
  graphviz
  # the PostgreSQL backend's tests run a private server (tests/pg/pgtest.py)
  postgresql
  # the fuzz tree (build-fuzz): clang 14 and its libFuzzer and sanitizer
  # runtimes (tests/fuzz/, docs/reliability.md)
  clang-14 libclang-rt-14-dev
  # tests/cli/t1240: which writes of a file:// checkpoint are synced
  strace
  # tests/console/browser.sh: the console's pages in a real browser,
  # headless, driven by puppeteer-core (which downloads no browser)
  chromium
)
[ "$main_only" = 1 ] || packages+=("${test_packages[@]}")

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [ "$status" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

# Node.js runs the tests' Node.js programs, plugins and gRPC peer. Any node
# and npm on PATH do (a node build that bundles npm conflicts with Debian's
# npm package); Debian's packages are installed only for what is missing.
if [ "$main_only" = 0 ]; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
fi

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
echo "setup: apt-get update"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
echo "setup: apt-get install (${#missing[@]} packages and what they need)"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: done"
