#!/bin/bash
# --policy-pack-config against the policies' config schemas, as Pulumi
# checks it before anything runs: a wrong type, a value out of bounds or
# not in the enum, a required property missing each fail the operation
# with Pulumi's lines ("validating policy config: <pack> <version>
# <policy>: <error>", sorted, every pack's), and no step runs; a valid
# config runs; a config for a policy the pack does not have is accepted
# (Pulumi checks the pack's own policies only); entries that are not a
# level or an object are refused as Pulumi's parse refuses them.
. "$(dirname "$0")/lib.sh" "$@"
SCHEMA="$PACKS/schema"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
    properties:
      length: 2
      keepers:
        ab: "1"
YAML
run stack init dev
PFX="error: validating policy config: mp-schema-pack 0.0.1  tag-rules:"

# -- the required "tag" has no default: no config at all fails
run up --yes --skip-preview --policy-pack "$SCHEMA"
expect_rc 2 "a required property missing"
expect_err "$PFX tag is required
error: validating policy config" "Pulumi's line, then its error"
expect_not_out "created" "no step ran"
export_state
check "nothing in the state" 'assert "pet" not in res(), res().keys()'

# -- with --json (and --event-log) each schema error is an error
# diagnostic event, as Pulumi's engine reports it, then the stream's
# cancelEvent; the operation's own error stays on stderr
run up --yes --skip-preview --json --policy-pack "$SCHEMA" --event-log "$T/ev.jsonl"
expect_rc 2 "a required property missing, --json"
expect_err "error: validating policy config" "the operation's error"
check "the schema error as a diagnostic event" '
for ev in (events(), events(T + "/ev.jsonl")):
    assert kinds(ev) == ["diagnosticEvent", "cancelEvent"], ev
    d = ev[0]["diagnosticEvent"]
    assert d["severity"] == "error" and "urn" not in d, d
    assert d["message"] == "validating policy config: mp-schema-pack 0.0.1  tag-rules: tag is required\n", d
    assert [e["sequence"] for e in ev] == [1, 2], ev
'

# -- a wrong type, a value not in the enum, one too short: all reported,
# sorted
echo '{"tag-rules": {"maxTags": "many", "mode": "loose", "tag": "a"}}' > "$T/bad.json"
run preview --policy-pack "$SCHEMA" --policy-pack-config "$T/bad.json"
expect_rc 2 "a wrong type"
expect_err "$PFX maxTags: Invalid type. Expected: integer, given: string
$PFX mode: mode must be one of the following: \"strict\", \"lax\"
$PFX tag: String length must be greater than or equal to 2
error: validating policy config" "each error, sorted"

# -- out of bounds (maximum and minimum), and an integer required
for v in '11:Must be less than or equal to 10' '0:Must be greater than or equal to 1' \
         '2.5:Invalid type. Expected: integer, given: number'; do
  echo "{\"tag-rules\": {\"tag\": \"ab\", \"maxTags\": ${v%%:*}}}" > "$T/b.json"
  run up --yes --skip-preview --policy-pack "$SCHEMA" --policy-pack-config "$T/b.json"
  expect_rc 2 "maxTags ${v%%:*}"
  expect_err "$PFX maxTags: ${v#*:}" "maxTags ${v%%:*} named"
  expect_not_out "created" "no step ran with maxTags ${v%%:*}"
done

# -- the composite keywords (format, patternProperties, anyOf, a local
# $ref), in gojsonschema's words: anyOf reports its best branch's error
echo '{"tag-rules": {"tag": "ab", "owner": "nobody", "labels": {"x-a": 1, "y": "2"},
  "limit": 0, "backup": 11}}' > "$T/kw.json"
run preview --policy-pack "$SCHEMA" --policy-pack-config "$T/kw.json"
expect_rc 2 "composite keywords"
expect_err "$PFX backup: Must be less than or equal to 10
$PFX labels.x-a: Invalid type. Expected: string, given: integer
$PFX labels: Additional property y is not allowed
$PFX limit: Must be greater than or equal to 1
$PFX limit: Must validate at least one schema (anyOf)
$PFX owner: Does not match format 'email'
error: validating policy config" "each keyword's error, sorted"
echo '{"tag-rules": {"tag": "ab", "owner": "Ann <ann@example.com>",
  "labels": {"x-a": "1"}, "limit": "none", "backup": 3}}' > "$T/kwok.json"
run preview --policy-pack "$SCHEMA" --policy-pack-config "$T/kwok.json"
expect_rc 0 "composite keywords satisfied"

# -- a schema whose $ref does not resolve cannot be loaded: the pack
# fails, as Pulumi's ReconcilePolicyPackConfig error fails it
run preview --policy-pack "$PACKS/badref"
expect_rc 2 "an unresolved \$ref"
expect_err "error: reconciling policy config for \"mp-badref-pack\" at \"$PACKS/badref\": \$ref \"#/definitions/size\" does not point into the policy's config schema" \
  "the pack and the reference named"
expect_not_out "create" "no step"

# -- two packs: the main pack's schema error comes with the other's
echo '{"pet-length": {"maxLength": "five"}}' > "$T/main.json"
run preview --policy-pack "$SCHEMA" --policy-pack "$PACKS/main" \
  --policy-pack-config "$T/bad.json" --policy-pack-config "$T/main.json"
expect_rc 2 "both packs' configs invalid"
expect_err "error: validating policy config: mp-schema-pack 0.0.1  tag-rules: tag: String length must be greater than or equal to 2
error: validating policy config: mp-test-pack 0.0.1  pet-length: maxLength: Invalid type. Expected: number, given: string
error: validating policy config" "every pack's lines, sorted"

# -- valid: the config reaches the pack; a policy the pack has not is
# accepted, as Pulumi accepts it
echo '{"tag-rules": {"tag": "zz", "mode": "strict"}, "no-such-policy": {"x": 1}}' > "$T/ok.json"
run up --yes --skip-preview --policy-pack "$SCHEMA" --policy-pack-config "$T/ok.json"
expect_rc 0 "a valid config"
expect_out "        - [advisory]  tag-rules  (random:index/randomPet:RandomPet: pet)
          Resources carry the configured tag.
          no keeper 'zz'" "the pack saw the config"

# -- Pulumi's parse of the file: an entry neither a level nor an object,
# an unknown level
echo '{"tag-rules": 5}' > "$T/num.json"
run preview --policy-pack "$SCHEMA" --policy-pack-config "$T/num.json"
expect_rc 2 "a number entry"
expect_err "parsing \"tag-rules\": 5 is not a valid value; must be a string or object" "refused"
echo '{"tag-rules": {"enforcementLevel": "strict", "tag": "ab"}}' > "$T/lvl.json"
run preview --policy-pack "$SCHEMA" --policy-pack-config "$T/lvl.json"
expect_rc 2 "an unknown level"
expect_err "parsing enforcement level for \"tag-rules\": \"strict\" is not a valid enforcement level" "refused"
finish
