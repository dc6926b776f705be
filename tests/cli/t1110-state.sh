#!/bin/bash
# minipulumi state unprotect / delete / rename: Pulumi's checks (protect,
# dependents, unknown and invalid URNs with the nearest URNs), its
# confirmation on a terminal and its messages; the state written back.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
    options:
      protect: true
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: 3
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
expect_rc 0 "up"

# unknown and invalid URNs
run state delete "$U::aa"
expect_rc 1 "unknown URN"
expect_err "error: No such resource \"$U::aa\" exists in the current state" "not found"
expect_err "Did you mean:
  $U::a" "the nearest URN"
expect_err 'To list the resource URNs in the stack, run `minipulumi stack --show-urns`' "the hint"
run state unprotect not-a-urn
expect_rc 1 "not a URN"
expect_err '"not-a-urn" is not a valid resource URN' "invalid URN"
run state delete
expect_rc 2 "no URN without a terminal"
expect_err "Must supply <resource URN> unless minipulumi is run interactively" "Pulumi's words"

# protect and dependents
run state delete "$U::a"
expect_rc 1 "protected"
expect_err "$U::a can't be safely deleted because it is protected. Re-run this command with --force to force deletion" "protect check"
run state delete --force "$U::a"
expect_rc 1 "dependents"
expect_err "$U::a can't be safely deleted because the following resources depend on it:" "dependents check"
expect_err ' * "b"             ('"$U::b)" "lists b"
expect_err "Delete those resources first or pass --target-dependents." "the way out"
export_state
check "nothing changed" 'assert {"a", "b", "c"} <= set(res()) and res()["a"]["protect"], sorted(res())'

# unprotect one, then all
run state unprotect "$U::a"
expect_rc 0 "unprotect"
expect_out "1 resources unprotected" "Pulumi's count"
export_state
check "a unprotected" 'assert not res()["a"].get("protect"), res()["a"]'
run up --yes
export_state
check "up protects it again" 'assert res()["a"]["protect"], res()["a"]'
run state unprotect --all
expect_out "All resources unprotected" "--all"
export_state
check "none protected" 'assert not any(r.get("protect") for r in res().values()), res()'
run up --yes

# rename: the URN and every reference to it
run state rename "$U::a" a2
expect_rc 0 "rename"
expect_out "Resource renamed" "renamed"
export_state
check "b depends on a2" '
r = res()
assert "a2" in r and "a" not in r, sorted(r)
assert r["b"]["dependencies"] == ["'"$U::a2"'"], r["b"]
assert r["b"]["propertyDependencies"]["v"] == ["'"$U::a2"'"], r["b"]
'
run state rename "$U::b" c
expect_rc 1 "rename onto an existing URN"
expect_err "The chosen new urn for the state corresponds to an already existing resource" "Pulumi's words"

# delete with its dependents; --force for the protected one
run state delete --force --target-dependents "$U::a2"
expect_rc 0 "delete with dependents"
expect_out "Resource deleted" "one named"
expect_err "warning: deleting protected resource $U::a2 due to presence of --force" "the --force warning"
export_state
check "a2 and b gone, c kept" 'r = res(); assert "a2" not in r and "b" not in r and "c" in r, sorted(r)'

# on a terminal: Pulumi's confirmation
P="This command will edit your stack's state directly. Confirm?"
run_tty 20 no "$P" state delete "$U::c"
expect_rc 1 "declined"
expect_out "warning: $P" "the prompt"
expect_out "confirmation declined" "declined"
export_state
check "c kept after no" 'assert "c" in res(), sorted(res())'
run_tty 20 yes "$P" state delete "$U::c"
expect_rc 0 "confirmed"
expect_out "Resource deleted" "deleted after yes"
export_state
check "c gone after yes" 'assert "c" not in res(), sorted(res())'

# --all
run up --yes
run state delete --all --force
expect_rc 0 "--all"
expect_out "Resources deleted" "--all message"
export_state
check "empty" 'assert res() == {}, sorted(res())'
run state delete --all "$U::c"
expect_rc 1 "--all with a URN"
expect_err "cannot specify a resource URN when deleting all resources" "Pulumi's words"
finish
