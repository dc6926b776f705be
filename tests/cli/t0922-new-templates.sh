#!/bin/bash
# The first hour (6): `new` with templates in Pulumi's format, from a
# folder and from a git URL (a bare repository that the test's git
# configuration puts in place of https://github.com/, so no network):
# Pulumi.yaml's `template:` section (description, quickstart, config with
# description, default and secret), ${PROJECT} and ${DESCRIPTION} in
# files and file names, the config prompts on a terminal and their
# defaults with --yes, -c, --list-templates, ~/.pulumi/templates,
# --offline, --secrets-provider, and the non-interactive refusals.
. "$(dirname "$0")/lib.sh" "$@"
cd "$T" || exit 1

# a template folder
mkdir -p src/mytpl/sub
cat > src/mytpl/Pulumi.yaml <<'YAML'
name: ${PROJECT}
description: ${DESCRIPTION}
runtime: yaml
template:
  description: A template of my own
  quickstart: Deploy it with up
  important: true
  config:
    greeting:
      description: What to say
      default: hello
    token:
      description: The API token
      secret: true
      default: s3cret
    aws:region:
      default: us-west-2
resources:
  pet:
    type: random:RandomPet
outputs:
  greeting: ${greeting}
YAML
echo 'project ${PROJECT}: ${DESCRIPTION}' > 'src/mytpl/sub/notes-${PROJECT}.txt'
echo 'name: x' > src/mytpl/.pulumi.template.yaml
printf 'bin\0ary ${PROJECT}' > src/mytpl/blob.bin
chmod 755 src/mytpl/sub

# from a folder, --yes: the template's defaults, -c on top; a relative
# path is read from --dir, as Pulumi's new changes into it first
run new ../src/mytpl --dir f1 --yes -c extra=1 -c greeting=hi
expect_rc 0 "new from a folder"
expect_out "Created project 'f1'" "the folder's name"
expect_out "Saved config" "the config saved"
expect_out "Deploy it with up" "the quickstart"
python3 - "$T/f1" >"$T/check.log" 2>&1 <<'PY' || fail "f1: $(cat "$T/check.log")"
import sys, os, yaml
d = sys.argv[1]
p = yaml.safe_load(open(os.path.join(d, "Pulumi.yaml")))
assert p["name"] == "f1" and p["description"] == "A template of my own", p
assert "template" not in p, p
assert p["resources"]["pet"]["type"] == "random:RandomPet", p
c = yaml.safe_load(open(os.path.join(d, "Pulumi.dev.yaml")))["config"]
assert c["f1:greeting"] == "hi", c         # -c wins over the default
assert c["f1:extra"] == "1", c             # a -c the template does not ask
assert c["aws:region"] == "us-west-2", c   # a namespaced key's default
assert "secure" in c["f1:token"], c        # a secret default, encrypted
readme = os.path.join(d, "sub", "notes-f1.txt")  # ${PROJECT} replaced
assert open(readme).read() == "project f1: A template of my own\n"
assert not os.path.exists(os.path.join(d, ".pulumi.template.yaml"))
assert open(os.path.join(d, "blob.bin"), "rb").read() == b"bin\0ary ${PROJECT}"
PY
run_in f1 config get token
expect_out "s3cret" "the secret default reads back"
run_in f1 up --yes
expect_rc 0 "up of the project from a folder"
run_in f1 stack output greeting
expect_out "hi" "the config reaches the program"

# on a terminal: the header, then each prompt in Pulumi's words; the
# secret is typed without echo
mkdir asked && cd asked || exit 1
run_tty 60 "asked-proj,,prod,hola,topsecret," ") " new ../src/mytpl
cd "$T" || exit 1
expect_rc 0 "new with prompts"
expect_out "This command will walk you through creating a new Pulumi project." "the header"
expect_out "Project name: (asked) " "the name, the folder's by default"
expect_out "Project description: (A template of my own) " "the template's description"
expect_out "Stack name: (dev) " "the stack"
expect_out "aws:region: (us-west-2) " "a key with no description"
expect_out "What to say (greeting): (hello) " "the description and the key"
expect_out "The API token (token): ([secret]) " "a secret's default is hidden"
expect_not_out "topsecret" "the secret was echoed"
run_in asked config get greeting -s prod
expect_out "hola" "the typed value"
run_in asked config get token -s prod
expect_out "topsecret" "the typed secret"
grep -q '^name: asked-proj$' asked/Pulumi.yaml || fail "the typed name"

