"""The policy tests of Pulumi's language conformance suite (policy packs
of policies/, on @pulumi/policy), restated from pkg/testing/
pulumi-test-language/tests/policy_*.go, assertion for assertion.

Each run gives its policy packs as the Go runner does (runner.go): the
pack's config, when it has one, written to <project>/<pack>.json, and the
pack passed as a local policy pack with that config: here
`--policy-pack policies/<pack> --policy-pack-config <pack>.json` on both
the preview and the update.

The Go tests look at the engine's events (engine.Event payloads); here
they are the events of `up --json` and of the preview's `--event-log`,
which are those payloads as Pulumi's CLI writes them
(display.ConvertEngineEvent, then logJSONEvent): a non-interactive run
has colors.Never, so a policy violation's and a diagnostic's message
lose their color tags and their `color` is "never", while a
remediation's `color` stays as the engine made it ("raw"). A
violation's `prefix` is not written (apitype.PolicyEvent has no such
field): the engine makes it from the enforcement level alone
(eventEmitter.policyViolationEvent), which is compared.

`res.Err` is a Go error the CLI does not print when it is a bail
(cmdutil.DisplayErrorMessage); what each bail means is restated over
what can be seen:
- "BAIL: step generator errored" (a preview with a mandatory
  violation): in a preview the violation does not make the resource
  invalid (analyzeResource sets only sawError), so the resource's step
  is still generated and shown, and the preview then fails with the
  deployment's one error diagnostic, "preview failed"
  (deploymentExecutor.reportExecResult);
- "BAIL: resource <urn> is invalid" (an update): the resource gets no
  step, and the update fails.
"""

import json
import os
import re

from check import Run, Test, equal, error, no_error, require, short

TESTS = {}

HERE = os.path.dirname(os.path.abspath(__file__))
POLICIES = os.path.join(HERE, "policies")


class PolicyRun(Run):
    """A Run with policy packs: pack name -> its config (a dict, may be
    empty: then no config file is given, as in runner.go)."""

    def __init__(self, check, policy_packs, **kw):
        super().__init__(check, **kw)
        self.policy_packs = policy_packs


def policy_flags(project_dir, run):
    """The flags of |run|'s policy packs; writes their config files into
    the project as runner.go does (<pack>.json). The i-th
    --policy-pack-config goes with the i-th --policy-pack, so the packs
    with a config come first."""
    packs = getattr(run, "policy_packs", None) or {}
    with_config = [p for p in sorted(packs) if packs[p]]
    flags = []
    for p in with_config + [p for p in sorted(packs) if not packs[p]]:
        flags += ["--policy-pack", os.path.join(POLICIES, p)]
    for p in with_config:
        path = os.path.join(project_dir, p + ".json")
        with open(path, "w") as f:
            json.dump(packs[p], f)
        flags += ["--policy-pack-config", path]
    return flags


_TAGS = re.compile(r"<\{%[^%]*%\}>")


def uncolor(text):
    """colors.Never.Colorize: every color directive removed."""
    return _TAGS.sub("", text)


def level_prefix(level):
    """The prefix Pulumi's engine gives a violation of |level|."""
    return "<{%%fg %d%%}>%s: <{%%reset%%}>" % (1 if level == "mandatory" else 3, level)


def violation(urn, message, policy, pack, version, level, prefix):
    """A Go engine.PolicyViolationEventPayload (Color "raw"), as the
    CLI's event log writes it."""
    equal(level_prefix(level), prefix, "the violation's prefix (made from its level)")
    return {"resourceUrn": urn, "message": uncolor(message), "color": "never",
            "policyName": policy, "policyPackName": pack, "policyPackVersion": version,
            "policyPackVersionTag": version, "enforcementLevel": level}


def violations(res):
    return [e["policyEvent"] for e in res.events if "policyEvent" in e]


def remediations(res):
    return [e["policyRemediationEvent"] for e in res.events if "policyRemediationEvent" in e]


def diag_events(res):
    return [e["diagnosticEvent"] for e in res.events if "diagnosticEvent" in e]


def same_violations(res, want):
    """require.Len, then assert.Contains for each expected one."""
    got = violations(res)
    require(len(got) == len(want), "expected %d policy violations, got %d: %s"
            % (len(want), len(got), short(got, 1200)))
    for v in want:
        require(v in got, "expected policy violation %s in %s" % (short(v, 600), short(got, 1200)))


