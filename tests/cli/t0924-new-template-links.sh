#!/bin/bash
# `new` from a template folder with links in it: a link to a file of the
# template is copied as that file (as Pulumi's CopyTemplateFiles reads
# it); a link out of the template (a git URL's template could name
# ~/.aws/credentials) or to a folder (`loop -> .`, walked without end) is
# refused with the link's name, and nothing of the outside file is copied.
. "$(dirname "$0")/lib.sh" "$@"
cd "$T" || exit 1
echo "aws_secret_access_key = TOPSECRET" > "$T/outside-secret"
mk_tpl() { # folder
  mkdir -p "$1"
  cat > "$1/Pulumi.yaml" <<'YAML'
name: ${PROJECT}
runtime: yaml
YAML
  echo "readme" > "$1/README.md"
}

# a link to a file inside: copied as that file
mk_tpl tin
ln -s README.md tin/linked-readme
run new "$T/tin" --yes --dir pin -s dev --generate-only
expect_rc 0 "new with a link inside the template"
[ "$(cat pin/linked-readme 2>/dev/null)" = readme ] ||
  fail "the inside link was not copied as its file"

# a link to a file outside: refused, the secret not copied
mk_tpl tout
ln -s "$T/outside-secret" tout/creds
run new "$T/tout" --yes --dir pout -s dev --generate-only
expect_rc 1 "new with a link out of the template"
expect_err "points outside the template folder" "link out of the template"
expect_err "tout/creds" "the error names the link"
grep -rqs TOPSECRET pout && fail "the outside file was copied into the project"

# a relative link that climbs out
mk_tpl trel
ln -s ../outside-secret trel/up
run new "$T/trel" --yes --dir prel -s dev --generate-only
expect_rc 1 "new with a ../ link"
grep -rqs TOPSECRET prel && fail "the ../ link's file was copied"

# a link to a folder (a loop): refused, not walked
mk_tpl tloop
ln -s . tloop/loop
run new "$T/tloop" --yes --dir ploop -s dev --generate-only
expect_rc 1 "new with a link loop"
expect_err "names a folder" "link loop"
[ -d ploop/loop/loop ] && fail "the loop was walked"

# a dangling link
mk_tpl tdang
ln -s nowhere tdang/gone
run new "$T/tdang" --yes --dir pdang -s dev --generate-only
expect_rc 1 "new with a dangling link"
expect_err "tdang/gone" "dangling link named"

finish
