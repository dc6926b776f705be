#!/bin/bash
# envVarMappings on a provider resource (Pulumi PR 21572,
# lifecycletest env_var_mappings_test.go): the mappings are kept in the
# provider's inputs under __internal, and the provider's plugin process
# sees the value of the first variable under the second name. The test
# plugin writes TESTPROV_VERSION into its resources' outputs as
# `servedBy`: mapped from MP_TEST_FROM it shows the value given; the
# default provider, without mappings, does not see it.
# Then the environment a plugin gets: the user's GLIBC_TUNABLES as it was
# (set or not), although the engine ran itself again with huge pages for
# its heap (src/cli/malloc_setup.c) unless it is a sanitizer build or the
# kernel has no transparent huge pages.
. "$(dirname "$0")/lib.sh" "$@"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  mapped:
    type: pulumi:providers:testprov
    options:
      envVarMappings:
        MP_TEST_FROM: TESTPROV_VERSION
  a:
    type: testprov:index:Item
    properties:
      value: one
    options:
      provider: ${mapped}
  b:
    type: testprov:index:Item
    properties:
      value: two
YAML

run stack init dev
export MP_TEST_FROM=9.9.9
run up -y --skip-preview
expect_rc 0 "up with an explicit provider mapping a variable"
export_state
check "the mapped variable reached the provider's process, and only that one" "
r = res()
d = json.load(open(os.path.join(T, 'export.json')))
prov = [x for x in d['deployment']['resources'] if x['urn'].endswith('::mapped')][0]
assert prov['inputs']['__internal']['envVarMappings'] == {'MP_TEST_FROM': 'TESTPROV_VERSION'}, prov
assert r['a']['outputs'].get('servedBy') == '9.9.9', r['a']
assert 'servedBy' not in r['b']['outputs'], r['b']
"
no_orphans "after up"

# env_dump FILE: the plugin's GLIBC_TUNABLES and saved value, then
# whether its parent started with huge pages asked for, and its saved value
env_dump() {
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("own", d["own"]["GLIBC_TUNABLES"], d["own"]["MINIPULUMI_SAVED_GLIBC_TUNABLES"])
print("parent", d["parent"]["hugetlb"], d["parent"]["MINIPULUMI_SAVED_GLIBC_TUNABLES"])
PY
}
hugepages=1
grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && hugepages=0
[ -r /sys/kernel/mm/transparent_hugepage/enabled ] || hugepages=0
ldd "$M" | grep -Eq 'lib(a|t)san' && hugepages=0
for user in "" "glibc.malloc.tcache_count=7"; do
  rm -f "$T/env.json"
  if [ -n "$user" ]; then
    run_env=(env GLIBC_TUNABLES="$user")
  else
    run_env=(env -u GLIBC_TUNABLES)
  fi
  (export TESTPROV_ENV_DUMP="$T/env.json"; "${run_env[@]}" "$M" preview --non-interactive >"$T/pv.out" 2>&1) ||
    fail "preview with GLIBC_TUNABLES '$user': $(cat "$T/pv.out")"
  got=$(env_dump "$T/env.json")
  want_own="own ${user:-None} None"
  echo "$got" | grep -qxF "$want_own" ||
    fail "the plugin gets the user's GLIBC_TUNABLES '$user' back: $got"
  if [ "$hugepages" = 1 ]; then
    want_parent="parent True ${user:+=}${user:--}"
  else
    want_parent="parent False None"
  fi
  echo "$got" | grep -qxF "$want_parent" ||
    fail "the engine's own start (huge pages $hugepages), GLIBC_TUNABLES '$user': $got"
done
no_orphans "after the previews"
finish
