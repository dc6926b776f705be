#!/bin/bash
# destroy's flag combinations as Pulumi's destroy command
# (pkg/cmd/pulumi/operations/destroy.go) settles them: --target with
# --exclude-protected is refused before anything runs; --exclude-protected
# adds the protected resources and what they depend on (getProtectedExcludes)
# to --exclude; the count it reports is that set's size; --remove and the
# closing advice are skipped after a targeted destroy. What a protected
# resource depends on includes, for a component it depends on (here the
# stack, its parent), the component's children listed before it
# (dependency_graph.go TransitiveDependenciesOf): gone and spared depend
# on kept so that they are listed after it.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
run stack init dev
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  base:
    type: test:Resource
    properties:
      v: 1
  kept:
    type: test:Resource
    properties:
      v: ${base.v}
    options:
      protect: true
  gone:
    type: test:Resource
    properties:
      v: 2
    options:
      dependsOn: ["${kept}"]
  spared:
    type: test:Resource
    properties:
      v: 3
    options:
      dependsOn: ["${kept}"]
YAML
run up --yes
expect_rc 0 "up"
P=urn:pulumi:dev::proj::test:index:Resource

# --target with --exclude-protected: refused, nothing deleted.
run destroy --yes --target "$P::gone" --exclude-protected
expect_rc 1 "--target with --exclude-protected"
expect_err "you cannot specify --target and --exclude-protected" "--target with --exclude-protected"
export_state
check "nothing deleted by the refused destroy" '
r = res()
assert {"base", "kept", "gone", "spared"} <= set(r), sorted(r)
assert calls("delete") == [], calls()'

# --exclude-protected with --exclude: both are kept; the count is kept's
# closure (kept, base it depends on, the default provider, the stack).
run destroy --yes --exclude-protected --exclude "$P::spared"
expect_rc 0 "--exclude-protected with --exclude"
expect_out "All unprotected resources were destroyed. There are still 4 protected resources associated with this stack." "the protected count"
expect_not_out "have been deleted" "no full-destroy advice"
export_state
check "only gone deleted" '
r = res()
assert "gone" not in r, sorted(r)
assert {"base", "kept", "spared"} <= set(r), sorted(r)
assert calls("delete") == [("delete", "gone")], calls()'

# --json says nothing of it.
run destroy --yes --json --exclude-protected --exclude "$P::spared"
expect_rc 0 "--exclude-protected --json"
expect_not_out "protected resources" "--json"

# A targeted destroy does not remove the stack, even with --remove, and
# gives no advice.
run destroy --yes --target "$P::spared" --remove
expect_rc 0 "--target with --remove"
expect_not_out "have been deleted" "--target with --remove"
run stack ls
expect_out "dev" "the stack after a targeted --remove"

# Only protected resources left: said, exit 0, no destroy.
run destroy --yes --exclude-protected
expect_rc 0 "nothing unprotected left"
expect_out "There were no unprotected resources to destroy. There are still 4 protected resources associated with this stack." "nothing unprotected left"
finish