def stepped(res, urn):
    """Whether the run's events show a step of |urn|."""
    return any(e.get(k, {}).get("metadata", {}).get("urn") == urn for e in res.events
               for k in ("resourcePreEvent", "resOutputsEvent"))


def bail_step_generator_errored(res, urn):
    """require.ErrorContains(err, "BAIL: step generator errored") on a
    preview whose resource |urn| violates a mandatory policy."""
    error(res)
    errors = [d for d in diag_events(res) if d.get("severity") == "error"]
    equal(["preview failed\n"], [d.get("message") for d in errors],
          "the preview's error diagnostics (only the deployment's)")
    require(not errors[0].get("urn"), "expected the preview's failure on no resource")
    require(stepped(res, urn), "expected the preview to go on with a step of %s "
            "(a mandatory violation does not make a resource invalid in a preview)" % urn)


def bail_resource_invalid(res, urn):
    """require.ErrorContains(err, "BAIL: resource <urn> is invalid")."""
    error(res)
    require(not stepped(res, urn), "expected no step of %s (invalid)" % urn)


def no_violations(res):
    got = violations(res)
    require(not got, "expected no policy violations, got %s" % short(got, 1200))


def no_remediations(res):
    got = remediations(res)
    require(not got, "expected no policy remediations, got %s" % short(got, 1200))


# policy_config.go. Pulumi YAML's test data has the program of run 0
# only (policy-config/0/), so run 1 (its program value: false, the
# config's value: true) is not run.
def _config_validate(res, value):
    same_violations(res, [violation(
        "urn:pulumi:test::policy-config::simple:index:Resource::res",
        "<{%reset%}>Verifies properties\nProperty was " + value + "<{%reset%}>\n",
        "allowed", "config", "2.0.0", "mandatory", "<{%fg 1%}>mandatory: <{%reset%}>")])


_CONFIG_RES = "urn:pulumi:test::policy-config::simple:index:Resource::res"


def _config_preview(res):
    bail_step_generator_errored(res, _CONFIG_RES)
    _config_validate(res, "true")


def _config_up(res):
    bail_resource_invalid(res, _CONFIG_RES)
    _config_validate(res, "true")


TESTS["policy-config"] = Test([
    PolicyRun(_config_up, {"config": {"allowed": {"value": False}}}, preview=_config_preview),
])


# policy_config_schema.go: the runs share the program; only the pack's
# config changes.
def _schema_invalid(text):
    def check(res):
        # require.ErrorContains(err, "validating policy config")
        require(res.err is not None and "validating policy config" in res.err,
                "expected an error containing \"validating policy config\", got %s" % (res.err,))
        diags = diag_events(res)
        require(len(diags) == 1, "expected 1 diagnostic, got %d: %s"
                % (len(diags), short([d.get("message") for d in diags], 1200)))
        equal(uncolor("<{%reset%}>validating policy config: config-schema 3.0.0  validator: "
                      + text + "<{%reset%}>\n"), diags[0].get("message"), "the diagnostic")
    return check


def _schema_valid(res):
    no_error(res)
    no_violations(res)


def _schema_resy_preview(res):
    no_error(res)
    got = violations(res)
    require(len(got) == 1, "expected one policy violation, got %s" % short(got, 1200))
    equal(violation(
        "urn:pulumi:test::policy-config-schema::simple:index:Resource::resY",
        "<{%reset%}>Verifies property matches config\nProperty was true<{%reset%}>\n",
        "validator", "config-schema", "3.0.0", "advisory", "<{%fg 3%}>advisory: <{%reset%}>"),
        got[0], "the policy violation")


def _schema_resy_up(res):
    no_error(res)
    got = violations(res)
    require(len(got) == 1, "expected one policy violation, got %s" % short(got, 1200))


def _schema_run(config, check, preview):
    return PolicyRun(check, {"config-schema": {"validator": config}}, preview=preview)


_NAMES_REQUIRED = _schema_invalid("names is required")
_NAMES_EMPTY = _schema_invalid("names: Array must have at least 1 items")
TESTS["policy-config-schema"] = Test([
    _schema_run({"value": False}, _NAMES_REQUIRED, _NAMES_REQUIRED),
    _schema_run({"value": False, "names": []}, _NAMES_EMPTY, _NAMES_EMPTY),
    _schema_run({"value": False, "names": ["resN"]}, _schema_valid, _schema_valid),
    _schema_run({"value": False, "names": ["resY"]}, _schema_resy_up, _schema_resy_preview),
], share_source=True)


