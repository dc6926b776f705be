"""The L2 tests of Pulumi's language conformance suite (the test
providers of providers/), restated from pkg/testing/pulumi-test-language/
tests/l2_*.go, assertion for assertion."""

import hashlib
import json
import os

from check import (SECRET_SIG, SIG_KEY, Run, Secret, Test, diagnostics, equal, member, urn_name, length, n_resources, named, no_error, require, same, short, single,
                   stack_outputs, stack_resource)

TESTS = {}


def provider_ref(res):
    """The reference (URN::ID) a resource gives to its provider."""
    return res["urn"] + "::" + res.get("id", "")


def inputs_are_outputs(r, want):
    equal(want, r["inputs"], "inputs")
    equal(r["inputs"], r["outputs"], "inputs and outputs")


def has_sdk(res, pkg, version):
    """The Go tests look for the generated SDK of <pkg>-<version>; a YAML
    program's SDK is its package declaration, sdks/<pkg>.yaml."""
    path = os.path.join(res.project_dir, "sdks", pkg + ".yaml")
    require(os.path.exists(path), "expected %s sdk (sdks/%s.yaml)" % (pkg, pkg))
    with open(path) as f:
        require("version: %s" % version in f.read(), "expected %s sdk at %s" % (pkg, version))


# l2_resource_simple.go
def _resource_simple(res):
    has_sdk(res, "simple", "2.0.0")
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    inputs_are_outputs(single(res, "simple:index:Resource"), {"value": True})


TESTS["l2-resource-simple"] = Test([Run(_resource_simple)])


