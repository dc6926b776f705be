#!/bin/bash
# --policy-pack and --policy-pack-config on up, preview, refresh and
# destroy: known flags, and bad values refused before anything runs,
# naming the flag and the path (exit 2, as any bad flag).
. "$(dirname "$0")/lib.sh" "$@"
run stack init dev
for cmd in up preview refresh destroy; do
  run $cmd --help
  expect_out "--policy-pack" "$cmd --help lists --policy-pack"
  expect_out "--policy-pack-config" "$cmd --help lists --policy-pack-config"
  yes=--yes; [ $cmd = preview ] && yes=
  run $cmd $yes --policy-pack "$T/nowhere"
  expect_rc 2 "$cmd: a missing pack folder"
  expect_err "--policy-pack '$T/nowhere': no such folder" "$cmd: named"
done
# Pulumi has --show-policy-remediations on up and preview only
for cmd in up preview; do
  run $cmd --help
  expect_out "--show-policy-remediations" "$cmd --help lists --show-policy-remediations"
done
for cmd in refresh destroy; do
  run $cmd --help
  expect_not_out "--show-policy-remediations" "$cmd has no --show-policy-remediations"
done
mkdir "$T/empty"
run preview --policy-pack "$T/empty"
expect_rc 2 "a folder without PulumiPolicy.yaml"
expect_err "no PulumiPolicy.yaml in this folder" "not a pack"
echo '[1]' > "$T/list.json"
run preview --policy-pack "$PACKS/main" --policy-pack-config "$T/list.json"
expect_rc 2 "a config that is not an object"
expect_err "--policy-pack-config '$T/list.json': not a JSON object" "named"
echo '{}' > "$T/ok.json"
run preview --policy-pack "$PACKS/main" --policy-pack-config "$T/ok.json" \
  --policy-pack-config "$T/ok.json"
expect_rc 2 "more configs than packs"
expect_err "must not exceed the number of --policy-pack flags (1)" "counted"
finish