# no template on a terminal: Pulumi's menu of every template, filtered
# by typing
run_tty 60 "yaml" "total):" new --dir chosen --name chosen -d mine -s dev
expect_rc 0 "new with the menu"
expect_out "Please choose a template (3 total):" "the menu"
expect_file chosen/Pulumi.yaml "runtime: yaml" "the template typed"

# from a git repository: a branch and a folder (tree/<branch>/<path>), a
# folder of the default branch (master, else main, as Pulumi tries)
git init -q -b main work
mkdir -p work/templates
cp -r src/mytpl work/templates/
cp -r src/mytpl work/templates/other
(cd work && git add -A && git -c user.email=t@t -c user.name=t commit -qm one &&
  git checkout -qb feature/x &&
  sed -i 's/A template of my own/On the branch/' templates/mytpl/Pulumi.yaml &&
  git -c user.email=t@t -c user.name=t commit -qam two) || fail "the repository"
mkdir -p repos/org
git clone -q --bare work repos/org/tpls.git
git config --global url."file://$T/repos/".insteadOf "https://github.com/"
run new https://github.com/org/tpls/tree/feature/x/templates/mytpl --dir g1 --yes --generate-only
expect_rc 0 "new from a branch's folder"
expect_file g1/Pulumi.yaml "description: On the branch" "the branch's template"
run new https://github.com/org/tpls/templates/mytpl --dir g2 --yes --generate-only
expect_rc 0 "new from the default branch"
expect_file g2/Pulumi.yaml "description: A template of my own" "the default branch's template"
ls "$TMPDIR" | grep -q pulumi-template && fail "the clone was left behind"
# a folder holding two templates needs a choice
run new https://github.com/org/tpls/templates --dir g3 --yes
expect_rc 2 "two templates without a terminal"
expect_err "template or url is required when running in non-interactive mode" "Pulumi's words"
run new https://github.com/org/tpls/tree/nope/x --dir g4 --yes
expect_rc 1 "an unknown branch"
expect_err "invalid Git URL" "says so"
run new https://github.com/org/missing --dir g5 --yes
expect_rc 1 "no such repository"
expect_err "failed to clone https://github.com/org/missing" "names the URL"
run new https://github.com/org/tpls/templates/mytpl --offline --dir g6 --yes
expect_rc 2 "a URL with --offline"
expect_err "cannot use https://github.com/org/tpls/templates/mytpl offline" "Pulumi's words"

# installed templates (~/.pulumi/templates, or $PULUMI_TEMPLATE_PATH),
# listed with the built-in ones, found by name, --offline too
mkdir -p "$HOME/.pulumi/templates"
cp -r src/mytpl "$HOME/.pulumi/templates/mine"
run new --list-templates
expect_rc 0 "--list-templates"
expect_out "Available Templates:" "the heading"
expect_out "  mine          A template of my own" "the installed one"
expect_out "  yaml          A minimal Pulumi YAML program" "a built-in one"
# a name is not a path even when --dir names a folder of that name
run new yaml --dir yaml --yes --generate-only
expect_rc 0 "the name yaml with --dir yaml"
run new MINE --offline --dir n1 --yes --generate-only
expect_rc 0 "an installed template by name, offline"
expect_file n1/Pulumi.yaml "description: A template of my own" "the installed template"
mkdir -p "$T/other-templates/alt"
cp src/mytpl/Pulumi.yaml "$T/other-templates/alt/"
PULUMI_TEMPLATE_PATH="$T/other-templates" run new --list-templates
expect_out "  alt" "PULUMI_TEMPLATE_PATH"
run new nosuch --dir n2 --yes
expect_rc 2 "an unknown name"
expect_err "template 'nosuch' not found" "Pulumi's words"
expect_err "mine" "the list"

# --secrets-provider: passphrase only
run new yaml --dir s1 --yes --secrets-provider passphrase
expect_rc 0 "--secrets-provider passphrase"
run new yaml --dir s2 --yes --secrets-provider 'awskms://alias/x?region=us-east-1'
expect_rc 2 "a cloud secrets provider"
expect_err "secrets provider 'awskms://alias/x?region=us-east-1' is not supported" "refused"
run new yaml --dir s3 --yes --secrets-provider vault
expect_rc 2 "an unknown secrets provider"
expect_err "unknown secrets provider type 'vault'" "Pulumi's words"
[ -e s2/Pulumi.yaml ] || [ -e s3/Pulumi.yaml ] && fail "a refused provider wrote a project"

# without a terminal, --yes is needed (Pulumi's runNew)
run new yaml --dir y1
expect_rc 2 "no --yes without a terminal"
expect_err "--yes must be passed in to proceed when running in non-interactive mode" "Pulumi's words"
finish