# policy_enforcement_config.go: the runs share the program; the pack's
# config sets the policy's level (none: its own, advisory).
_ENF_RES = "urn:pulumi:test::policy-enforcement-config::simple:index:Resource::res"


def _enf_validate(res, level):
    want = []
    if level:
        n = 1 if level == "mandatory" else 3
        want.append(violation(
            _ENF_RES, "<{%reset%}>Verifies property is false\nProperty was true<{%reset%}>\n",
            "false", "enforcement-config", "3.0.0", level,
            "<{%%fg %d%%}>%s: <{%%reset%%}>" % (n, level)))
    same_violations(res, want)


def _enf_ok(level):
    def check(res):
        no_error(res)
        _enf_validate(res, level)
    return check


def _enf_mandatory_preview(res):
    bail_step_generator_errored(res, _ENF_RES)
    _enf_validate(res, "mandatory")


def _enf_mandatory_up(res):
    bail_resource_invalid(res, _ENF_RES)
    _enf_validate(res, "mandatory")


TESTS["policy-enforcement-config"] = Test([
    PolicyRun(_enf_ok("advisory"), {"enforcement-config": {}}, preview=_enf_ok("advisory")),
    PolicyRun(_enf_mandatory_up, {"enforcement-config": {"false": {"enforcementLevel": "mandatory"}}},
              preview=_enf_mandatory_preview),
    PolicyRun(_enf_ok(""), {"enforcement-config": {"false": "disabled"}}, preview=_enf_ok("")),
], share_source=True)


# policy_remediate.go: the runs share the program; the remediation sets
# `value` to the configured one.
def _remediate_verify(res):
    got = remediations(res)
    # engine.PolicyRemediationEventPayload as the event log writes it:
    # its color untouched, Before and After as serialized properties
    want = [{"resourceUrn": "urn:pulumi:test::policy-remediate::simple:index:Resource::res",
             "color": "raw", "policyName": "fixup", "policyPackName": "remediate",
             "policyPackVersion": "3.0.0", "policyPackVersionTag": "3.0.0",
             "before": {"value": True}, "after": {"value": False}}]
    require(len(got) == len(want), "expected %d policy remediations, got %d: %s"
            % (len(want), len(got), short(got, 1200)))
    for r in want:
        require(r in got, "expected policy remediation %s in %s" % (short(r, 600), short(got, 1200)))


def _remediate_fixed(res):
    no_error(res)
    _remediate_verify(res)


def _remediate_none(res):
    no_error(res)
    no_remediations(res)


TESTS["policy-remediate"] = Test([
    PolicyRun(_remediate_fixed, {"remediate": {"fixup": {"value": False}}},
              preview=_remediate_fixed),
    PolicyRun(_remediate_none, {"remediate": {"fixup": {"value": True}}},
              preview=_remediate_none),
    PolicyRun(_remediate_none,
              {"remediate": {"fixup": {"value": True, "enforcementLevel": "disabled"}}},
              preview=_remediate_none),
], share_source=True)


# policy_stack_config.go: the pack reads the stack's config `value` and
# names its policy after it. Pulumi YAML's test data has the program of
# run 0 only (policy-stack-config/0/), so run 1 (its program value:
# false, the stack's value: true) is not run.
_STACK_RES = "urn:pulumi:test::policy-stack-config::simple:index:Resource::res"


def _stack_validate(res, value):
    opp = "false" if value == "true" else "true"
    same_violations(res, [violation(
        _STACK_RES,
        "<{%reset%}>Verifies property is " + value + "\nProperty was " + opp + "<{%reset%}>\n",
        "validate-" + value, "stack-config", "2.0.0", "mandatory",
        "<{%fg 1%}>mandatory: <{%reset%}>")])


def _stack_preview(res):
    bail_step_generator_errored(res, _STACK_RES)
    _stack_validate(res, "false")


def _stack_up(res):
    bail_resource_invalid(res, _STACK_RES)
    _stack_validate(res, "false")


TESTS["policy-stack-config"] = Test([
    PolicyRun(_stack_up, {"stack-config": {}}, config={"value": "false"}, preview=_stack_preview),
])