# l2_destroy.go: the second program drops `other`
def _destroy_0(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    equal("simple:index:Resource", named(res, "aresource")["type"], "type")
    equal("simple:index:Resource", named(res, "other")["type"], "type")


def _destroy_1(res):
    equal(1, res.changes.get("delete", 0), "expected a delete operation")
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    equal("simple:index:Resource", named(res, "aresource")["type"], "type")


TESTS["l2-destroy"] = Test([Run(_destroy_0), Run(_destroy_1)])


# l2_explicit_provider.go
def _explicit_provider(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    prov = single(res, "pulumi:providers:simple")
    equal("prov", prov["urn"].split("::")[-1], "explicit provider's name")
    simple = single(res, "simple:index:Resource")
    equal(provider_ref(prov), simple.get("provider"), "provider reference")
    inputs_are_outputs(simple, {"value": True})


TESTS["l2-explicit-provider"] = Test([Run(_explicit_provider)])


# l2_resource_option_protect.go, l2_resource_option_retain_on_delete.go:
# three resources on the default provider, the flag set on the first only
def _flag_check(flag, on, off, defaulted):
    def check(res):
        stack_resource(res)
        length(res.resources, 5, "resources in snapshot")
        prov = named(res, "default_2_0_0")
        equal("pulumi:providers:simple", prov["type"], "default provider's type")
        for name, want in ((on, True), (off, False), (defaulted, False)):
            r = named(res, name)
            equal(provider_ref(prov), r.get("provider"), "%s's provider" % name)
            equal(want, bool(r.get(flag, False)), "%s's %s" % (name, flag))
    return check


TESTS["l2-resource-option-protect"] = Test(
    [Run(_flag_check("protect", "protected", "unprotected", "defaulted"))])
TESTS["l2-resource-option-retain-on-delete"] = Test(
    [Run(_flag_check("retainOnDelete", "retainOnDelete", "notRetainOnDelete", "defaulted"))])


# l2_resource_option_depends_on.go
def _depends_on(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    no_deps = named(res, "noDependsOn")
    require(not no_deps.get("dependencies"), "expected noDependsOn without dependencies")
    equal([no_deps["urn"]], named(res, "withDependsOn").get("dependencies"), "dependencies")


TESTS["l2-resource-option-depends-on"] = Test([Run(_depends_on)])


# l2_resource_keyword_overlap.go
def _keyword_overlap(res):
    stack_resource(res)
    single(res, "pulumi:providers:simple")
    for name in ("class", "export", "mod", "import", "object", "self", "this"):
        equal("simple:index:Resource", named(res, name)["type"], "%s's type" % name)


TESTS["l2-resource-keyword-overlap"] = Test([Run(_keyword_overlap)])


# l2_resource_order.go
def _resource_order(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    named(res, "res1")
    named(res, "res2")
    equal({"out": True}, stack_outputs(res), "stack outputs")


TESTS["l2-resource-order"] = Test([Run(_resource_order)])


# l2_logical_name.go
def _logical_name(res):
    stack_resource(res)
    equal({"value": True}, named(res, "aA-Alpha_alpha.\U0001F92F\u2049\uFE0F")["outputs"],
          "outputs")
    equal({"bB-Beta_beta.\U0001F49C\u2049": True, "dD-Delta_delta.\U0001F525\u2049": True},
          stack_outputs(res), "stack outputs")


TESTS["l2-logical-name"] = Test([Run(_logical_name,
                                     {"cC-Charlie_charlie.\U0001F603\u2049\uFE0F": "true"})])


# l2_resource_option_version.go: simple at 2.0.0 and 26.0.0
def _option_version(res):
    stack_resource(res)
    length(res.resources, 6, "resources")
    provs = n_resources(res, "pulumi:providers:simple", 2)
    v2 = next((p["urn"] for p in provs if "2_0_0" in p["urn"] and "26_0_0" not in p["urn"]), "")
    v26 = next((p["urn"] for p in provs if "26_0_0" in p["urn"]), "")
    require(v2, "expected to find provider with version 2_0_0")
    require(v26, "expected to find provider with version 26_0_0")
    for name, prov, value in (("withV2", v2, True), ("withV26", v26, False),
                              ("withDefault", v26, True)):
        r = named(res, name)
        require(r.get("provider", "").startswith(prov),
                "expected %s to prefix %s" % (prov, r.get("provider")))
        equal(value, r["outputs"].get("value"), "%s's value" % name)


TESTS["l2-resource-option-version"] = Test([Run(_option_version)],
                                           providers=[("simple", "2.0.0")])


# l2_resource_option_additional_secret_outputs.go
def _additional_secret_outputs(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    with_secret = named(res, "withSecret")
    equal(["value"], with_secret.get("additionalSecretOutputs"), "additionalSecretOutputs")
    require(isinstance(with_secret["outputs"].get("value"), Secret),
            "expected 'value' output to be secret")
    without = named(res, "withoutSecret")
    require(not without.get("additionalSecretOutputs"), "expected no additionalSecretOutputs")
    require(not isinstance(without["outputs"].get("value"), Secret),
            "expected 'value' output to not be secret")


TESTS["l2-resource-option-additional-secret-outputs"] = Test([Run(_additional_secret_outputs)])


# l2_resource_option_custom_timeouts.go: seconds per operation
def _timeouts(r):
    t = r.get("customTimeouts") or {}
    return {k: float(t.get(k, 0)) for k in ("create", "update", "delete", "read")}


def _timeouts_run(text, seconds):
    def check(res):
        no_error(res)
        length(res.resources, 9, "resources")
        zero = {"create": 0.0, "update": 0.0, "delete": 0.0, "read": 0.0}
        for name, want in (("noTimeouts", {}), ("createOnly", {"create": 300.0}),
                           ("updateOnly", {"update": 600.0}), ("deleteOnly", {"delete": 180.0}),
                           ("readOnly", {"read": 540.0}),
                           ("allTimeouts", {"create": 120.0, "update": 240.0, "delete": 60.0,
                                            "read": 300.0}),
                           ("configTimeout", {"create": float(seconds)})):
            equal(dict(zero, **want), _timeouts(named(res, name)), "%s's customTimeouts" % name)
    return Run(check, {"createTimeout": text})


TESTS["l2-resource-option-custom-timeouts"] = Test(
    [_timeouts_run("7m", 420), _timeouts_run("1h", 3600), _timeouts_run(".2m", 12)],
    share_source=True)


# l2_resource_option_deleted_with.go
def _deleted_with(res):
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    prov = named(res, "default_2_0_0")
    equal("pulumi:providers:simple", prov["type"], "default provider's type")
    target = named(res, "target")
    for name, want in (("target", ""), ("deletedWith", target["urn"]), ("notDeletedWith", "")):
        r = named(res, name)
        equal(provider_ref(prov), r.get("provider"), "%s's provider" % name)
        equal(want, r.get("deletedWith", ""), "%s's deletedWith" % name)


TESTS["l2-resource-option-deleted-with"] = Test([Run(_deleted_with)])


# l2_resource_parent_inheritance.go
def _parent_inheritance(res):
    stack_resource(res)
    length(res.resources, 10, "resources in snapshot")
    default = named(res, "default_2_0_0")
    equal("pulumi:providers:simple", default["type"], "default provider's type")
    explicit = named(res, "provider")
    equal("pulumi:providers:simple", explicit["type"], "explicit provider's type")
    for name, prov in (("parent1", explicit), ("child1", explicit), ("orphan1", default)):
        equal(provider_ref(prov), named(res, name).get("provider"), "%s's provider" % name)
    for name, want in (("parent2", True), ("child2", True), ("child3", False),
                       ("orphan2", False)):
        r = named(res, name)
        equal(want, bool(r.get("protect")), "%s's protect" % name)
        equal(want, bool(r.get("retainOnDelete")), "%s's retainOnDelete" % name)


TESTS["l2-resource-parent-inheritance"] = Test([Run(_parent_inheritance)])


# l2_failed_create.go, l2_failed_create_continue_on_error.go: `failing`
# fails its create (in the preview too, where the message says so)
def _failed_preview(res):
    require(res.err is not None, "expected a bail result on preview")
    msgs = diagnostics(res, "error", "failing")
    require(msgs, "expected to find error diagnostic for failing resource")
    equal("Preview failed: failed create\n", msgs[0], "the failing resource's error")


def _failed_up(res):
    msgs = diagnostics(res, "error", "failing")
    require(msgs, "expected to find error diagnostic for failing resource")
    equal("failed create\n", msgs[0], "the failing resource's error")
    require(res.err is not None, "expected a bail result")


TESTS["l2-failed-create"] = Test([Run(_failed_up, preview=_failed_preview)])


def _failed_continue(res):
    _failed_up(res)
    length(res.changes, 1, "StepOps")
    equal(2, res.changes.get("create"), "Creates")
    length(res.resources, 4, "resources in snapshot")
    names = sorted(urn_name(r["urn"]) for r in res.resources)
    equal("independent", names[2], "the third resource by name")


TESTS["l2-failed-create-continue-on-error"] = Test(
    [Run(_failed_continue, preview=_failed_preview, flags=["--continue-on-error"])])


# l2_invoke_simple.go
def _invoke_simple(res):
    stack_resource(res)
    length(res.resources, 2, "resources")
    o = stack_outputs(res)
    member(o, "hello", "hello world")
    member(o, "goodbye", "goodbye world")


TESTS["l2-invoke-simple"] = Test([Run(_invoke_simple)])


# l2_invoke_options.go: the stack is the first resource
def _invoke_options(res):
    stack_resource(res)
    length(res.resources, 2, "resources")
    equal("pulumi:pulumi:Stack", res.resources[0]["type"], "the first resource's type")
    member(res.resources[0]["outputs"], "hello", "hello world")


TESTS["l2-invoke-options"] = Test([Run(_invoke_options)])


# l2_invoke_variants.go
def _invoke_variants(res):
    stack_resource(res)
    length(res.resources, 3, "resources")
    o = stack_outputs(res)
    member(o, "outputInput", "Goodbye world")
    member(o, "unit", "Hello world")


TESTS["l2-invoke-variants"] = Test([Run(_invoke_variants)])


# l2_invoke_secrets.go
def _invoke_secrets(res):
    stack_resource(res)
    o = stack_outputs(res)
    member(o, "nonSecret", "hello world")
    member(o, "firstSecret", Secret("hello world"))
    member(o, "secondSecret", Secret("goodbye world"))


TESTS["l2-invoke-secrets"] = Test([Run(_invoke_secrets)])


# l2_invoke_options_depends_on.go, l2_invoke_dependencies.go: `second`
# depends on `first` through the invoke that gives its property
def _depends_through_invoke(prop, count=None, stack_first=False):
    def check(res):
        stack_resource(res)
        if count is not None:
            length(res.resources, count, "resources")
        if stack_first:
            equal("pulumi:pulumi:Stack", res.resources[0]["type"], "the first resource's type")
            member(res.resources[0]["outputs"], "hello", "hello world")
        first, second = named(res, "first"), named(res, "second")
        require(not first.get("dependencies"), "expected no dependencies")
        deps = second.get("dependencies") or []
        length(deps, 1, "dependencies")
        pdeps = (second.get("propertyDependencies") or {})
        require(prop in pdeps, "expected dependency on property '%s'" % prop)
        length(pdeps[prop], 1, "dependencies of %s" % prop)
        equal(first["urn"], pdeps[prop][0], "expected second to depend on first")
        equal(first["urn"], deps[0], "expected second to depend on first")
    return check


TESTS["l2-invoke-options-depends-on"] = Test(
    [Run(_depends_through_invoke("text", 4, stack_first=True))])
TESTS["l2-invoke-dependencies"] = Test([Run(_depends_through_invoke("value"))])


# l2_elide_index.go
def _elide_index(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    inputs_are_outputs(single(res, "simple:index:Resource"), {"value": True})
    equal({"inv": "test world"}, stack_outputs(res), "stack outputs")


TESTS["l2-elide-index"] = Test([Run(_elide_index)])


# l2_resource_primitives.go
def _primitives(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:primitive")
    inputs_are_outputs(single(res, "primitive:index:Resource"), {
        "boolean": True, "float": 3.14, "integer": 42.0, "string": "hello",
        "numberArray": [-1.0, 0.0, 1.0], "booleanMap": {"t": True, "f": False}})


TESTS["l2-resource-primitives"] = Test([Run(_primitives)])


# l2_resource_option_hide_diffs.go
def _hide_diffs(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    equal(["value"], named(res, "hideDiffs").get("hideDiff"), "hideDiffs' hideDiff")
    require(not named(res, "notHideDiffs").get("hideDiff"), "expected notHideDiffs without hideDiff")


TESTS["l2-resource-option-hide-diffs"] = Test([Run(_hide_diffs)])


# l2_resource_option_replace_with.go
def _replace_with(res):
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    prov = named(res, "default_2_0_0")
    equal("pulumi:providers:simple", prov["type"], "default provider's type")
    target = named(res, "target")
    for name, want in (("target", []), ("replaceWith", [target["urn"]]), ("notReplaceWith", [])):
        r = named(res, name)
        equal(provider_ref(prov), r.get("provider"), "%s's provider" % name)
        equal(want, r.get("replaceWith") or [], "%s's replaceWith" % name)


TESTS["l2-resource-option-replace-with"] = Test([Run(_replace_with)])


# l2_resource_name_type.go
def _name_type(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:simple")
    equal({"name": "res1", "type": "simple:index:Resource"}, stack_outputs(res), "stack outputs")


TESTS["l2-resource-name-type"] = Test([Run(_name_type)])


# l2_engine_update_options.go: targets **target**
def _update_options(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:pulumi:Stack")
    single(res, "pulumi:providers:simple")
    equal("target", urn_name(single(res, "simple:index:Resource")["urn"]), "the target's name")


TESTS["l2-engine-update-options"] = Test([Run(_update_options, flags=["--target", "**target**"])])


def pre_event_ops(res, name):
    """The ops of the resource pre-events of the resource |name|, in order."""
    return [(i, e["resourcePreEvent"]["metadata"]["op"]) for i, e in enumerate(res.events)
            if "resourcePreEvent" in e
            and urn_name(e["resourcePreEvent"]["metadata"]["urn"]) == name]


# l2_resource_option_delete_before_replace.go: the second program changes
# both values; withOption deletes before it creates, withoutOption after
def _dbr_0(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    named(res, "withOption")
    named(res, "withoutOption")


def _dbr_preview(res):
    for name in ("withOption", "withoutOption"):
        ops = pre_event_ops(res, name)
        # require.Contains on the last op's text
        require(ops and "replace" in ops[-1][1],
                "%s: value change should trigger replacement (ops %s)" % (name, ops))


def _dbr_1(res):
    length(res.resources, 4, "resources in snapshot")
    idx = {}
    for name in ("withOption", "withoutOption"):
        for i, op in pre_event_ops(res, name):
            if op in ("delete-replaced", "create-replacement"):
                idx[(name, op)] = i
        for op in ("delete-replaced", "create-replacement"):
            require((name, op) in idx, "%s: %s event not found" % (name, op))
    require(idx[("withOption", "delete-replaced")] < idx[("withOption", "create-replacement")],
            "withOption: deleteBeforeReplace=true should cause delete to happen before create")
    require(idx[("withoutOption", "delete-replaced")] > idx[("withoutOption", "create-replacement")],
            "withoutOption: default behavior should cause create to happen before delete")


TESTS["l2-resource-option-delete-before-replace"] = Test(
    [Run(_dbr_0), Run(_dbr_1, preview=_dbr_preview)])


# l2_resource_option_import.go
def _import(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    equal("fakeID123", named(res, "import").get("importID", ""), "import's importID")
    equal("", named(res, "notImport").get("importID", ""), "notImport's importID")


TESTS["l2-resource-option-import"] = Test([Run(_import)])


# l2_resource_provider_inheritance.go
def _provider_inheritance(res):
    stack_resource(res)
    p1, c1 = named(res, "parent1"), named(res, "child1")
    equal(p1.get("provider"), c1.get("provider"), "parent1's and child1's provider")
    p2, c2 = named(res, "parent2"), named(res, "child2")
    require(p2.get("provider") != c2.get("provider"),
            "expected parent2 and child2 to have different provider references")

    def package(ref):
        return ref.split("::")[2].split(":")[-1]
    for r, want in ((p1, "simple"), (c1, "simple"), (p2, "primitive"), (c2, "simple")):
        equal(want, package(r.get("provider", "")), "%s's provider package" % urn_name(r["urn"]))


TESTS["l2-resource-provider-inheritance"] = Test([Run(_provider_inheritance)])


# l2_target_up_with_new_dependency.go: the second run targets targetOnly
def _target_new_dep(first):
    def check(res):
        if first:
            stack_resource(res)
        length(res.resources, 4, "resources in snapshot")
        equal("simple:index:Resource", named(res, "targetOnly")["type"], "targetOnly's type")
        unrelated = named(res, "unrelated")
        equal("simple:index:Resource", unrelated["type"], "unrelated's type")
        require(not unrelated.get("dependencies"), "expected no dependencies")
    return check


TESTS["l2-target-up-with-new-dependency"] = Test([
    Run(_target_new_dep(True)),
    Run(_target_new_dep(False), flags=["--target", "**targetOnly**"]),
])


# l2_resource_alpha.go
def _alpha(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:alpha")
    inputs_are_outputs(single(res, "alpha:index:Resource"), {"value": True})


TESTS["l2-resource-alpha"] = Test([Run(_alpha)])


# l2_large_string.go: about 100 MiB through the provider, the state and
# a stack output
def _large_string(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    large = "hello world" * 9532509
    r = single(res, "large:index:String")
    equal("hello world", r["inputs"].get("value"), "the input")
    require(r["outputs"].get("value") == large, "expected the large string as the output")
    require(stack_outputs(res).get("output") == large, "expected large string stack output")


TESTS["l2-large-string"] = Test([Run(_large_string)])


# l2_parallel_resources.go: three creates at once, or the sync provider
# fails them
def _parallel(res):
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    single(res, "pulumi:providers:sync")
    n_resources(res, "sync:index:Block", 3)


TESTS["l2-parallel-resources"] = Test([Run(_parallel, flags=["--parallel", "2147483647"])])


# l2_resource_option_env_var_mappings.go: the explicit provider keeps
# its envVarMappings under __internal
def _env_var_mappings(res):
    stack_resource(res)
    length(res.resources, 2, "resources in snapshot")
    prov = single(res, "pulumi:providers:simple")
    equal("prov", urn_name(prov["urn"]), "the provider's name")
    internal = prov["inputs"].get("__internal")
    require(isinstance(internal, dict), "expected __internal in provider inputs")
    mappings = internal.get("envVarMappings")
    require(isinstance(mappings, dict), "expected envVarMappings in __internal")
    equal("PROVIDER_VAR", mappings.get("MY_VAR"), "MY_VAR mapping")
    equal("TARGET_VAR", mappings.get("OTHER_VAR"), "OTHER_VAR mapping")


TESTS["l2-resource-option-env-var-mappings"] = Test([Run(_env_var_mappings)])


# l2_resource_option_version_sdk.go: simple at 2.0.0 (26.0.0 installed too)
def _version_sdk(res):
    stack_resource(res)
    length(res.resources, 3, "resources")
    prov = single(res, "pulumi:providers:simple")
    r = named(res, "withV2")
    require(r.get("provider", "").startswith(prov["urn"]),
            "expected %s to prefix %s" % (prov["urn"], r.get("provider")))


TESTS["l2-resource-option-version-sdk"] = Test([Run(_version_sdk)],
                                               providers=[("simple", "26.0.0")])


# l2_map_keys_adversarial.go: map keys that look like the engine's own
# (__type, __provider...), an empty key, escapes, NUL and format
# specifiers reach the resource and the invoke unchanged
_ESCAPE_KEY = ("Some ${common} \"characters\" 'that' need escaping: "
               "\\ (backslash), \t (tab), \u001b (escape), \u0007 (bell), \u0000 (null), "
               "\U000e0021 (tag space)")
_FORMAT_KEY = ("Format and glob specifiers: %percent ...ellipsis {open }close *asterisk "
               "?question ,comma &&and ||or !not =>arrow ==equal :colon /slash")
_ADVERSARIAL_MAP = {
    "__type": True, "__internal": False, "__provider": True, "__version": False, "": True,
    _ESCAPE_KEY: False, _FORMAT_KEY: True,
}


def _map_keys_adversarial(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    stack = single(res, "pulumi:pulumi:Stack")
    single(res, "pulumi:providers:primitive")
    prim = single(res, "primitive:index:Resource")
    want = {"boolean": False, "float": 2.17, "integer": -12, "string": "adversarial",
            "numberArray": [0, 1], "booleanMap": _ADVERSARIAL_MAP}
    equal(want, prim["inputs"], "resource inputs should preserve adversarial map keys")
    equal(prim["inputs"], prim["outputs"], "expected inputs and outputs to match")
    outs = stack.get("outputs", {})
    member(outs, "resourceBooleanMap", _ADVERSARIAL_MAP)
    member(outs, "invokeBooleanMap", _ADVERSARIAL_MAP)


TESTS["l2-map-keys-adversarial"] = Test([Run(_map_keys_adversarial)])


# l2_resource_option_plugin_download_url.go: simple 27.0.0 whose package
# declares a download URL; the same URL written as an option shares the
# default provider, each other URL gets a provider of its own
def _plugin_download_url(res):
    stack_resource(res)
    equal(8, len(res.resources), "expected 8 resources (1 stack + 3 providers + 4 resources)")
    with_default = named(res, "withDefaultURL")
    with_explicit = named(res, "withExplicitDefaultURL")
    custom1 = named(res, "withCustomURL1")
    custom2 = named(res, "withCustomURL2")

    def find_provider(ref):
        urn = ref[:ref.rindex("::")]
        for r in res.resources:
            if r["type"].startswith("pulumi:providers:") and r["urn"] == urn:
                return r
        require(False, "Unable to find provider matching ref %r" % ref)

    default_prov = find_provider(with_default.get("provider", ""))
    explicit_prov = find_provider(with_explicit.get("provider", ""))
    prov1 = find_provider(custom1.get("provider", ""))
    prov2 = find_provider(custom2.get("provider", ""))
    equal(default_prov, explicit_prov, "the default and explicit default URL providers")
    require(with_default["provider"].startswith(default_prov["urn"]),
            "expected %r to be a prefix of %r" % (default_prov["urn"], with_default["provider"]))
    equal(with_default["provider"], with_explicit["provider"],
          "resources with default and explicit default URLs should use the same provider")
    url1 = prov1["inputs"].get("__internal", {}).get("pluginDownloadURL")
    equal("https://custom.pulumi.test/provider1", url1, "customProvider1 should have correct pluginDownloadURL")
    url2 = prov2["inputs"].get("__internal", {}).get("pluginDownloadURL")
    equal("https://custom.pulumi.test/provider2", url2, "customProvider2 should have correct pluginDownloadURL")
    require(prov1["urn"] != prov2["urn"], "resources with different custom URLs should use different providers")


TESTS["l2-resource-option-plugin-download-url"] = Test([Run(_plugin_download_url)])


def _path_segments(path):
    """A property path's segments, as property.Glob reads one: names
    joined by dots, [<index>] and ["<key>"] (with \\-escapes)."""
    segs, i, n = [], 0, len(path)
    while i < n:
        c = path[i]
        if c == ".":
            i += 1
        elif c == "[" and i + 1 < n and path[i + 1] == '"':
            i += 2
            key = []
            while i < n and path[i] != '"':
                if path[i] == "\\" and i + 1 < n:
                    i += 1
                key.append(path[i])
                i += 1
            require(path[i:i + 2] == '"]', "invalid property path %r" % path)
            segs.append("".join(key))
            i += 2
        elif c == "[":
            j = path.index("]", i)
            segs.append(int(path[i + 1:j]) if path[i + 1:j] != "*" else "*")
            i = j + 1
        else:
            j = i
            while j < n and path[j] not in ".[":
                j += 1
            segs.append(path[i:j])
            i = j
    return segs


# l2_resource_option_ignore_changes.go: ignoreChanges paths kept in the
# state as written, map keys with dots and quotes included
def _ignore_changes(res):
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    equal(["details[0].key"], named(res, "receiverIgnore").get("ignoreChanges"),
          "receiverIgnore's ignoreChanges")
    got = [_path_segments(p) for p in named(res, "mapIgnore").get("ignoreChanges", [])]
    equal([["tags", "env"], ["tags", "with.dot"], ["tags", 'with escaped "']], got,
          "mapIgnore's ignoreChanges")
    require(not named(res, "noIgnore").get("ignoreChanges"), "expected noIgnore to have no ignoreChanges")


TESTS["l2-resource-option-ignore-changes"] = Test([Run(_ignore_changes)])


# l2_resource_option_replace_on_changes.go: replaceOnChanges from the
# option and from the schema (ResourceA's replaceProp); the second program
# changes values, in the preview and the update alike
_ROC_NAMES = ["schemaReplace", "optionReplace", "bothReplaceValue", "bothReplaceProp",
              "regularUpdate", "noChange", "wrongPropChange", "multiplePropReplace"]


def _roc_0(res):
    stack_resource(res)
    length(res.resources, 10, "resources in snapshot")
    for name in _ROC_NAMES:
        named(res, name)


def _roc_ops(res):
    # The last pre-event of each resource, as the Go test's loop keeps it.
    ops = {}
    for name in _ROC_NAMES:
        seen = pre_event_ops(res, name)
        ops[name] = seen[-1][1] if seen else ""
    for name in ["schemaReplace", "optionReplace", "bothReplaceValue", "bothReplaceProp",
                 "wrongPropChange", "multiplePropReplace"]:
        require("replace" in ops[name], "%s: should have been replaced, got %r" % (name, ops[name]))
    equal("update", ops["regularUpdate"], "regularUpdate: should have been updated, not replaced")
    equal("same", ops["noChange"], "noChange: should have no operation")


def _roc_1(res):
    length(res.resources, 10, "resources in snapshot")
    _roc_ops(res)


TESTS["l2-resource-option-replace-on-changes"] = Test([Run(_roc_0), Run(_roc_1, preview=_roc_ops)])


from check import plain as check_plain  # noqa: E402


# l2_resource_option_replacement_trigger.go: a replacementTrigger kept in
# the state; a trigger whose value changes replaces the resource (an
# unknown one in the preview, a secret one too)
def _trigger_resources(res, trigger, secret):
    length(res.resources, 8, "resources in snapshot")
    prov = named(res, "default_2_0_0")
    equal("pulumi:providers:simple", prov["type"], "expected default simple provider")
    ref = provider_ref(prov)
    for name in ["replacementTrigger", "notReplacementTrigger", "unknownReplacementTrigger",
                 "secretReplacementTrigger"]:
        equal(ref, named(res, name).get("provider"), "%s's provider" % name)
    plain_of = lambda name: check_plain(named(res, name).get("replacementTrigger"))
    equal(trigger, plain_of("replacementTrigger"), "replacementTrigger's trigger")
    require(named(res, "notReplacementTrigger").get("replacementTrigger") is None,
            "expected not replacement trigger resource to not have a replacement trigger")
    equal("hellohello", plain_of("unknownReplacementTrigger"), "unknownReplacementTrigger's trigger")
    equal(Secret(secret), plain_of("secretReplacementTrigger"), "secretReplacementTrigger's trigger")


def _trigger_0(res):
    stack_resource(res)
    _trigger_resources(res, "test", [1, 2, 3])


def _trigger_preview_1(res):
    ops = [op for _, op in pre_event_ops(res, "unknownReplacementTrigger")]
    require(ops, "expected to find step event metadata for unknownReplacementTrigger resource")
    require("replace" in ops, "expected unknownReplacementTrigger resource to be replaced during preview, got %s" % ops)


def _trigger_1(res):
    _trigger_resources(res, "test2", [3, 2, 1])
    ops = [op for _, op in pre_event_ops(res, "unknownReplacementTrigger")]
    require(ops, "expected to find step event metadata for unknownReplacementTrigger resource")
    require("replace" not in ops, "expected unknownReplacementTrigger resource to not be replaced during update")
    ops = [op for _, op in pre_event_ops(res, "secretReplacementTrigger")]
    require("replace" in ops, "expected secretReplacementTrigger resource to be replaced during update, got %s" % ops)


TESTS["l2-resource-option-replacement-trigger"] = Test([
    Run(_trigger_0, preview=lambda res: stack_resource(res)),
    Run(_trigger_1, preview=_trigger_preview_1),
])
# ---- the invoke providers of issue 36 (lang36c)

# l2_invoke_multi_argument.go, l2_invoke_output_only.go, l2_invoke_scalar.go,
# l2_invoke_scalars.go: the stack and the invoke's default provider, and
# the stack's outputs.
def _invoke_outputs(want):
    def check(res):
        stack_resource(res)
        length(res.resources, 2, "resources")
        o = stack_outputs(res)
        for k, v in want.items():
            member(o, k, v)
    return check


TESTS["l2-invoke-multi-argument"] = Test([Run(_invoke_outputs(
    {"both": "hello world", "onlyRequired": "hello"}))])
TESTS["l2-invoke-output-only"] = Test([Run(_invoke_outputs(
    {"hello": "hello world", "goodbye": "goodbye world"}))])
TESTS["l2-invoke-scalar"] = Test([Run(_invoke_outputs({"scalar": True}))])
TESTS["l2-invoke-scalars"] = Test([Run(_invoke_outputs({
    "secret": Secret(7.0),
    # "the word": a vowel or not, letter by letter
    "array": [False, False, True, False, False, True, False, False],
    "map": {"value": "hello world"},
    "secretMap": Secret({"value": "secret world"}),
}))])


# l2_resource_invoke_dynamic_function.go
def _invoke_dynamic_function(res):
    stack_resource(res)
    o = stack_outputs(res)
    length(o, 1)
    member(o, "dynamic", {"resultProperty": "resultValue"})


TESTS["l2-resource-invoke-dynamic-function"] = Test([Run(_invoke_dynamic_function)])


# l2_resource_names.go: each of the names provider's types, {value: true}
def _resource_names(res):
    stack_resource(res)
    length(res.resources, 8, "resources in snapshot")
    single(res, "pulumi:providers:names")
    for typ in ["names:index:ResMap", "names:index:ResArray", "names:index:ResList",
                "names:index:ResResource", "names:mod:Res", "names:mod/nested:Res"]:
        inputs_are_outputs(single(res, typ), {"value": True})


TESTS["l2-resource-names"] = Test([Run(_resource_names)])


# l2_resource_const.go: a property whose schema type has a constant value
def _resource_const(res):
    stack_resource(res)
    single(res, "constant:index:Resource")
    member(stack_outputs(res), "kind", "Constant")


TESTS["l2-resource-const"] = Test([Run(_resource_const)])


# l2_keywords.go
def _keywords(res):
    stack_resource(res)
    length(res.resources, 6, "resources in snapshot")
    single(res, "pulumi:providers:keywords")
    want = {"builtins": "builtins", "lambda": "lambda", "property": "property"}
    for name in ["firstResource", "secondResource", "lambdaModuleResource", "lambdaResource"]:
        r = named(res, name)
        equal(want, r["inputs"], "%s's inputs" % name)
        equal(want, r["outputs"], "%s's outputs" % name)


TESTS["l2-keywords"] = Test([Run(_keywords)])


# l2_camel_names.go
def _camel_names(res):
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    single(res, "pulumi:providers:camelNames")
    for name in ["firstResource", "secondResource"]:
        r = named(res, name)
        equal({"theInput": True}, r["inputs"], "%s's inputs" % name)
        equal({"theOutput": True}, r["outputs"], "%s's outputs" % name)
    third = named(res, "thirdResource")
    equal({"theInput": True, "resourceName": "my-cluster"}, third["inputs"], "thirdResource's inputs")
    equal({"theOutput": True, "resourceName": "my-cluster"}, third["outputs"], "thirdResource's outputs")


TESTS["l2-camel-names"] = Test([Run(_camel_names)])


# l2_union.go
def _union(res):
    stack_resource(res)
    stack = single(res, "pulumi:pulumi:Stack")
    want = {"key1": {"key1a": "value1a"}}
    equal(want, named(res, "mapMapUnionExample")["outputs"].get("mapMapUnionProperty"), "mapMapUnionProperty")
    equal(want, stack["outputs"].get("mapMapUnionOutput"), "mapMapUnionOutput")
    equal(42, named(res, "stringOrIntegerExample1")["outputs"].get("stringOrIntegerProperty"),
          "stringOrIntegerExample1's stringOrIntegerProperty")
    equal("forty two", named(res, "stringOrIntegerExample2")["outputs"].get("stringOrIntegerProperty"),
          "stringOrIntegerExample2's stringOrIntegerProperty")
    equal(["Listen", "Send", "NotAnEnumValue"],
          named(res, "stringEnumUnionListExample")["outputs"].get("stringEnumUnionListProperty"),
          "stringEnumUnionListProperty")
    equal("Block", named(res, "safeEnumExample")["outputs"].get("typedEnumProperty"), "safeEnumExample")
    equal("Block", named(res, "enumOutputExample")["outputs"].get("type"), "enumOutputExample's type")
    equal("Block", named(res, "outputEnumExample")["outputs"].get("typedEnumProperty"), "outputEnumExample")


TESTS["l2-union"] = Test([Run(_union)])


# l2_enum.go
def _enum(res):
    stack_resource(res)
    length(res.resources, 6, "resources (4 resources & provider & stack)")
    want = {"intEnum": 1, "stringEnum": "two"}
    for name in ["sink1", "sink2", "sink3"]:
        equal(want, named(res, name)["outputs"], "%s's outputs" % name)
    equal({
        "numberEnum": 0.1,
        "wordyEnum": "It's got apostrophes",
        "arrayOfEnum": ["one", "two"],
        "mapOfEnum": {"small": 1, "large": 2},
        "holder": {"size": 2, "color": "one"},
        "unionEnum": "A Value With Spaces.",
    }, named(res, "sink4")["outputs"], "sink4's outputs")


TESTS["l2-enum"] = Test([Run(_enum)])


# l2_external_enum.go
def _external_enum(res):
    stack_resource(res)
    length(res.resources, 5, "resources")
    equal({"intEnum": 1, "stringEnum": "one"}, named(res, "myRes")["outputs"], "myRes's outputs")
    equal({"stringEnum": "two"}, named(res, "mySink")["outputs"], "mySink's outputs")


TESTS["l2-external-enum"] = Test([Run(_external_enum)])


# l2_discriminated_union.go
def _discriminated_union(res):
    stack_resource(res)
    v1 = lambda text: {"discriminantKind": "variant1", "field1": text}
    v2 = lambda text: {"discriminantKind": "variant2", "field2": text}
    equal({"unionOf": v1("v1 union"), "arrayOfUnionOf": [v1("v1 array(union)")]},
          named(res, "example1")["outputs"], "example1's outputs")
    equal({"unionOf": v2("v2 union"), "arrayOfUnionOf": [v2("v2 array(union)"), v1("v1 array(union)")]},
          named(res, "example2")["outputs"], "example2's outputs")


TESTS["l2-discriminated-union"] = Test([Run(_discriminated_union)])


# l2_docs.go. The Go test looks through the docs SDK for unresolved
# `{{% ref` links; a YAML program's SDK is its declaration, sdks/docs.yaml.
def _docs(res):
    stack_resource(res)
    has_sdk(res, "docs", "28.0.0")
    sdks = os.path.join(res.project_dir, "sdks")
    for f in os.listdir(sdks):
        with open(os.path.join(sdks, f)) as fh:
            require("{{% ref " not in fh.read(), "unresolved pulumi ref in %s" % f)
    length(res.resources, 5, "resources in snapshot")
    single(res, "pulumi:providers:docs")
    single(res, "pulumi:providers:enum")
    equal({"intEnum": 1, "stringEnum": "one"}, named(res, "enumRes")["outputs"], "enumRes's outputs")
    r = single(res, "docs:index:Resource")
    equal({"in": True, "externalEnum": "one"}, r["inputs"], "inputs")
    equal({"in": True, "out": False, "externalEnum": "one", "data": {"state": "internal data"}},
          r["outputs"], "outputs")


TESTS["l2-docs"] = Test([Run(_docs)])


# l2_raw_string_bytes.go: a string of bytes that are not valid UTF-8 goes
# from one provider's output through the program into another's input
RAW_BYTES_BASE64 = "AGhlbGxvIID+/yB3b3JsZPAo"


BYTE_STRING_SIG = ("4dabf18193072939515e22adb298388d", "803fd3297a5875dc03ca845dda5d2a98")


def _byte_strings(v):
    """|v| with the state's byte strings ({sig: ByteString, value: base64})
    read back as the strings of bytes they hold (bytes as latin-1 code
    points), as Pulumi's deserializer gives them to the Go assertion."""
    import base64
    if isinstance(v, dict):
        if v.get(BYTE_STRING_SIG[0]) == BYTE_STRING_SIG[1]:
            return base64.b64decode(v["value"]).decode("latin-1")
        return {k: _byte_strings(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_byte_strings(x) for x in v]
    return v


def _raw_string_bytes(res):
    import base64
    raw = base64.b64decode(RAW_BYTES_BASE64).decode("latin-1")
    stack_resource(res)
    length(res.resources, 5, "resources in snapshot")
    single(res, "pulumi:providers:bytesource")
    single(res, "pulumi:providers:bytesink")
    source = single(res, "bytesource:index:Resource")
    sink = single(res, "bytesink:index:Resource")
    equal({"base64": RAW_BYTES_BASE64}, source["inputs"], "source inputs")
    equal({"base64": RAW_BYTES_BASE64, "bytes": raw}, _byte_strings(source["outputs"]),
          "source outputs")
    want = {"bytes": raw, "expectBase64": RAW_BYTES_BASE64}
    equal(want, _byte_strings(sink["inputs"]), "sink inputs")
    equal(want, _byte_strings(sink["outputs"]), "sink outputs")


TESTS["l2-raw-string-bytes"] = Test([Run(_raw_string_bytes)])
# l2_resource_config.go: an explicit provider with config, and the
# default provider of config's package declaration (its download URL)
def _resource_config(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    prov = named(res, "prov")
    equal("pulumi:providers:config", prov["type"], "explicit provider resource")
    outs = {"name": "my config", "pluginDownloadURL": "not the same as the pulumi resource option",
            "version": "9.0.0"}
    equal(dict(outs, __internal={"pluginDownloadURL": "http://example.com"}), prov["inputs"],
          "explicit provider's inputs")
    equal(outs, prov["outputs"], "explicit provider's outputs")
    default = named(res, "default_9_0_0_http_/example.com")
    equal("pulumi:providers:config", default["type"], "default provider resource")
    outs = {"version": "9.0.0", "name": "hello"}
    equal(dict(outs, __internal={"pluginDownloadURL": "http://example.com"}), default["inputs"],
          "default provider's inputs")
    equal(outs, default["outputs"], "default provider's outputs")


TESTS["l2-resource-config"] = Test([Run(_resource_config, {"config:name": "hello"})])


# l2_resource_secret.go: the schema's secret inputs arrive secret. The Go
# test accepts publicData.private as plain (pulumi/pulumi#10319); the
# four collection properties of Pulumi YAML's newer program are checked
# as their siblings are: secret as a whole, plain inside.
def _resource_secret(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:secret")
    secret = single(res, "secret:index:Resource")
    data = {"public": "open", "private": "closed"}
    collections = {"privateArray": Secret(["closed"]), "privateMap": Secret({"key": "closed"}),
                   "privateDataArray": Secret([data]), "privateDataMap": Secret({"key": data})}
    correct = dict(collections, public="open", private=Secret("closed"), privateData=Secret(data),
                   publicData={"public": "open", "private": Secret("closed")})
    expected = dict(correct, publicData=data)
    if not same(correct, secret["inputs"]):
        equal(expected, secret["inputs"], "inputs (%s accepted too)" % short(correct))
    equal(secret["inputs"], secret["outputs"], "inputs and outputs")


TESTS["l2-resource-secret"] = Test([Run(_resource_secret)])


# grpc_test_context.go: the requests config-grpc received, as its
# ConfigFetcher resource `name` gives them back
def _grpc_request(res, name, method):
    r = named(res, name)
    equal("config-grpc:index:ConfigFetcher", r["type"], "the fetcher's type")
    out = r["outputs"].get("config")
    require(isinstance(out, str), "`config` output must be a string, got %s" % short(out))
    found = [e["message"] for e in json.loads(out) if e["method"] == method]
    require(len(found) == 1, "expected exactly 1 %s call, got %d" % (method, len(found)))
    return found[0]


def _sec(v):
    """The Go tests' Secret(v): a value with the secret signature."""
    return {SIG_KEY: SECRET_SIG, "value": v}


def _json_or(want, got, msg):
    """AssertEqualOrJSONEncoded: |got| is |want| or its JSON text."""
    if isinstance(got, str):
        try:
            if json.loads(got) == want and _strict_same(want, json.loads(got)):
                return
        except ValueError:
            pass
    _equal_strict(want, got, msg)


def _json_or_secret(want, want2, got, msg):
    """AssertEqualOrJSONEncodedSecret: |got| is |want|, or a secret whose
    value is the JSON text of |want2|."""
    if isinstance(got, dict) and got.get(SIG_KEY) == SECRET_SIG and isinstance(got.get("value"), str):
        try:
            if _strict_same(want2, json.loads(got["value"])):
                return
        except ValueError:
            pass
    _equal_strict(want, got, msg)


def _strict_same(a, b):
    """reflect.DeepEqual over decoded JSON (numbers as float64)."""
    return json.dumps(a, sort_keys=True, default=float) == json.dumps(b, sort_keys=True, default=float) \
        or same(a, b) and type(a) is type(b)


def _equal_strict(want, got, msg):
    require(same(want, got), "%s: want %s, got %s" % (msg, short(want), short(got)))


def _json_eq(want, got, msg):
    """assert.JSONEq."""
    try:
        ok = isinstance(got, str) and same(json.loads(want), json.loads(got))
    except ValueError:
        ok = False
    require(ok, "%s: want JSON %s, got %s" % (msg, want, short(got)))


def _no_secret_leaks(res, secrets, ignore):
    """AssertNoSecretLeaks: no resource but those of |ignore| types holds
    one of |secrets| outside a secret."""
    def walk(v, where):
        if isinstance(v, Secret):
            return
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, where)
        elif isinstance(v, list):
            for x in v:
                walk(x, where)
        elif isinstance(v, str):
            for s in secrets:
                require(s not in v, "secret %s leaked in plain text: %s" % (s, where))
    for r in res.resources:
        if r["type"] in ignore:
            continue
        walk(r["inputs"], r["urn"] + " inputs")
        walk(r["outputs"], r["urn"] + " outputs")


# l2_provider_grpc_config.go: what the explicit provider's config looks
# like in CheckConfig, in Configure's args and in its variables
_GRPC_PLAIN = [
    ("int1", 0.0), ("int2", 42.0), ("num1", 0.0), ("num2", 42.42), ("bool1", True),
    ("bool2", False), ("listString1", []), ("listString2", ["", "foo"]),
    ("listInt1", [1.0, 2.0]), ("mapString1", {}), ("mapString2", {"key1": "value1", "key2": "value2"}),
    ("mapInt1", {"key1": 0.0, "key2": 42.0}), ("objString1", {}), ("objString2", {"x": "x-value"}),
    ("objInt1", {"x": 42.0}),
]
_GRPC_VARS = [
    ("int1", "0"), ("int2", "42"), ("num2", "42.42"), ("bool1", "true"), ("bool2", "false"),
]
_GRPC_VARS_JSON = [
    ("listString1", "[]"), ("listString2", '["","foo"]'), ("listInt1", "[1,2]"), ("mapString1", "{}"),
    ("mapString2", '{"key1":"value1","key2":"value2"}'), ("mapInt1", '{"key1":0,"key2":42}'),
    ("objString1", "{}"), ("objString2", '{"x":"x-value"}'), ("objInt1", '{"x":42}'),
]


def _grpc_config(res):
    # CheckConfig's request first, as the Go test reads it
    for what, method, field in (("CheckConfig", "CheckConfig", "news"), ("Configure", "Configure", "args")):
        msg = _grpc_request(res, "config", method)
        require(field in msg, "%s: no %s in the request the provider kept: %s" % (what, field, short(msg)))
        fields = msg[field]
        for k, want in (("string1", ""), ("string2", "x"), ("string3", "{}")):
            _equal_strict(want, fields.get(k), "%s %s" % (what, k))
        for k, want in _GRPC_PLAIN:
            _json_or(want, fields.get(k), "%s %s" % (what, k))
    v = _grpc_request(res, "config", "Configure")["variables"]
    key = lambda k: "config-grpc:config:" + k
    for k, want in (("string1", ""), ("string2", "x"), ("string3", "{}")) + tuple(_GRPC_VARS):
        _equal_strict(want, v.get(key(k)), "variable " + k)
    require(v.get(key("num1")) in ("0", "0.0"), "unexpected value for num1: %s" % v.get(key("num1")))
    for k, want in _GRPC_VARS_JSON:
        _json_eq(want, v.get(key(k)), "variable " + k)
    _no_secret_leaks(res, ["SECRET", "SECRET2"], ["config-grpc:index:ConfigFetcher"])


TESTS["l2-provider-grpc-config"] = Test([Run(_grpc_config)])


# l2_provider_grpc_config_secret.go: secret values (from toSecret) in
# the explicit provider's config
def _grpc_config_secret(res):
    r = _grpc_request(res, "config", "CheckConfig")
    require("news" in r, "CheckConfig: no news in the request the provider kept: %s" % short(r))
    news = r["news"]
    _equal_strict("SECRET", news.get("string1"), "CheckConfig string1")
    plain = [("int1", 1234567890.0), ("num1", 123456.789), ("bool1", True),
             ("listString1", ["SECRET", "SECRET2"]), ("listString2", ["VALUE", "SECRET"]),
             ("mapString2", {"key1": "value1", "key2": "SECRET"}), ("objString2", {"x": "SECRET"})]
    for k, want in plain:
        _json_or(want, news.get(k), "CheckConfig " + k)
    c = _grpc_request(res, "config", "Configure")
    _equal_strict(_sec("SECRET"), c["args"].get("string1"), "Configure string1")
    secret = {"int1": _sec(1234567890.0), "num1": _sec(123456.789), "bool1": _sec(True),
              "listString1": _sec(["SECRET", "SECRET2"]), "listString2": _sec(["VALUE", "SECRET"]),
              "mapString2": {"key1": "value1", "key2": _sec("SECRET")}, "objString2": {"x": _sec("SECRET")}}
    for k, want in plain:
        _json_or_secret(secret[k], want, c["args"].get(k), "Configure " + k)
    v = c["variables"]
    key = lambda k: "config-grpc:config:" + k
    for k, want in (("string1", "SECRET"), ("int1", "1234567890"), ("num1", "123456.789"), ("bool1", "true")):
        _equal_strict(want, v.get(key(k)), "variable " + k)
    for k, want in (("listString1", '["SECRET","SECRET2"]'), ("listString2", '["VALUE","SECRET"]'),
                    ("mapString2", '{"key1":"value1","key2":"SECRET"}'), ("objString2", '{"x":"SECRET"}')):
        _json_eq(want, v.get(key(k)), "variable " + k)
    _no_secret_leaks(res, ["SECRET", "SECRET2"], ["config-grpc:index:ConfigFetcher"])


TESTS["l2-provider-grpc-config-secret"] = Test([Run(_grpc_config_secret)])


# l2_provider_grpc_config_schema_secret.go: config properties the schema
# marks secret
def _grpc_config_schema_secret(res):
    r = _grpc_request(res, "config", "CheckConfig")
    require("news" in r, "CheckConfig: no news in the request the provider kept: %s" % short(r))
    news = r["news"]
    _equal_strict("SECRET", news.get("secretString1"), "CheckConfig secretString1")
    plain = [("secretInt1", 16.0), ("secretNum1", 123456.789), ("secretBool1", True),
             ("listSecretString1", ["SECRET", "SECRET2"]),
             ("mapSecretString1", {"key1": "SECRET", "key2": "SECRET2"})]
    for k, want in plain:
        _json_or(want, news.get(k), "CheckConfig " + k)
    c = _grpc_request(res, "config", "Configure")
    _equal_strict(_sec("SECRET"), c["args"].get("secretString1"), "Configure secretString1")
    for k, want in plain:
        _json_or_secret(_sec(want), want, c["args"].get(k), "Configure " + k)
    v = c["variables"]
    _equal_strict("SECRET", v.get("config-grpc:config:secretString1"), "variable secretString1")
    for k, want in (("secretInt1", "16"), ("secretNum1", "123456.7890"), ("secretBool1", "true"),
                    ("listSecretString1", '["SECRET", "SECRET2"]'),
                    ("mapSecretString1", '{"key1":"SECRET","key2":"SECRET2"}')):
        _json_eq(want, v.get("config-grpc:config:" + k), "variable " + k)
    _no_secret_leaks(res, ["SECRET", "SECRET2"], ["config-grpc:index:ConfigFetcher"])


TESTS["l2-provider-grpc-config-schema-secret"] = Test([Run(_grpc_config_schema_secret)])


# l2_primitive_ref.go
_PRIMITIVE_DATA = {"boolean": False, "float": 2.17, "integer": -12, "string": "Goodbye",
                   "boolArray": [False, True],
                   "stringMap": {"two": "turtle doves", "three": "french hens"}}


def _primitive_ref(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:primitive-ref")
    inputs_are_outputs(single(res, "primitive-ref:index:Resource"), {"data": _PRIMITIVE_DATA})


TESTS["l2-primitive-ref"] = Test([Run(_primitive_ref)])


# l2_ref_ref.go
def _ref_ref(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:ref-ref")
    want = {"data": {"innerData": _PRIMITIVE_DATA, "boolean": True, "float": 4.5, "integer": 1024,
                     "string": "Hello", "boolArray": [], "stringMap": {"x": "100", "y": "200"}}}
    inputs_are_outputs(single(res, "ref-ref:index:Resource"), want)


TESTS["l2-ref-ref"] = Test([Run(_ref_ref)])


# l2_proxy_index.go: the Go source available here asserts four outputs;
# Pulumi YAML's program (v3.252) has a fifth, listIndex, indexing into
# the innerDataList the provider's schema has, asserted as its siblings
def _proxy_index(res):
    stack_resource(res)
    outputs = stack_outputs(res)
    length(outputs, 5, "outputs")
    member(outputs, "bool", True)
    member(outputs, "array", True)
    member(outputs, "map", "100")
    member(outputs, "nested", "french hens")
    member(outputs, "listIndex", "Partridge")


TESTS["l2-proxy-index"] = Test([Run(_proxy_index)])


# l2_plain.go: the Go source available here has one resource, `res`,
# without dataList; Pulumi YAML's program (v3.252) gives `res` a dataList
# and adds `emptyListRes` (empty values, an empty dataList): both are
# asserted as `res` is
def _plain(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    single(res, "pulumi:providers:plain")
    n_resources(res, "plain:index:Resource", 2)
    want = {"data": {"innerData": _PRIMITIVE_DATA, "boolean": True, "float": 4.5, "integer": 1024,
                     "string": "Hello", "boolArray": [True, False],
                     "stringMap": {"x": "100", "y": "200"}},
            "dataList": [{"boolean": True, "float": 3.14, "integer": 42, "string": "Plain",
                          "boolArray": [True], "stringMap": {"one": "partridge"}}]}
    inputs_are_outputs(named(res, "res"), want)
    empty = {"boolean": False, "float": 0, "integer": 0, "string": "", "boolArray": [], "stringMap": {}}
    inputs_are_outputs(named(res, "emptyListRes"),
                       {"data": dict(empty, innerData=empty), "dataList": []})


TESTS["l2-plain"] = Test([Run(_plain)])


# l2_map_keys.go: map keys that are not identifiers survive as written
_KEYS = {"my key": "one", "my.key": "two", "my-key": "three", "my_key": "four", "MY_KEY": "five",
         "myKey": "six"}


def _map_keys(res):
    stack_resource(res)
    length(res.resources, 9, "resources in snapshot")
    for pkg in ("primitive", "primitive-ref", "ref-ref", "plain"):
        single(res, "pulumi:providers:" + pkg)
    inputs_are_outputs(single(res, "primitive:index:Resource"), {
        "boolean": False, "float": 2.17, "integer": -12, "string": "Goodbye", "numberArray": [0, 1],
        "booleanMap": {"my key": False, "my.key": True, "my-key": False, "my_key": True,
                       "MY_KEY": False, "myKey": True}})
    inputs_are_outputs(single(res, "primitive-ref:index:Resource"), {"data": dict(
        _PRIMITIVE_DATA, stringMap=_KEYS)})
    inputs_are_outputs(single(res, "ref-ref:index:Resource"), {"data": {
        "innerData": {"boolean": False, "float": -2.17, "integer": 123, "string": "Goodbye",
                      "boolArray": [], "stringMap": _KEYS},
        "boolean": True, "float": 4.5, "integer": 1024, "string": "Hello", "boolArray": [],
        "stringMap": _KEYS}})
    data = {"innerData": dict(_PRIMITIVE_DATA, stringMap=_KEYS), "boolean": True, "float": 4.5,
            "integer": 1024, "string": "Hello", "boolArray": [True, False], "stringMap": _KEYS}
    inputs_are_outputs(single(res, "plain:index:Resource"), {"data": data, "nonPlainData": data})


TESTS["l2-map-keys"] = Test([Run(_map_keys)])


# l2_resource_any.go: values of every shape into an input of type any
ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17"


def text_asset(text):
    """resource.NewTextAsset: the asset as the state holds it."""
    return {SIG_KEY: ASSET_SIG, "hash": hashlib.sha256(text.encode()).hexdigest(), "text": text}


def _resource_any(res):
    stack_resource(res)
    for name, want in (("aString", "a string"), ("aBoolean", True), ("aNumber", 42.0),
                       ("aList", [1.0, True, "three"]),
                       ("anObject", {"key": "value", "nested": {"count": 1.0}}),
                       ("anAsset", text_asset("the asset contents"))):
        equal(want, named(res, name)["inputs"].get("value"), name)


TESTS["l2-resource-any"] = Test([Run(_resource_any)])


# l2_resource_asset_archive.go (the program's main is subdir/). The Go
# test compares with the values resource.NewPathAssetWithWD and friends
# make, whose hashes Pulumi computes the same way: a file's bytes, a .tar's
# bytes, the tar Go's archive/tar writes of a folder's or a map's members
# (_ASSARC: of archive/dir/data.txt, file, folder/test.txt and string, as
# tests/engine/go_tar_hash.py reckons it and Go's archive/tar writes it),
# a download's bytes. The two URLs are served by the test's own proxy
# (https_fixture.py) with the test's own test.txt and archive.tar.
ARCHIVE_SIG = "0def7320c3a5731c473e5ecbe6d01bc7"
_TEXT_HASH = "982d9e3eb996f559e633f4d194def3761d909f5a3b647d1a851fead67c32c9d1"
_TAR_HASH = "2eee410fe85d360552a8c21238d67d43f4b64e60288914f893b67165e8ebfbcf"
_FOLDER_HASH = "25df47ed6b3c8e07479e5d9c908eff93d624ec693b6aa7559a9bcb084db70774"
_ASSARC_HASH = "c2d23db995a733f0e6526dad4ad51914b4575fc1d62e4226dbbe9fdc5b01cce4"
_REMOTE = ("https://raw.githubusercontent.com/pulumi/pulumi/7b0eb7fb10694da2f31c0d15edf671df843e0d4c"
           "/cmd/pulumi-test-language/tests/testdata/l2-resource-asset-archive/")


def _asset_archive(res):
    stack_resource(res)
    length(res.resources, 8, "resources in snapshot")
    single(res, "pulumi:providers:asset-archive")
    types = {"ass": "AssetResource", "arc": "ArchiveResource", "dir": "ArchiveResource",
             "assarc": "ArchiveResource", "remoteass": "AssetResource",
             "remotearc": "ArchiveResource"}
    rs = {}
    for name, typ in types.items():
        rs[name] = named(res, name)
        equal("asset-archive:index:" + typ, rs[name]["type"], "%s's type" % name)
    file_asset = {SIG_KEY: ASSET_SIG, "hash": _TEXT_HASH, "path": "../test.txt"}
    tar = {SIG_KEY: ARCHIVE_SIG, "path": "../archive.tar", "hash": _TAR_HASH}
    folder = {SIG_KEY: ARCHIVE_SIG, "path": "../folder", "hash": _FOLDER_HASH}
    for name, want in (("ass", file_asset), ("arc", tar), ("dir", folder)):
        inputs_are_outputs(rs[name], {"value": want})
    assets = {"string": text_asset("file contents"), "file": file_asset, "folder": folder,
              "archive": tar}
    inputs_are_outputs(rs["assarc"], {"value": {SIG_KEY: ARCHIVE_SIG, "hash": _ASSARC_HASH,
                                                "assets": assets}})
    inputs_are_outputs(rs["remoteass"], {"value": {SIG_KEY: ASSET_SIG, "hash": _TEXT_HASH,
                                                   "uri": _REMOTE + "test.txt"}})
    inputs_are_outputs(rs["remotearc"], {"value": {SIG_KEY: ARCHIVE_SIG, "hash": _TAR_HASH,
                                                   "uri": _REMOTE + "archive.tar"}})
    outs = stack_outputs(res)
    string = text_asset("file contents")
    member(outs, "assetOutput", file_asset)
    member(outs, "archiveOutput", tar)
    member(outs, "assetList", [file_asset, string])
    member(outs, "archiveList", [tar, folder])
    member(outs, "assetMap", {"file": file_asset, "string": string})
    member(outs, "archiveMap", {"tar": tar, "folder": folder})


TESTS["l2-resource-asset-archive"] = Test([Run(_asset_archive)])


# ---- parameterized packages (providers/parameterized.js, extbase.js)


# l2_parameterized_resource.go
def _parameterized_resource(res):
    stack_resource(res)
    outs = stack_outputs(res)
    equal("HelloWorld", outs.get("parameterValue"), "parameter value should be correct")
    equal("HelloWorldComponent", outs.get("parameterValueFromComponent"),
          "parameter value from component should be correct")


TESTS["l2-parameterized-resource"] = Test([Run(_parameterized_resource)])


# l2_parameterized_invoke.go
def _parameterized_invoke(res):
    stack_resource(res)
    equal("goodbyeHelloWorld", stack_outputs(res).get("parameterValue"),
          "parameter value should be correct")


TESTS["l2-parameterized-invoke"] = Test([Run(_parameterized_invoke)])


# l2_parameterized_resource_twice.go
def _parameterized_resource_twice(res):
    stack_resource(res)
    outs = stack_outputs(res)
    equal("HelloWorld", outs.get("parameterValue1"), "first parameter value should be correct")
    equal("HelloWorldComponent", outs.get("parameterValueFromComponent1"),
          "first parameter value from component should be correct")
    equal("GoodbyeWorld", outs.get("parameterValue2"), "second parameter value should be correct")
    equal("GoodbyeWorldComponent", outs.get("parameterValueFromComponent2"),
          "second parameter value from component should be correct")


TESTS["l2-parameterized-resource-twice"] = Test([Run(_parameterized_resource_twice)])


# l2_explicit_parameterized_provider.go
def _explicit_parameterized_provider(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    equal("Goodbye World", stack_outputs(res).get("parameterValue"),
          "parameter value and provider config should be correct")
    prov = single(res, "pulumi:providers:goodbye")
    equal("prov", urn_name(prov["urn"]), "expected explicit provider resource")
    goodbye = single(res, "goodbye:index:Goodbye")
    equal(provider_ref(prov), goodbye.get("provider"), "provider reference")


TESTS["l2-explicit-parameterized-provider"] = Test([Run(_explicit_parameterized_provider)])


# l2_extension_parameterized_resource.go and l2_extension_and_base_resource.go
# as they were at Pulumi 63edfb3796, the version Pulumi YAML's programs were
# made for (<= 3.256): the extension's resources in the base package's
# namespace, extbase:index:Greeting. Pulumi's newest assertions (after
# pulumi#24143, 8a221ce67e) want myext:index:Greeting, which these programs
# (`type: extbase:Greeting`) cannot make.
def _extension_parameterized_resource(res):
    stack_resource(res)
    outs = stack_outputs(res)
    member(outs, "parameterValue", "Hello")
    member(outs, "parameterValueFromComponent", "HelloComponent")
    member(outs, "invokeGreeting", "Hello, Pulumi")
    greeting = single(res, "extbase:index:Greeting")
    require(greeting.get("extensionRef"), "extension resource state must carry an ExtensionRef")
    require("pulumi:providers:extbase::" in greeting.get("provider", ""),
            "greeting must be served by the base provider, not the extension")
    extensions = (res.state or {}).get("deployment", {}).get("extensions") or {}
    require(greeting["extensionRef"] in extensions,
            "snapshot Extensions must include the extension blob keyed by ExtensionRef")


TESTS["l2-extension-parameterized-resource"] = Test([Run(_extension_parameterized_resource)])


def _extension_and_base_resource(res):
    stack_resource(res)
    outs = stack_outputs(res)
    member(outs, "parameterValue", "Hello")
    member(outs, "baseValue", "base")
    greeting = single(res, "extbase:index:Greeting")
    require(greeting.get("extensionRef"), "extension resource state must carry an ExtensionRef")
    require("pulumi:providers:extbase::" in greeting.get("provider", ""),
            "greeting must be served by the base provider")
    base = single(res, "extbase:index:Base")
    require(not base.get("extensionRef"), "base resource state must not carry an ExtensionRef")
    require("pulumi:providers:extbase::" in base.get("provider", ""),
            "base must be served by the base provider")


TESTS["l2-extension-and-base-resource"] = Test([Run(_extension_and_base_resource)])
# ---------------------------------------------------------------- components
# The tests of a component provider (Construct): providers/component.js,
# plaincomponent.js, namespaced.js.
RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e"


def resource_ref(v, what):
    """ResourceReferenceValue(): a state value that is a resource
    reference, as (urn, id)."""
    require(isinstance(v, dict) and v.get(SIG_KEY) == RESOURCE_SIG,
            "expected %s to be a resource reference, got %s" % (what, short(v)))
    return v.get("urn"), v.get("id")


def _ref_is(res_ref, target, what):
    urn, rid = resource_ref(res_ref, what)
    equal(target["urn"], urn, "%s's URN" % what)
    equal(target.get("id", ""), rid, "%s's ID" % what)


def _builtin_and_default_component(res):
    builtin = named(res, "default")
    equal("pulumi:providers:pulumi", builtin["type"], "expected builtin provider")
    prov = named(res, "default_13_3_7")
    equal("pulumi:providers:component", prov["type"], "expected default component provider")
    return provider_ref(prov)


def _uses(r, prov_ref, value, what):
    equal(prov_ref, r.get("provider"), "expected %s to use default provider" % what)
    equal("foo-bar-baz" if value is None else value, r["outputs"].get("value"),
          "expected %s to have correct value output" % what)


# l2_component_component_resource_ref.go
def _component_component_resource_ref(res):
    stack_resource(res)
    length(res.resources, 9, "resources in snapshot")
    prov = _builtin_and_default_component(res)
    c1, c1child = named(res, "component1"), named(res, "component1-child")
    c2, c2child = named(res, "component2"), named(res, "component2-child")
    custom1, custom2 = named(res, "custom1"), named(res, "custom2")
    equal("foo-bar-baz", c1["outputs"].get("value"), "expected component1 to have correct value output")
    _ref_is(c1["outputs"].get("ref"), c1child, "component1's ref")
    _uses(c1child, prov, None, "component1-child")
    _ref_is(c2["outputs"].get("inputRef"), c1child, "component2's inputRef")
    _ref_is(c2["outputs"].get("outputRef"), c2child, "component2's outputRef")
    _uses(c2child, prov, None, "component2-child")
    _uses(custom1, prov, None, "custom1")
    _uses(custom2, prov, None, "custom2")


TESTS["l2-component-component-resource-ref"] = Test([Run(_component_component_resource_ref)])


# l2_component_program_resource_ref.go
def _component_program_resource_ref(res):
    stack_resource(res)
    length(res.resources, 7, "resources in snapshot")
    prov = _builtin_and_default_component(res)
    c1, c1child = named(res, "component1"), named(res, "component1-child")
    equal("foo-bar-baz", c1["outputs"].get("value"), "expected component1 to have correct value output")
    _ref_is(c1["outputs"].get("ref"), c1child, "component1's ref")
    _uses(c1child, prov, None, "component1-child")
    _uses(named(res, "custom1"), prov, None, "custom1")
    _uses(named(res, "custom2"), prov, None, "custom2")


TESTS["l2-component-program-resource-ref"] = Test([Run(_component_program_resource_ref)])


# l2_explicit_providers.go: the components' `providers` option (a list in
# the program) reaches Construct, whose children use the explicit provider
def _explicit_providers(res):
    stack_resource(res)
    length(res.resources, 6, "resources in snapshot")
    prov = single(res, "pulumi:providers:component")
    equal("explicit", urn_name(prov["urn"]), "expected explicit provider resource")
    for name in ("list-child", "map-child"):
        equal(provider_ref(prov), named(res, name).get("provider"),
              "expected explicit provider to be used for %s resource" % name)


TESTS["l2-explicit-providers"] = Test([Run(_explicit_providers)])


# l2_resource_option_alias.go: run 1 renames, reparents and retypes the
# resources of run 0 through aliases; nothing is created
def _alias_0(res):
    stack_resource(res)
    length(res.resources, 9, "resources in snapshot")


def _alias_1(res):
    equal(0, res.changes.get("create", 0), "expected no create operations")
    length(res.resources, 8, "resources in snapshot")
    stack = single(res, "pulumi:pulumi:Stack")
    parent = named(res, "parent")
    equal(stack["urn"], parent.get("parent"), "expected stack to be parent of parent resource")
    for name in ("aliasURN", "aliasNoParent", "aliasParent"):
        equal(parent["urn"], named(res, name).get("parent"),
              "expected parent to be parent of %s resource" % name)
    equal("simple:index:Resource", named(res, "aliasType")["type"],
          "expected aliasType to be of type simple:index:Resource")


TESTS["l2-resource-option-alias"] = Test([Run(_alias_0), Run(_alias_1)])


# l2_namespaced_provider.go
def _namespaced_provider(res):
    stack_resource(res)
    length(res.resources, 7, "resources in snapshot")
    single(res, "pulumi:providers:namespaced")
    single(res, "pulumi:providers:component")
    r = single(res, "namespaced:index:Resource")
    child = ("urn:pulumi:test::l2-namespaced-provider::component:index:ComponentCustomRefOutput"
             "$component:index:Custom::componentRes-child")
    equal(True, r["inputs"].get("value"), "inputs' value")
    ref = r["inputs"].get("resourceRef")
    urn, rid = resource_ref(ref, "resourceRef")
    equal(child, urn, "resourceRef's URN")
    equal("id-foo-bar-baz", rid, "resourceRef's ID")
    equal("", ref.get("packageVersion", ""), "resourceRef's package version")
    equal(["resourceRef", "value"], sorted(r["inputs"]), "inputs' keys")
    equal(r["inputs"], r["outputs"], "expected inputs and outputs to match")
    single(res, "component:index:Custom")


TESTS["l2-namespaced-provider"] = Test([Run(_namespaced_provider)])


# l2_plain_component.go
def _plain_component(res):
    stack_resource(res)
    length(res.resources, 4, "resources in snapshot")
    single(res, "pulumi:providers:plaincomponent")
    comp = named(res, "myComponent")
    equal("plaincomponent:index:Component", comp["type"], "expected component type")
    equal("my-resource", comp["outputs"].get("label"), "expected label output")
    child = named(res, "myComponent-child")
    equal("plaincomponent:index:Custom", child["type"], "expected child custom type")
    equal("my-resource", child["outputs"].get("value"), "expected child value output")


TESTS["l2-plain-component"] = Test([Run(_plain_component)])
# The URLs run.py's HTTPS proxy serves, and the files of the test's folder
# it serves for them.
TESTS["l2-resource-asset-archive"].https = {_REMOTE + "test.txt": "test.txt",
                                            _REMOTE + "archive.tar": "archive.tar"}
