#!/bin/bash
# state protect and state upgrade; the commands and flags of Pulumi Cloud
# answered with one error naming it; gen-completion's scripts, generated
# from the command table, complete commands, subcommands and flags.
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
  b:
    type: test:Resource
    properties:
      v: 2
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
expect_rc 0 "up"

# state protect: one resource, then all; destroy then refuses
run state protect "$U::a"
expect_rc 0 "protect a"
expect_out "Resource protected" "Pulumi's words"
export_state
check "a protected, b not" 'r = res(); assert r["a"].get("protect") is True and not r["b"].get("protect")'
run state protect "$U::zz"
expect_rc 1 "unknown URN"
expect_err "No such resource" "unknown URN named"
run state protect "$U::a" "$U::b"
expect_rc 2 "at most one URN"
run state protect
expect_rc 2 "a URN or --all is needed"
run state protect --all
expect_rc 0 "protect --all"
expect_out "All resources protected" "Pulumi's words"
export_state
check "all protected" 'assert all(x.get("protect") for n, x in res().items() if not n.endswith("-provider") and x["type"] != "pulumi:pulumi:Stack")'
run destroy --yes
expect_rc 1 "destroy refuses protected resources"
run state unprotect --all

# state upgrade: nothing to do on SQLite, and the state is unchanged
export_state
cp "$T/export.json" "$T/before.json"
run state upgrade --yes
expect_rc 0 "state upgrade"
[ "$OUT" = "Nothing to do" ] || fail "state upgrade says: $OUT"
export_state
check "state upgrade changed nothing" 'import json; b = json.load(open(T + "/before.json")); assert b["deployment"]["resources"] == doc(T + "/export.json")["deployment"]["resources"]' 

# Pulumi Cloud's commands and flags
for c in org deployment env logs; do
  run $c ls
  expect_rc 2 "$c"
  expect_err "\`minipulumi $c\` needs Pulumi Cloud" "$c names Pulumi Cloud"
done
for f in --remote --remote-env=A=b --neo --teams=x; do
  run up $f
  expect_rc 2 "up $f"
  expect_err "the flag ${f%%=*} needs Pulumi Cloud" "$f names Pulumi Cloud"
done
run stack init other --teams devs
expect_err "the flag --teams needs Pulumi Cloud" "stack init --teams"
run stack ls
expect_not_out "other" "no stack made"

# gen-completion: the bash script completes from the command table
run gen-completion bash
expect_rc 0 "gen-completion bash"
cp "$T/out" "$T/comp.bash"
complete_words() { # words typed... : prints the completions of the last
  bash -c 'source "$1"; shift; COMP_WORDS=(minipulumi "$@"); COMP_CWORD=$#; _minipulumi; echo "${COMPREPLY[*]}"' _ "$T/comp.bash" "$@"
}
got=$(complete_words st)
[ "$got" = "stack state" ] || fail "st: $got"
got=$(complete_words state pro)
[ "$got" = "protect" ] || fail "state pro: $got"
got=$(complete_words up --target-r)
[ "$got" = "--target-replace" ] || fail "up --target-r: $got"
got=$(complete_words config set --pl)
[ "$got" = "--plaintext" ] || fail "config set --pl: $got"
got=$(complete_words stack ls --)
case "$got" in *"--json --all"*) ;; *) fail "stack ls --: $got" ;; esac
run gen-completion zsh
expect_out "bashcompinit" "zsh through bashcompinit"
expect_out "complete -o default -F _minipulumi minipulumi" "zsh script"
run gen-completion fish
expect_out "complete -c minipulumi -n __fish_use_subcommand -a gen-completion" "fish commands"
expect_out "complete -c minipulumi -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from protect' -l all" "fish flags"
run gen-completion powershell
expect_rc 2 "unknown shell"
expect_err "expected bash, zsh or fish" "names the shells"
finish
