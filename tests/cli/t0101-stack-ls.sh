#!/bin/bash
# stack ls lists the project's stacks and marks the current one.
. "$(dirname "$0")/lib.sh" "$@"

run stack ls
expect_rc 0 "empty ls"
expect_out "NAME" "header"
run stack init dev
run stack init prod
run stack select dev
run stack ls
expect_rc 0 "ls"
expect_out "dev*" "current marked"
expect_out "prod " "other listed"
expect_not_out "prod*" "only one current"
run stack ls --json
expect_rc 0 "ls --json"
expect_out '"name": "dev"' "json name"
expect_out '"current": true' "json current"
expect_out '"resourceCount": 0' "json count"

# another project's stacks are not listed, except with --all
mkdir ../other && cd ../other && printf 'name: other\nruntime: yaml\n' > Pulumi.yaml
run stack init dev
run stack ls
expect_out "dev*" "other project"
run stack ls --all
expect_out "proj/prod" "--all lists every project"
expect_out "other/dev" "--all lists every project"
finish
