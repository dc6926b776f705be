#!/bin/bash
# envVarMappings on a provider resource (Pulumi PR 21572,
# lifecycletest env_var_mappings_test.go): the mappings are kept in the
# provider's inputs under __internal, and the provider's plugin process
# sees the value of the first variable under the second name. The test
# plugin writes TESTPROV_VERSION into its resources' outputs as
# `servedBy`: mapped from MP_TEST_FROM it shows the value given; the
# default provider, without mappings, does not see it.
# Then the engine's heap, seen from its plugin: it asks for huge pages
# (src/cli/malloc_setup.c) unless it is a sanitizer build, the kernel
# has no transparent huge pages, or overcommit accounting is strict.
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

want=true
grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && want=false
[ -r /sys/kernel/mm/transparent_hugepage/enabled ] || want=false
ldd "$M" | grep -Eq 'lib(a|t)san' && want=false
[ "$(cat /proc/sys/vm/overcommit_memory 2>/dev/null)" = 2 ] && want=false
TESTPROV_PARENT_HEAP="$T/heap.json" run preview
expect_rc 0 "preview"
grep -qx "{\"advised\":$want}" "$T/heap.json" ||
  fail "the engine's heap asks for huge pages: $want expected, $(cat "$T/heap.json" 2>&1)"
no_orphans "after preview"
finish
