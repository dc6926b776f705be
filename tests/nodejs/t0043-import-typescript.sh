#!/bin/bash
# `import` in a Node.js project prints TypeScript, as Pulumi's import
# does there: the package imports, then `const x = new pkg.Type(name,
# {inputs}, {protect: true})`. Pasted into the program, the code gives a
# preview with no changes (which is what Pulumi's note promises).
. "$(dirname "$0")/lib.sh" "$@"
node_program importts
run stack init dev
run import random:index/randomString:RandomString my-str 'Ab3$xY' --yes
expect_rc 0 "import"
expect_out 'import * as random from "@pulumi/random";' "the package is imported"
expect_out 'const myStr = new random.RandomString("my-str", {' "the resource in TypeScript"
expect_out 'protect: true,' "the import's protect option"
expect_not_out 'type: random:' "no YAML"
# The code block: from the package imports to the end of the output.
printf '%s\n' "$OUT" | sed -n '/^import \* as pulumi/,$p' > code.ts
cat code.ts index.ts > new.ts && mv new.ts index.ts
run preview
expect_rc 0 "preview of the program with the imported code"
expect_not_out "to update" "the imported inputs match"
expect_not_out "to create" "nothing new"
expect_not_out "to replace" "nothing replaced"
finish
