#!/bin/bash
# issue 49 (15): a --policy-pack folder that cannot be read is reported as
# such, with the reason (strerror), not as "no PulumiPolicy.yaml" (or
# accepted): its PulumiPolicy.yaml a folder, the path a file, a dangling
# symbolic link, and (as a user other than root, through setpriv) a
# folder without read permission. Exit 2, before anything runs.
. "$(dirname "$0")/lib.sh" "$@"
run stack init dev

mkdir -p "$T/yamldir/PulumiPolicy.yaml"
run preview --policy-pack "$T/yamldir"
expect_rc 2 "PulumiPolicy.yaml is a folder"
expect_err "--policy-pack '$T/yamldir': cannot read its PulumiPolicy.yaml: Is a directory" "named, with why"

echo x >"$T/afile"
run preview --policy-pack "$T/afile"
expect_rc 2 "the path is a file"
expect_err "--policy-pack '$T/afile': cannot read the folder: Not a directory" "a file"

ln -s "$T/gone" "$T/dangling"
run preview --policy-pack "$T/dangling"
expect_rc 2 "a dangling symbolic link"
expect_err "--policy-pack '$T/dangling': cannot read the folder: it is a symbolic link to a path that does not exist" "dangling"

# still: a folder without the file, and no folder at all
mkdir "$T/empty"
run preview --policy-pack "$T/empty"
expect_rc 2 "no PulumiPolicy.yaml"
expect_err "no PulumiPolicy.yaml in this folder" "not a pack"
run preview --policy-pack "$T/nowhere"
expect_rc 2 "no folder"
expect_err "--policy-pack '$T/nowhere': no such folder" "missing"

# a folder the user may not read (root reads any: run as nobody)
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  mkdir -p "$T/locked"
  cp -r "$PACKS/main/." "$T/locked/"
  chmod 000 "$T/locked"
  chmod 755 "$T" "$T/proj"
  # nobody needs its own home and state: a copy of the user's
  mkdir "$T/nb"
  chown nobody "$T/nb"
  # a copy of the binary nobody may run: the build tree may sit in a
  # folder only root can enter (a clone under a mode-700 home)
  mkdir -m 755 "$T/bin"
  cp "$M" "$T/bin/minipulumi"
  chmod 755 "$T/bin/minipulumi"
  setpriv --reuid=nobody --regid=nogroup --clear-groups \
    env HOME="$T/nb" MINIPULUMI_BACKEND_URL="file://$T/nb" \
    "$T/bin/minipulumi" preview --policy-pack "$T/locked" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
  expect_rc 2 "an unreadable folder"
  expect_err "--policy-pack '$T/locked': cannot read the folder: Permission denied" "permission"
  chmod 755 "$T/locked"
fi
finish
