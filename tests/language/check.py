"""The assertions of Pulumi's language conformance tests, restated over
minipulumi's observable results: the state of `stack export
--show-secrets`, the exit status, the output text, and the summary's
resource changes of `up --json`.

A Go test's `res.Snap.Resources` is `Result.resources` (the state's
resources, each a dict as exported); `res.Err` is `Result.err` (None or
the failure's text); `res.Changes` is `Result.changes` (op -> count).
Values compare as Pulumi's PropertyValues do: a secret is `Secret(v)`,
a number never equals a bool, 1 equals 1.0.
"""

import json

SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270"
SIG_KEY = "4dabf18193072939515e22adb298388d"


class Failed(Exception):
    """An assertion that did not hold (the test fails)."""


class Secret:
    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Secret) and same(self.value, other.value)

    def __repr__(self):
        return "Secret(%r)" % (self.value,)


class Result:
    """One run's outcome."""

    def __init__(self, project_dir, err, state, changes, stdout, stderr):
        self.project_dir = project_dir
        self.err = err
        self.state = state
        self.resources = [] if state is None else [
            dict(r, outputs=plain(r.get("outputs", {})), inputs=plain(r.get("inputs", {})))
            for r in state.get("deployment", {}).get("resources", []) or []
        ]
        self.changes = changes
        self.stdout = stdout
        self.stderr = stderr
        self.events = list(events(stdout))


def events(stdout):
    """The engine events of a `--json` run."""
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                yield json.loads(line)
            except ValueError:
                pass


def diagnostics(res, severity, name):
    """The messages of the |severity| diagnostics on the resource |name|,
    without color markers (Pulumi's wrap them in <{%reset%}>)."""
    out = []
    for e in res.events:
        d = e.get("diagnosticEvent")
        if d and d.get("severity") == severity and urn_name(d.get("urn", "")) == name:
            out.append(d.get("message", "").replace("<{%reset%}>", ""))
    return out


def plain(v):
    """A state value with its secrets as Secret (their plaintext decoded)."""
    if isinstance(v, dict):
        if v.get(SIG_KEY) == SECRET_SIG:
            if "plaintext" in v:
                return Secret(plain(json.loads(v["plaintext"])))
            return Secret(plain(v.get("value")))
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def same(a, b):
    """Equality as Pulumi's PropertyValue: types first, then values."""
    if isinstance(a, Secret) or isinstance(b, Secret):
        return isinstance(a, Secret) and isinstance(b, Secret) and same(a.value, b.value)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def short(v, n=300):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."


def require(cond, msg):
    if not cond:
        raise Failed(msg)


def equal(want, got, msg="values differ"):
    if not same(want, got):
        raise Failed("%s: want %s, got %s" % (msg, short(want), short(got)))


def no_error(res):
    require(res.err is None, "expected no error, got: %s" % (res.err,))


def error(res):
    require(res.err is not None, "expected an error, the update succeeded")


def stack_resource(res):
    """AssertStackResource / RequireStackResource: no error, at least one
    change and one create."""
    no_error(res)
    require(res.changes, "expected at least 1 StepOp")
    require(res.changes.get("create", 0) > 0, "expected at least 1 Create, got %s" % res.changes)


def n_resources(res, typ, count):
    found = [r for r in res.resources if r["type"] == typ]
    require(len(found) == count,
            "expected exactly %d resources of type %s, got %d" % (count, typ, len(found)))
    return found


def single(res, typ):
    return n_resources(res, typ, 1)[0]


def urn_name(urn):
    return urn.split("::")[-1]


def named(res, name):
    found = [r for r in res.resources if urn_name(r["urn"]) == name]
    require(found, "expected exactly 1 resource named %s, got none" % name)
    require(len(found) == 1, "expected exactly 1 resource named %s, got multiple" % name)
    return found[0]


def member(props, key, want):
    """AssertPropertyMapMember."""
    require(key in props, "expected property %s" % key)
    equal(want, props[key], "property %s" % key)


def length(items, n, what="outputs"):
    """require.Len, on a property map or on the state's resources."""
    names = sorted(r["urn"] if isinstance(r, dict) else r for r in items)
    require(len(items) == n, "expected %d %s, got %d: %s" % (n, what, len(items), short(names, 600)))


def stack_outputs(res):
    return single(res, "pulumi:pulumi:Stack").get("outputs", {})


# ---------------------------------------------------------------- specs


class Obj:
    """config.NewObjectValue: the JSON text of a structured value."""

    def __init__(self, text):
        self.value = json.loads(text)


class Sec:
    """config.NewSecureValue: a secret (its plaintext)."""

    def __init__(self, text):
        self.text = text


class Run:
    """One TestRun: the config of the run (keys without a namespace are
    the project's), its assertion on `up`, and an optional one on the
    preview before it (without one, the preview is not run: the Go
    harness's default preview assertion checks nothing). flags: the
    run's UpdateOptions as flags of `up` (`preview` has no
    --continue-on-error)."""

    def __init__(self, check, config=None, preview=None, flags=()):
        self.check = check
        self.config = config or {}
        self.preview = preview
        self.flags = list(flags)


class Test:
    """A LanguageTest: its runs; with share_source, every run uses the
    program of the test's folder, otherwise run N uses folder N/ when
    there is one. stack_refs: stack name -> outputs of a stack the test
    makes first (the Go harness's StackReferences). providers: (package,
    version) pairs to install besides those of the sdks/ declarations."""

    def __init__(self, runs, share_source=False, stack_refs=None, providers=()):
        self.runs = runs
        self.providers = providers
        self.share_source = share_source
        self.stack_refs = stack_refs or {}
