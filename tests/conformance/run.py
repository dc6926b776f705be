#!/usr/bin/env python3
"""Engine conformance runner for minipulumi.

Runs every scenario file (tests/conformance/scenarios/*.scn, format in
README.md) against the built binary, one process per command as a user
would, once with --parallel 1 (total step orders) and once with
--parallel 8 (partial orders, same final state). Prints one line per
scenario, the details of each failure, and `N passed, N failed`.

Usage: run.py [-j JOBS] [-k FILTER] [--pg-url URL] [--modes 1,8] BINARY [SCENARIO...]
With --pg-url (a PostgreSQL server's URL, e.g. the MP_TEST_PG_URL that
tests/pg/pgtest.py provides), each scenario run gets a database of its own
on that server as its state backend instead of a SQLite file.
With --diy, the state lives in a file:// folder in Pulumi's DIY layout;
with --diy-modes 8, only the runs at --parallel 8 do (the debug tree's
run: --parallel 1 on SQLite and 8 on file://, their final states compared,
which checks both backends and both orders in two runs of a scenario, not
three); with --bucket-url s3://BUCKET?params or azblob://CONTAINER?params
(--s3-url is the same option), in that bucket or container (a key prefix
per run).
Standard library only (and psql for --pg-url).
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

STACK = "test"
PROJECT = "test"
PREFIX = "urn:pulumi:%s::%s::" % (STACK, PROJECT)
DP_ID = "11111111-1111-4111-8111-111111111111"
DEPLOY_CMDS = ("up", "update", "preview", "refresh", "destroy")
DEFAULT_CALL_OPS = ("create", "update", "delete", "read")
URN_FIELDS = ("parent", "deletedWith")
URN_LIST_FIELDS = ("dependencies", "replaceWith")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)


# One command's time limit: a bound for a hang, far above any command's
# normal length even on a busy machine (a test failing for time must be a
# hang, not load).
CMD_TIMEOUT = 300 * timeout_multiplier()


class ScenarioError(Exception):
    """A malformed scenario file."""


class Mismatch(Exception):
    """An expectation that did not hold."""


# ---------------------------------------------------------------- names


def default_names():
    n = {
        "STACK": PREFIX + "pulumi:pulumi:Stack::test-test",
        "DP": PREFIX + "pulumi:providers:test::default",
        "DPR": PREFIX + "pulumi:providers:random::default",
        "DPC": PREFIX + "pulumi:providers:command::default",
        "DPL": PREFIX + "pulumi:providers:local::default",
    }
    return n


def urn_of(names, name):
    """The URN a short name stands for."""
    if name.startswith("urn:"):
        return name
    if name in names:
        return names[name]
    return PREFIX + "test:index:Resource::" + name


def name_of(names, urn):
    """The short name of |urn| (the reverse of urn_of)."""
    if not urn:
        return urn
    for k, v in names.items():
        if v == urn:
            return k
    p = PREFIX + "test:index:Resource::"
    if urn.startswith(p) and "::" not in urn[len(p):]:
        return urn[len(p):]
    return urn


# ---------------------------------------------------------------- parsing


class Run:
    def __init__(self, line_no, argv):
        self.line_no = line_no
        self.argv = argv
        self.expect = []  # (key, value) in order

    def get(self, key, default=None):
        for k, v in self.expect:
            if k == key:
                return v
        return default

    def all(self, key):
        return [v for k, v in self.expect if k == key]


class Scenario:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.title = self.name
        self.programs = {}
        self.first_program = None
        self.names = default_names()
        self.actions = []  # ("run", Run) | ("world", lines) | ("import", text) | ("files", ...)
        self.env = {}
        self.parallel_modes = (1, 8)


def split_blocks(text):
    """Top-level blocks: (line_no, header, body_lines). A header is a
    non-indented, non-comment line; the body is the indented lines after it."""
    blocks = []
    cur = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip():
            if cur is not None:
                cur[2].append("")
            continue
        if line[0] not in " \t":
            if line.startswith("#"):
                continue
            cur = (i, line.strip(), [])
            blocks.append(cur)
        else:
            if cur is None:
                raise ScenarioError("line %d: indented line outside a block" % i)
            cur[2].append(line)
    return blocks


def dedent(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    ind = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return "\n".join(l[ind:] for l in lines) + ("\n" if lines else "")


def strip_comment(s):
    """Drops a trailing `  # comment` (two spaces before #) from a line."""
    m = re.search(r"\s{2,}#.*$", s)
    return s[: m.start()] if m else s


def parse_run_body(run, lines):
    """Expectation lines `key: value`; deeper-indented lines continue the
    previous key (one item per line for state/pending/calls)."""
    key_ind = None
    for raw in lines:
        if not raw.strip() or raw.strip().startswith("#"):
            continue
        ind = len(raw) - len(raw.lstrip())
        text = strip_comment(raw.strip())
        m = re.match(r"^([a-z][a-z0-9-]*):(?:\s+(.*))?$", text)
        if m and (key_ind is None or ind <= key_ind):
            key_ind = ind
            run.expect.append([m.group(1), [m.group(2)] if m.group(2) else []])
        elif run.expect and key_ind is not None and ind > key_ind:
            run.expect[-1][1].append(text)
        else:
            raise ScenarioError("run at line %d: cannot read '%s'" % (run.line_no, text))
    run.expect = [(k, v) for k, v in run.expect]


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    sc = Scenario(path)
    for line_no, header, body in split_blocks(text):
        word, _, rest = header.partition(" ")
        rest = rest.strip()
        if word == "title:":
            sc.title = rest
        elif word in ("note:", "source:", "maps:"):
            pass
        elif word == "names":
            for l in body:
                if l.strip():
                    k, _, v = l.strip().partition("=")
                    sc.names[k.strip()] = v.strip().replace("@PREFIX@", PREFIX)
        elif word == "env":
            for l in body:
                if l.strip():
                    k, _, v = l.strip().partition("=")
                    sc.env[k.strip()] = v.strip()
        elif word == "parallel:":
            sc.parallel_modes = tuple(int(x) for x in rest.split())
        elif word == "program":
            if not rest:
                raise ScenarioError("line %d: program needs a name" % line_no)
            sc.programs[rest] = dedent(body)
            if sc.first_program is None:
                sc.first_program = rest
        elif word == "world":
            sc.actions.append(("world", line_no, [l.strip() for l in body if l.strip()]))
        elif word == "file":
            sc.actions.append(("file", line_no, (rest, dedent(body))))
        elif word == "import":
            sc.actions.append(("import", line_no, (rest, dedent(body))))
        elif word == "run":
            r = Run(line_no, shlex.split(rest))
            parse_run_body(r, body)
            sc.actions.append(("run", line_no, r))
        else:
            raise ScenarioError("line %d: unknown block '%s'" % (line_no, word))
    if sc.first_program is None:
        raise ScenarioError("no program")
    return sc


# ---------------------------------------------------------------- steps


def parse_step_item(names, text):
    floating = text.startswith("~")
    parts = text.lstrip("~").split()
    if len(parts) != 2:
        raise ScenarioError("bad step '%s' (want: op name)" % text)
    op, name = parts
    if floating:
        return ("~" + op, urn_of(names, name))
    return (op, urn_of(names, name))


def parse_steps(names, text):
    """`a > {b | c} > d` -> [[a], [b, c], [d]]; `none` -> []."""
    text = " ".join(text.split())
    if text in ("none", ""):
        return []
    groups = []
    for part in text.split(" > "):
        part = part.strip()
        if part.startswith("{") and part.endswith("}"):
            items = [p.strip() for p in part[1:-1].split("|")]
        else:
            items = [part]
        groups.append([parse_step_item(names, i) for i in items if i])
    return groups


def fmt_step(names, s):
    return "%s %s" % (s[0], name_of(names, s[1]))


def label(seq):
    """[(op,urn)] -> [(op,urn,k)] with k = occurrence number."""
    seen = {}
    out = []
    for s in seq:
        k = seen.get(s, 0)
        seen[s] = k + 1
        out.append((s[0], s[1], k))
    return out


def unfloat(groups):
    return [[(s[0].lstrip("~"), s[1]) for s in g] for g in groups]


def check_total(groups, actual):
    """Actual must be the groups in order, any order inside a group;
    floating steps (`~op name`) may be anywhere."""
    floating = [(s[0][1:], s[1]) for g in groups for s in g if s[0].startswith("~")]
    groups = [[s for s in g if not s[0].startswith("~")] for g in groups]
    groups = [g for g in groups if g]
    rest = list(actual)
    for f in floating:
        if f not in rest:
            return False
        rest.remove(f)
    actual = rest
    i = 0
    for g in groups:
        chunk = actual[i : i + len(g)]
        if sorted(chunk) != sorted(g):
            return False
        i += len(g)
    return i == len(actual)


def check_partial(groups, chains, actual):
    """Same multiset; same-URN steps in expected group order; each chain's
    groups in order."""
    groups = unfloat(groups)
    chains = [unfloat(c) for c in chains]
    flat = [s for g in groups for s in g]
    if sorted(flat) != sorted(actual):
        return "the steps differ (as a multiset)"
    pos = {lab: i for i, lab in enumerate(label(actual))}
    lab_groups = []
    seen = {}
    for g in groups:
        lg = []
        for s in g:
            k = seen.get(s, 0)
            seen[s] = k + 1
            lg.append((s[0], s[1], k))
        lab_groups.append(lg)
    for gi, g in enumerate(lab_groups):
        for later in lab_groups[gi + 1 :]:
            for a in g:
                for b in later:
                    if a[1] == b[1] and pos[a] > pos[b]:
                        return "%s %s ran after %s (same resource)" % (a[0], a[1], b[0])
    for chain in chains:
        for gi, g in enumerate(chain):
            for later in chain[gi + 1 :]:
                for a in g:
                    for b in later:
                        pa = pos.get((a[0], a[1], 0))
                        pb = pos.get((b[0], b[1], 0))
                        if pa is None or pb is None:
                            return "order constraint names a missing step %s / %s" % (a, b)
                        if pa > pb:
                            return "%s %s must precede %s %s" % (a[0], a[1], b[0], b[1])
    return None


# ---------------------------------------------------------------- values


def is_secret(v):
    return isinstance(v, dict) and "4dabf18193072939515e22adb298388d" in v


class Ctx:
    """Per scenario-run matching context (id renaming at parallel > 1)."""

    def __init__(self, names, relax_ids):
        self.names = names
        self.relax_ids = relax_ids
        self.fwd = {}
        self.back = {}
        self.prev_state = {}  # urn -> resource (previous export)


def id_match(ctx, exp, act):
    if not ctx.relax_ids or not isinstance(exp, str) or not re.fullmatch(r"id-\d+", exp):
        return exp == act
    if not isinstance(act, str) or not re.fullmatch(r"id-\d+", act):
        return False
    if exp in ctx.fwd:
        return ctx.fwd[exp] == act
    if act in ctx.back:
        return ctx.back[act] == exp
    ctx.fwd[exp] = act
    ctx.back[act] = exp
    return True


def value_match(ctx, exp, act, subset=False):
    if exp == "<any>":
        return act is not None
    if exp == "<secret>":
        return is_secret(act)
    if exp == "<uuid>":
        return isinstance(act, str) and re.fullmatch(r"[0-9a-f-]{36}", act) is not None
    if isinstance(exp, str) and re.fullmatch(r"id-\d+", exp):
        return id_match(ctx, exp, act)
    if isinstance(exp, dict):
        if not isinstance(act, dict) or is_secret(act) and not is_secret(exp):
            return False
        if not subset and set(exp) != set(act):
            return False
        return all(k in act and value_match(ctx, v, act[k], subset) for k, v in exp.items())
    if isinstance(exp, list):
        return (
            isinstance(act, list)
            and len(exp) == len(act)
            and all(value_match(ctx, e, a, subset) for e, a in zip(exp, act))
        )
    if isinstance(exp, bool) or isinstance(act, bool):
        return exp is act
    return exp == act


def empty(v):
    return v is None or v is False or v == [] or v == {} or v == ""


def field_match(ctx, res, field, op, exp):
    act = res.get(field)
    names = ctx.names
    if exp is None:
        return empty(act)
    if field in ("modified", "created") and exp in ("unchanged", "changed"):
        prev = ctx.prev_state.get(res.get("urn"))
        if prev is None:
            return False
        same = prev.get(field) == act
        return same if exp == "unchanged" else not same
    if field == "provider":
        if not isinstance(act, str):
            return False
        urn, _, pid = act.rpartition("::")
        return urn == urn_of(names, exp)
    if field in URN_FIELDS:
        return act == urn_of(names, exp)
    if field in URN_LIST_FIELDS:
        if exp is None or exp == []:
            return not act
        return isinstance(act, list) and sorted(act) == sorted(urn_of(names, e) for e in exp)
    if field == "propertyDependencies":
        if not isinstance(act, dict):
            return empty(exp) and empty(act)
        want = {k: sorted(urn_of(names, u) for u in v) for k, v in exp.items()}
        got = {k: sorted(v) for k, v in act.items()}
        if op == "~=":
            return all(got.get(k) == v for k, v in want.items())
        return want == got
    if field == "id" and isinstance(exp, str) and not exp.startswith("<"):
        return id_match(ctx, exp, act)
    return value_match(ctx, exp, act, subset=(op == "~="))


FLAG_WORDS = (
    "delete", "protect", "external", "pendingReplacement", "taint",
    "retainOnDelete", "custom",
)


def parse_res_spec(names, text):
    """`name [field(=|~=)value | flag]...` -> (urn, [(field, op, value)])."""
    dec = json.JSONDecoder()
    m = re.match(r"\S+", text)
    name = m.group(0)
    i = m.end()
    checks = []
    while i < len(text):
        while i < len(text) and text[i] == " ":
            i += 1
        if i >= len(text):
            break
        m = re.compile(r"([A-Za-z_]+)(~=|=)?").match(text, i)
        if not m:
            raise ScenarioError("bad resource expectation near '%s'" % text[i:])
        field, op = m.group(1), m.group(2)
        i = m.end()
        if op is None:
            if field not in FLAG_WORDS:
                raise ScenarioError("'%s' is not a flag (write %s=value)" % (field, field))
            checks.append((field, "=", True))
            continue
        try:
            val, j = dec.raw_decode(text, i)
        except ValueError:
            m2 = re.compile(r"\S+").match(text, i)
            val, j = m2.group(0), m2.end()
        checks.append((field, op, val))
        i = j
    return urn_of(names, name), checks


def fmt_res(names, r):
    bits = [name_of(names, r.get("urn"))]
    for k in ("id", "delete", "pendingReplacement", "protect", "external"):
        if k in r and k != "urn":
            v = r[k]
            bits.append(k if v is True else "%s=%s" % (k, v if isinstance(v, str) else json.dumps(v)))
    for k in ("inputs", "outputs"):
        if r.get(k):
            bits.append("%s=%s" % (k, json.dumps(r[k], sort_keys=True, separators=(",", ":"))))
    return " ".join(bits)


# ---------------------------------------------------------------- executing


DIY = False  # --diy: every run's state in a file:// folder
DIY_MODES = ()  # --diy-modes: the runs at these --parallel modes on file://
BUCKET_URL = None  # --bucket-url (--s3-url): every run's state under a key prefix of its own


def pg_database(pg_url, sc, parallel):
    """A fresh database on |pg_url| for one run of |sc|: (name, URL)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg"))
    import pgtest

    name = "conf_%s_p%d_%s" % (re.sub(r"[^a-z0-9]", "_", sc.name.lower())[:30], parallel,
                               os.urandom(4).hex())
    return name, pgtest.createdb(pg_url, name)


class Env:
    def __init__(self, binary, sc, parallel, keep, pg_url=None):
        self.binary = binary
        self.sc = sc
        self.parallel = parallel
        self.tmp = tempfile.mkdtemp(prefix="mpconf-%s-p%d-" % (sc.name, parallel))
        self.keep = keep
        self.project = os.path.join(self.tmp, "project")
        self.world = os.path.join(self.tmp, "world")
        os.makedirs(self.project)
        os.makedirs(self.world)
        self.env = dict(os.environ)
        self.env.update(
            {
                "HOME": self.tmp,
                "PULUMI_CONFIG_PASSPHRASE": "test",
                "MINIPULUMI_VERIFY_WRITES": "1",
                "MINIPULUMI_BACKEND_URL": os.path.join(self.tmp, "state.db"),
                "MINIPULUMI_TEST_WORLD": self.world,
            }
        )
        self.env.pop("PULUMI_PARALLEL", None)
        self.pg_url, self.pg_db = pg_url, None
        if pg_url:
            self.pg_db, self.env["MINIPULUMI_BACKEND_URL"] = pg_database(pg_url, sc, parallel)
        elif BUCKET_URL:
            base, _, query = BUCKET_URL.partition("?")
            run = os.path.basename(self.tmp)
            self.env["MINIPULUMI_BACKEND_URL"] = "%s/%s%s" % (
                base.rstrip("/"), run, "?" + query if query else "")
        elif DIY or parallel in DIY_MODES:
            os.makedirs(os.path.join(self.tmp, "state"))
            self.env["MINIPULUMI_BACKEND_URL"] = "file://" + os.path.join(self.tmp, "state")
        for k, v in sc.env.items():
            self.env[k] = self.subst(v)
        self.program = None
        self.transcript = []
        self.broken = {}

    def subst(self, text):
        def rep(m):
            k = m.group(1)
            if k == "WORLD":
                return self.world
            if k == "TMP":
                return self.tmp
            if k == "PREFIX":
                return PREFIX
            if k == "DPID":
                return DP_ID
            if k == "DPREF":
                return self.sc.names["DP"] + "::" + DP_ID
            if k in self.sc.names or re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", k):
                return urn_of(self.sc.names, k)
            return m.group(0)

        return re.sub(r"@([A-Za-z][A-Za-z0-9_-]*)@", rep, text)

    def use_program(self, name):
        if name not in self.sc.programs:
            raise ScenarioError("unknown program '%s'" % name)
        body = self.subst(self.sc.programs[name])
        head = ""
        if not re.search(r"^name:", body, re.M):
            head += "name: %s\n" % PROJECT
        if not re.search(r"^runtime:", body, re.M):
            head += "runtime: yaml\n"
        with open(os.path.join(self.project, "Pulumi.yaml"), "w") as f:
            f.write(head + body)
        self.program = name

    def exec(self, argv, stdin=None, kill_after=None):
        cmd = [self.binary] + argv
        self.transcript.append("$ minipulumi " + " ".join(shlex.quote(a) for a in argv))
        if kill_after is None:
            p = subprocess.run(
                cmd, cwd=self.project, env=self.env, input=stdin,
                capture_output=True, text=True, timeout=CMD_TIMEOUT,
            )
            return p.returncode, p.stdout, p.stderr
        return self.exec_kill(cmd, kill_after)

    def exec_kill(self, cmd, kill_after):
        """Runs |cmd| and SIGKILLs it once calls.jsonl shows the call
        `op name` (an interrupted deployment)."""
        calls = os.path.join(self.world, "calls.jsonl")
        start = os.path.getsize(calls) if os.path.exists(calls) else 0
        op, name = kill_after.split()
        urn = urn_of(self.sc.names, name)
        out = open(os.path.join(self.tmp, "killed.out"), "w+")
        err = open(os.path.join(self.tmp, "killed.err"), "w+")
        p = subprocess.Popen(cmd, cwd=self.project, env=self.env, stdout=out, stderr=err, text=True)
        deadline = time.time() + CMD_TIMEOUT
        killed = False
        while p.poll() is None and time.time() < deadline:
            for c in read_calls(calls, start):
                if c.get("op") == op and c.get("urn") == urn and not c.get("preview"):
                    time.sleep(0.05)
                    p.send_signal(signal.SIGKILL)
                    killed = True
                    break
            if killed:
                break
            time.sleep(0.01)
        if p.poll() is None and not killed:
            p.kill()
        p.wait()
        out.seek(0)
        err.seek(0)
        o, e = out.read(), err.read()
        out.close()
        err.close()
        if not killed:
            e += "\n[runner] the process ended before the call '%s' appeared" % kill_after
            return -999, o, e
        return "killed", o, e

    def cleanup(self):
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
            if self.pg_db:
                import pgtest

                pgtest.dropdb(self.pg_url, self.pg_db)


def read_calls(path, start):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        f.seek(start)
        out = []
        for line in f:
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out


def parse_events(stdout, is_preview_cmd):
    """(steps, diagnostics) of the deployment (not its preview)."""
    steps, diags = [], []
    in_preview_phase = False
    events = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            events.append(json.loads(line))
        except ValueError:
            continue
    # events up to a preview summary belong to the preview
    if not is_preview_cmd and any(e.get("summaryEvent", {}).get("isPreview") for e in events):
        cut = max(i for i, e in enumerate(events) if e.get("summaryEvent", {}).get("isPreview"))
        events = events[cut + 1 :]
    # A step is a resourcePreEvent answered by a resOutputsEvent (done) or
    # a resOpFailedEvent (failed); a resOutputsEvent with no open pre-event
    # is an outputs registration (RegisterResourceOutputs), not a step.
    open_pre = {}
    for e in events:
        if "resourcePreEvent" in e:
            ev = e["resourcePreEvent"]
            if ev.get("planning") and not is_preview_cmd:
                continue
            m = ev["metadata"]
            k = (m.get("op"), m.get("urn"))
            open_pre[k] = open_pre.get(k, 0) + 1
        elif "resOutputsEvent" in e:
            ev = e["resOutputsEvent"]
            if ev.get("planning") and not is_preview_cmd:
                continue
            m = ev["metadata"]
            k = (m.get("op"), m.get("urn"))
            # A refresh's outputs event says what the read found (update,
            # same, delete), as Pulumi's do; the step is still the refresh.
            if open_pre.get(k, 0) == 0 and open_pre.get(("refresh", m.get("urn")), 0):
                k = ("refresh", m.get("urn"))
            if open_pre.get(k, 0) == 0:
                continue
            open_pre[k] -= 1
            steps.append(k)
        elif "resOpFailedEvent" in e:
            m = e["resOpFailedEvent"]["metadata"]
            k = (m.get("op"), m.get("urn"))
            if open_pre.get(k, 0) > 0:
                open_pre[k] -= 1
            steps.append((m.get("op") + "!", m.get("urn")))
        elif "diagnosticEvent" in e:
            diags.append(e["diagnosticEvent"])
    del in_preview_phase
    return steps, diags


def export_state(env):
    rc, out, err = env.exec(["stack", "export"])
    if rc != 0:
        raise Mismatch("stack export failed (exit %s): %s" % (rc, err.strip()))
    return json.loads(out)


def do_world(env, lines, last_ids):
    for l in lines:
        verb, _, rest = env.subst(l).partition(" ")
        path, _, data = rest.strip().partition(" ")
        if verb in ("break", "repair"):
            # the live object of resource <name> (its id in the last export):
            # break = its file becomes a directory, so Delete fails.
            rid = last_ids.get(urn_of(env.sc.names, path))
            if verb == "repair" and path in env.broken:
                rid = env.broken[path]
            if rid is None:
                raise ScenarioError("world %s: no resource '%s' in the last state" % (verb, path))
            full = os.path.join(env.world, rid + ".json")
            if verb == "break":
                env.broken[path] = rid
                if os.path.isdir(full):
                    continue
                if os.path.exists(full):
                    os.unlink(full)
                os.makedirs(full)
            else:
                shutil.rmtree(full, ignore_errors=True)
                if data:
                    with open(full, "w") as f:
                        f.write(data)
            continue
        full = os.path.join(env.world, path)
        if verb == "delete":
            if os.path.isdir(full):
                shutil.rmtree(full)
            elif os.path.exists(full):
                os.unlink(full)
        elif verb == "write":
            with open(full, "w") as f:
                f.write(data.strip())
        elif verb == "edit":
            with open(full) as f:
                cur = json.load(f)
            cur.update(json.loads(data))
            with open(full, "w") as f:
                json.dump(cur, f)
        elif verb == "mkdir":
            os.makedirs(full, exist_ok=True)
        else:
            raise ScenarioError("unknown world command '%s'" % verb)


def do_import(env, arg, text):
    doc = wrap_deployment(json.loads(env.subst(text)))
    argv = ["stack", "import"] + shlex.split(arg)
    return env.exec(argv, stdin=json.dumps(doc))


def wrap_deployment(doc):
    """A resource list or a bare DeploymentV3 -> an untyped deployment."""
    if isinstance(doc, list):
        doc = {"resources": doc}
    if "deployment" not in doc:
        dep = {"manifest": {"time": "2025-01-01T00:00:00Z", "magic": "", "version": ""}}
        dep.update(doc)
        doc = {"version": 3, "deployment": dep}
    return doc


def deploy_argv(env, argv):
    """The flags the runner adds to a deployment command."""
    out = list(argv)
    cmd = argv[0]
    if cmd not in DEPLOY_CMDS:
        return out
    out += ["--non-interactive", "--json"]
    if cmd == "preview":
        path = os.path.join(env.tmp, "preview-events.jsonl")
        if os.path.exists(path):
            os.unlink(path)
        out += ["--event-log", path]
    if cmd != "preview":
        out.append("--yes")
        if "--preview" not in argv:
            out.append("--skip-preview")
        else:
            out.remove("--preview")
    if not any(a in ("-p", "--parallel") or a.startswith("--parallel=") for a in argv):
        out += ["--parallel", str(env.parallel)]
    return out


def effective_parallel(env, argv):
    for i, a in enumerate(argv):
        if a in ("-p", "--parallel") and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith("--parallel="):
            return int(a.split("=", 1)[1])
    return env.parallel


def check_run(env, ctx, run, rc, out, err, state, calls, report):
    sc = env.sc
    names = sc.names
    is_preview = run.argv[0] == "preview"
    problems = []

    exp_exit = run.get("exit", ["ok"])[0]
    if exp_exit == "killed":
        pass
    elif exp_exit == "ok":
        if rc != 0:
            problems.append("exit: expected 0, got %s" % rc)
    elif exp_exit == "fail":
        if rc == 0:
            problems.append("exit: expected failure, got 0")
    elif str(rc) != exp_exit:
        problems.append("exit: expected %s, got %s" % (exp_exit, rc))

    steps, diags = (None, None)
    if run.argv[0] in DEPLOY_CMDS and rc != "killed":
        text = out
        if is_preview:
            # `preview --json` prints Pulumi's digest, which hides same and
            # replacement steps; the event log has every engine event.
            try:
                with open(os.path.join(env.tmp, "preview-events.jsonl")) as f:
                    text = f.read()
            except OSError:
                text = ""
        steps, diags = parse_events(text, is_preview)
        if steps is None:
            problems.append("cannot parse the JSON output")
            steps, diags = [], []

    exp_steps = run.get("steps")
    if exp_steps is not None and steps is not None:
        groups = parse_steps(names, " ".join(exp_steps))
        only = run.get("stepops")
        if only:
            only = " ".join(only).split()
            steps = [st for st in steps if st[0].rstrip("!") in only]
        chains = [parse_steps(names, " ".join(c)) for c in run.all("partial")]
        if effective_parallel(env, run.argv) <= 1:
            ok = check_total(groups, steps)
            why = None if ok else "not in the expected order"
            if ok:
                why = check_partial(groups, chains, steps)
        else:
            why = check_partial(groups, chains, steps)
        if why:
            problems.append("steps: " + why)
            report.append(side_by_side(
                [fmt_group(names, g) for g in groups],
                [fmt_step(names, s) for s in steps], "expected steps", "actual steps"))

    for d in run.all("diag") + run.all("no-diag"):
        pass
    for key in ("diag", "no-diag"):
        for spec in run.all(key):
            spec = " ".join(spec)
            m = re.match(r"^(error|warning|info|info#err|debug)(?:\s+(\S+))?:\s*(.*)$", spec)
            if not m:
                raise ScenarioError("bad diag '%s' (want: severity [name]: text)" % spec)
            sev, who, txt = m.group(1), m.group(2), m.group(3)
            txt = env.subst(txt).replace("\\n", "\n")
            found = any(
                d.get("severity") == sev
                and (who is None or d.get("urn") == urn_of(names, who))
                and txt in d.get("message", "")
                for d in diags or []
            )
            if key == "diag" and not found:
                problems.append("diag: no %s%s diagnostic containing %r" % (
                    sev, " on " + who if who else "", txt))
            if key == "no-diag" and found:
                problems.append("no-diag: unexpected %s diagnostic containing %r" % (sev, txt))
    if problems and diags:
        report.append("diagnostics:\n" + "\n".join(
            "  %s %s: %s" % (d.get("severity"), name_of(names, d.get("urn", "")) or "-",
                             d.get("message", "").strip().replace("\n", "\n    "))
            for d in diags))

    for spec in run.all("output"):
        txt = env.subst(" ".join(spec)).replace("\\n", "\n")
        if txt not in out + err:
            problems.append("output: %r not in stdout/stderr" % txt)

    exp_calls = run.get("calls")
    if exp_calls is not None:
        ops = run.get("callops")
        ops = " ".join(ops).split() if ops else DEFAULT_CALL_OPS
        items = " ".join(exp_calls).replace(",", " , ")
        want = []
        if items.strip() != "none":
            for it in " ".join(exp_calls).split(","):
                it = it.strip()
                if it:
                    op, _, nm = it.partition(" ")
                    want.append("%s %s" % (op, name_of(names, urn_of(names, nm.strip()))))
        got = ["%s %s" % (c["op"] + ("?" if c.get("preview") else ""), name_of(names, c.get("urn")))
               for c in calls if c.get("op") in ops and (not c.get("preview") or is_preview)]
        if sorted(want) != sorted(got):
            problems.append("calls differ")
            report.append(side_by_side(sorted(want), sorted(got), "expected calls", "actual calls"))

    if state is not None:
        dep = state.get("deployment", {})
        resources = dep.get("resources", []) or []
        exp_state = run.get("state")
        if exp_state is not None:
            specs = [] if exp_state == ["none"] else [
                parse_res_spec(names, env.subst(s)) for s in exp_state]
            ordered = env.parallel <= 1 and run.get("state-order") != ["any"]
            why = match_state(ctx, specs, resources, ordered=ordered)
            if why:
                problems.append("state: " + why)
                report.append(side_by_side(
                    [fmt_spec(names, u, c) for u, c in specs],
                    [fmt_res_like(names, r, specs[i][1] if i < len(specs) else None)
                     for i, r in enumerate(resources)],
                    "expected state", "actual state"))
        exp_pending = run.get("pending")
        if exp_pending is not None:
            want = [] if exp_pending == ["none"] else sorted(
                (urn_of(names, p.split()[0]), p.split()[1]) for p in exp_pending)
            got = sorted((p["resource"]["urn"], p["type"]) for p in dep.get("pending_operations", []) or [])
            if want != got:
                problems.append("pending operations differ")
                report.append(side_by_side(
                    ["%s %s" % (name_of(names, u), t) for u, t in want],
                    ["%s %s" % (name_of(names, u), t) for u, t in got],
                    "expected pending", "actual pending"))
        ctx.prev_state = {r["urn"]: r for r in resources if not r.get("delete")}
    return problems


def match_state(ctx, specs, resources, ordered):
    if len(specs) != len(resources):
        return "expected %d resources, got %d" % (len(specs), len(resources))
    if ordered:
        for i, ((urn, checks), r) in enumerate(zip(specs, resources)):
            why = res_match(ctx, urn, checks, r)
            if why:
                return "resource #%d: %s" % (i + 1, why)
        return None
    # unordered: match each spec with some unused resource
    used = set()
    for urn, checks in specs:
        cands = [i for i, r in enumerate(resources) if i not in used and r.get("urn") == urn]
        hit = None
        for i in cands:
            saved = (dict(ctx.fwd), dict(ctx.back))
            if res_match(ctx, urn, checks, resources[i]) is None:
                hit = i
                break
            ctx.fwd, ctx.back = saved
        if hit is None:
            if not cands:
                return "no resource %s" % name_of(ctx.names, urn)
            return "%s: %s" % (name_of(ctx.names, urn), res_match(ctx, urn, checks, resources[cands[0]]))
        used.add(hit)
    return None


def res_match(ctx, urn, checks, r):
    if r.get("urn") != urn:
        return "expected %s, got %s" % (name_of(ctx.names, urn), name_of(ctx.names, r.get("urn")))
    flags = {f for f, _, _ in checks}
    # the flags not mentioned must be off (delete copies are always explicit)
    for fl in ("delete", "pendingReplacement"):
        if fl not in flags and r.get(fl):
            return "%s: unexpected %s" % (name_of(ctx.names, urn), fl)
    for field, op, val in checks:
        if not field_match(ctx, r, field, op, val):
            return "%s: %s expected %s, got %s" % (
                name_of(ctx.names, urn), field, json.dumps(val), json.dumps(r.get(field)))
    return None


def fmt_val(v):
    return v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))


def fmt_spec(names, urn, checks):
    bits = [name_of(names, urn)]
    for f, o, v in checks:
        bits.append(f if v is True and f in FLAG_WORDS else "%s%s%s" % (f, o, fmt_val(v)))
    return " ".join(bits)


def fmt_res_like(names, r, checks):
    """|r| shown with the fields |checks| names (else the usual ones)."""
    if checks is None:
        return fmt_res(names, r)
    bits = [name_of(names, r.get("urn"))]
    for f, o, v in checks:
        a = r.get(f)
        if f in FLAG_WORDS and v is True:
            bits.append(f if a is True else "%s=%s" % (f, fmt_val(a)))
            continue
        if f == "provider" and isinstance(a, str):
            a = name_of(names, a.rpartition("::")[0])
        elif f in URN_FIELDS and isinstance(a, str):
            a = name_of(names, a)
        elif f in URN_LIST_FIELDS and isinstance(a, list):
            a = [name_of(names, u) for u in a]
        elif f == "propertyDependencies" and isinstance(a, dict):
            a = {k: [name_of(names, u) for u in l] for k, l in a.items()}
        if a is None and v is None:
            a = "null"
        bits.append("%s%s%s" % (f, o, fmt_val(a) if a is not None else "(absent)"))
    for fl in ("delete", "pendingReplacement"):
        if r.get(fl) and not any(c[0] == fl for c in checks):
            bits.append(fl)
    return " ".join(bits)


def fmt_group(names, g):
    if len(g) == 1:
        return fmt_step(names, g[0])
    return "{" + " | ".join(fmt_step(names, s) for s in g) + "}"


def side_by_side(left, right, lt, rt):
    w = max([len(lt)] + [len(x) for x in left]) + 2
    lines = ["  %-*s%s" % (w, lt, rt), "  %-*s%s" % (w, "-" * len(lt), "-" * len(rt))]
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        mark = " " if a == b else "*"
        lines.append("%s %-*s%s" % (mark, w, a, b))
    return "\n".join(lines)


def normalize_final(state, tmp):
    """The final state with what may differ between parallel runs removed."""
    if state is None:
        return None
    res = []
    dep = state.get("deployment", {})
    uuid = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    idn = re.compile(r"\bid-\d+\b")
    for r in dep.get("resources", []) or []:
        r = dict(r)
        r.pop("created", None)
        r.pop("modified", None)
        if r.get("type", "").startswith("random:"):
            # Random values differ from run to run by design.
            r.pop("id", None)
            r["outputs"] = sorted((r.get("outputs") or {}).keys())
        text = json.dumps(r, sort_keys=True).replace(tmp, "@TMP@")
        text = uuid.sub("<uuid>", text)
        text = idn.sub("id-N", text)
        text = re.sub(r'"ciphertext": "[^"]*"', '"ciphertext": "<c>"', text)
        res.append(text)
    pend = sorted(
        "%s %s" % (p["resource"]["urn"], p["type"]) for p in dep.get("pending_operations", []) or [])
    return sorted(res), pend


def run_scenario(binary, sc, parallel, keep, pg_url=None):
    env = Env(binary, sc, parallel, keep, pg_url)
    ctx = Ctx(sc.names, relax_ids=parallel > 1)
    failures = []
    state = None
    try:
        env.use_program(sc.first_program)
        rc, out, err = env.exec(["stack", "init", STACK])
        if rc != 0:
            raise Mismatch("stack init failed: " + err.strip())
        step_no = 0
        last_ids = {}
        for kind, line_no, payload in sc.actions:
            if state is not None:
                for r in state.get("deployment", {}).get("resources", []) or []:
                    if not r.get("delete") and r.get("id"):
                        last_ids[r["urn"]] = r["id"]
            if kind == "world":
                do_world(env, payload, last_ids)
                continue
            if kind == "file":
                arg, text = payload
                fname, _, mode = arg.partition(" ")
                text = env.subst(text)
                if mode.strip() == "deployment":
                    text = json.dumps(wrap_deployment(json.loads(text)))
                path = os.path.join(env.tmp, fname)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
                continue
            if kind == "import":
                arg, text = payload
                rc, out, err = do_import(env, arg, text)
                if rc != 0 and "--expect-fail" not in arg:
                    raise Mismatch("line %d: stack import failed (exit %s): %s" % (line_no, rc, err.strip()))
                state = export_state(env)
                ctx.prev_state = {r["urn"]: r for r in state["deployment"].get("resources", []) or []}
                continue
            run = payload
            step_no += 1
            prog = run.get("program")
            if prog:
                env.use_program(prog[0])
            argv = [env.subst(a) for a in run.argv]
            calls_path = os.path.join(env.world, "calls.jsonl")
            start = os.path.getsize(calls_path) if os.path.exists(calls_path) else 0
            kill = run.get("kill-after")
            rc, out, err = env.exec(deploy_argv(env, argv), kill_after=" ".join(kill) if kill else None)
            calls = read_calls(calls_path, start)
            cur = None
            if argv[0] in DEPLOY_CMDS or run.get("state") is not None or run.get("pending") is not None:
                cur = export_state(env)
                state = cur
            report = []
            problems = check_run(env, ctx, run, rc, out, err, cur, calls, report)
            if rc not in (0, "killed") and not problems and run.get("exit", ["ok"])[0] == "ok":
                problems.append("exit %s" % rc)
            if problems:
                head = "run #%d (line %d) `minipulumi %s` at %s" % (
                    step_no, line_no, " ".join(argv), mode_label(parallel))
                body = "\n".join("  - " + p for p in problems)
                extra = "\n".join(report)
                tail = ""
                if err.strip():
                    tail = "\n  stderr: " + err.strip()[-1500:].replace("\n", "\n    ")
                failures.append(head + "\n" + body + ("\n" + extra if extra else "") + tail)
                if argv[0] != "preview":
                    break  # later runs depend on this one (a preview changes nothing)
    except Mismatch as e:
        failures.append(str(e))
    except subprocess.TimeoutExpired as e:
        failures.append("timeout: %s" % e)
    finally:
        env.cleanup()
    return failures, normalize_final(state, env.tmp)


def mode_label(p):
    """`--parallel N`, and its backend where --diy-modes mixes two."""
    if DIY_MODES and not DIY:
        return "--parallel %d (%s)" % (p, "file://" if p in DIY_MODES else "SQLite")
    return "--parallel %d" % p


def run_one(binary, path, keep, pg_url=None, modes=None):
    try:
        sc = parse(path)
    except (ScenarioError, OSError, ValueError) as e:
        return os.path.basename(path), ["scenario error: %s" % e]
    if modes:
        sc.parallel_modes = tuple(p for p in sc.parallel_modes if p in modes) or sc.parallel_modes[-1:]
    failures = []
    finals = {}
    try:
        for p in sc.parallel_modes:
            f, final = run_scenario(binary, sc, p, keep, pg_url)
            failures += f
            finals[p] = final
    except ScenarioError as e:
        return sc.name, ["scenario error: %s" % e]
    if not failures and len(finals) > 1:
        vals = list(finals.values())
        if any(v != vals[0] for v in vals[1:]):
            a, b = vals[0], vals[-1]
            failures.append("the final state at %s differs from %s\n%s" % (
                mode_label(sc.parallel_modes[-1]), mode_label(sc.parallel_modes[0]),
                side_by_side(a[0] + a[1], b[0] + b[1], "p%d" % sc.parallel_modes[0],
                             "p%d" % sc.parallel_modes[-1])))
    return sc.name, failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("binary")
    ap.add_argument("paths", nargs="*")
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 2))
    ap.add_argument("-k", "--filter", default=None, help="only scenarios whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directories")
    ap.add_argument("--pg-url", default=None,
                    help="run on this PostgreSQL server, a database per scenario run")
    ap.add_argument("--diy", action="store_true",
                    help="state in a file:// folder (Pulumi's DIY layout)")
    ap.add_argument("--diy-modes", default=None,
                    help="only the runs at these --parallel modes in a file:// folder, "
                         "e.g. 8 (the others on SQLite)")
    ap.add_argument("--bucket-url", "--s3-url", dest="bucket_url", default=None,
                    help="state in this bucket (s3://BUCKET?params, e.g. "
                         "MP_TEST_S3_URL, or azblob://CONTAINER?params, e.g. "
                         "MP_TEST_AZ_URL), a key prefix per scenario run")
    ap.add_argument("--modes", default=None,
                    help="only these --parallel modes of each scenario, e.g. 8 (default: all)")
    a = ap.parse_args()
    global DIY, DIY_MODES, BUCKET_URL
    DIY = a.diy
    if a.diy_modes:
        if a.pg_url or a.bucket_url:
            ap.error("--diy-modes mixes SQLite and file://: not with --pg-url or --bucket-url")
        DIY_MODES = tuple(int(m) for m in a.diy_modes.split(","))
    BUCKET_URL = a.bucket_url
    binary = os.path.abspath(a.binary)
    here = os.path.dirname(os.path.abspath(__file__))
    paths = a.paths or [os.path.join(here, "scenarios")]
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".scn"))
        else:
            files.append(p)
    if a.filter:
        files = [f for f in files if a.filter in os.path.basename(f)]
    if not os.access(binary, os.X_OK):
        print("conformance: binary '%s' not found or not executable" % binary)
        return 2
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        modes = tuple(int(m) for m in a.modes.split(",")) if a.modes else None
        futs = [pool.submit(run_one, binary, f, a.keep, a.pg_url, modes) for f in files]
        for fut in futs:
            name, failures = fut.result()
            if failures:
                failed += 1
                print("FAIL %s" % name)
                for f in failures:
                    print("    " + f.replace("\n", "\n    "))
            else:
                passed += 1
                print("ok   %s" % name)
            sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
