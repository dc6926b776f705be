#!/bin/bash
# config refresh [--force] rewrites Pulumi.<stack>.yaml from the config of
# the stack's last deployment (Pulumi's words: a .bak of the file it
# replaces, none with --force or when the file is gone; "no previous
# deployment" before any), on SQLite and file://.
. "$(dirname "$0")/lib.sh" "$@"

cat >> Pulumi.yaml <<'YAML'
outputs:
  o: hello
YAML
mkdir -p "$T/diy"
for url in "$T/state.db" "file://$T/diy"; do
  export MINIPULUMI_BACKEND_URL="$url"
  run stack init dev
  run config set greeting hi
  run config set --secret pw hunter2
  run config refresh
  expect_rc 1 "before any deployment ($url)"
  expect_err "no previous deployment" "Pulumi's words"
  run up -y
  expect_rc 0 "up"
  cp Pulumi.dev.yaml "$T/deployed.yaml"
  # local edits after the deployment
  run config set greeting changed
  run config set extra 1
  run config refresh
  expect_rc 0 "refresh"
  expect_out "backed up existing configuration file to $T/proj/Pulumi.dev.yaml.bak" "backup named"
  expect_out "refreshed configuration for stack 'dev'" "Pulumi's words"
  expect_file Pulumi.dev.yaml.bak "greeting: changed" "the backup is the edited file"
  run config get greeting
  [ "$OUT" = "hi" ] || fail "greeting after refresh: $OUT"
  run config get extra
  expect_rc 1 "a key added after the deployment is gone"
  run config get pw
  [ "$OUT" = "hunter2" ] || fail "the secret after refresh: $OUT ($ERR)"
  cmp -s Pulumi.dev.yaml "$T/deployed.yaml" || fail "not the deployed file: $(diff Pulumi.dev.yaml "$T/deployed.yaml")"
  # a second backup does not overwrite the first
  run config set greeting again
  run config refresh
  expect_out "Pulumi.dev.yaml.bak.bak" "second backup"
  # --force: no backup; a missing file is written without one
  run config set greeting forced
  run config refresh --force
  expect_rc 0 "--force"
  [ -z "$OUT" ] || fail "--force printed: $OUT"
  [ -e Pulumi.dev.yaml.bak.bak.bak ] && fail "--force made a backup"
  rm Pulumi.dev.yaml
  run config refresh
  expect_rc 0 "missing file"
  run config get pw
  [ "$OUT" = "hunter2" ] || fail "the salt comes from the stack: $OUT ($ERR)"
  run stack rm -y --force dev
  rm -f Pulumi.dev.yaml*
done
finish
