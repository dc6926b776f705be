"""The provider-* tests of Pulumi's language conformance suite: a
component provider written in the language under test (Pulumi YAML's,
yaml-providers/<pkg>/PulumiPlugin.yaml, from pulumi-yaml's
cmd/pulumi-language-yaml/testdata/providers), used by a program. Restated
from pkg/testing/pulumi-test-language/tests/provider_*.go, assertion for
assertion. The runner installs each language provider as Pulumi's
runner.go does (a copy of its folder the engine loads as the plugin of
<pkg>@<version>): into the test's plugin cache at the version its
package declaration names (run.py, install_language_providers)."""

from check import Test, Run, equal, length, named, single, stack_resource, member

TESTS = {}


def language_test(runs, language_providers, **kw):
    """A Test whose LanguageProviders are served from yaml-providers/."""
    t = Test(runs, **kw)
    t.language_providers = tuple(language_providers)
    return t


# provider_builtin_info_component.go
def _builtin_info_component(res):
    stack_resource(res)
    length(res.resources, 3, "resources in snapshot")
    single(res, "pulumi:providers:builtin-info-component")
    component = single(res, "builtin-info-component:index:BuiltinInfo")
    member(component["outputs"], "organization", "organization")
    member(component["outputs"], "project", "provider-builtin-info-component")
    member(component["outputs"], "stack", "test")


TESTS["provider-builtin-info-component"] = language_test(
    [Run(_builtin_info_component)], ["builtin-info-component"])


# provider_resource_component.go
def _resource_component(res):
    stack_resource(res)
    length(res.resources, 6, "resources in snapshot")
    single(res, "pulumi:providers:conformance-component")
    component = single(res, "conformance-component:index:Simple")
    equal({"value": True}, component["inputs"], "expected inputs to be {value: true}")
    equal(component["inputs"], component["outputs"], "expected inputs and outputs to match")
    single(res, "pulumi:providers:simple")
    simple = named(res, "res-child")
    equal({"value": False}, simple["inputs"], "expected inputs to be {value: false}")
    equal(simple["inputs"], simple["outputs"], "expected inputs and outputs to match")
    equal(component["urn"], simple.get("parent"),
          "expected component to be parent of simple resource")


TESTS["provider-resource-component"] = language_test(
    [Run(_resource_component)], ["conformance-component"])
