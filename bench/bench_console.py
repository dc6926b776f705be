#!/usr/bin/env python3
"""The console's cost for a large stack: for each size, a SQLite stack of
that many `test` resources (a third of them children of another, each with
a dependency on the one before) is written with `stack import`, then
`minipulumi console` serves it, and the stack page, its JSON and its graph
page are fetched --repeat times each. Prints the median time per page and
the console's peak memory (VmHWM; Graphviz's `dot`, a child process, is
not counted in it). On demand only, never in tests:

    python3 bench/bench_console.py build [--sizes 1000,10000] [--repeat 5]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402


def checkpoint(n):
    stack = "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
    prov = "urn:pulumi:dev::proj::pulumi:providers:test::default"
    res = [{"urn": stack, "type": "pulumi:pulumi:Stack", "custom": False},
           {"urn": prov, "type": "pulumi:providers:test", "custom": True,
            "id": "p1", "parent": stack}]
    for i in range(n):
        parent = stack
        typ = "test:index:Resource"
        if i % 3 == 2:
            parent = "urn:pulumi:dev::proj::test:index:Resource::r%d" % (i - 1)
            typ = "test:index:Resource$test:index:Resource"
        deps = [] if i == 0 else [res[-1]["urn"]]
        res.append({"urn": "urn:pulumi:dev::proj::%s::r%d" % (typ, i),
                    "type": "test:index:Resource", "custom": True,
                    "id": "id-%d" % i, "parent": parent,
                    "provider": prov + "::p1", "dependencies": deps,
                    "inputs": {"v": i, "s": "value %d" % i},
                    "outputs": {"v": i, "s": "value %d" % i}})
    return {"version": 3, "deployment": {"resources": res}}


def fetch(url, cookie, want=None):
    req = urllib.request.Request(url, headers={"Cookie": cookie})
    t0 = time.monotonic()
    with urllib.request.urlopen(req, timeout=600) as r:
        body = r.read()
    took = time.monotonic() - t0
    if want is not None and want not in body:
        raise SystemExit("%s lacks %r" % (url, want))
    return took


def peak_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    binary = benchlib.binary_of(a.build)
    work = tempfile.mkdtemp(prefix="mp-bench-console.")
    rows = []
    try:
        for n in [int(s) for s in a.sizes.split(",")]:
            st = benchlib.Stack(binary, work, "name: proj\nruntime: yaml\n")
            path = os.path.join(st.root, "cp.json")
            with open(path, "w") as f:
                json.dump(checkpoint(n), f)
            st.run(["stack", "import", "--file", path])
            out = os.path.join(st.root, "console.out")
            p = subprocess.Popen(
                [binary, "--backend", st.backend, "console"], env=st.env,
                stdout=open(out, "w"), stderr=subprocess.DEVNULL)
            url = None
            for _ in range(600):
                text = open(out).read()
                if "http://" in text:
                    url = text.split()[text.split().index("at") + 1]
                    break
                time.sleep(0.1)
            if url is None:
                p.kill()
                raise SystemExit("the console did not start")
            parts = urllib.parse.urlsplit(url)
            token = urllib.parse.parse_qs(parts.query)["token"][0]
            cookie = "minipulumi-console-%d=%s" % (parts.port, token)
            base = "http://%s" % parts.netloc
            page = [fetch(base + "/stack/proj/dev", cookie)
                    for _ in range(a.repeat)]
            api = [fetch(base + "/api/stack/proj/dev", cookie)
                   for _ in range(a.repeat)]
            graph = [fetch(base + "/stack/proj/dev/graph", cookie, b"<svg")
                     for _ in range(a.repeat)]
            mem = peak_mb(p.pid)
            p.send_signal(2)
            p.wait()
            rows.append((n, statistics.median(page), statistics.median(api),
                         statistics.median(graph), mem))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| resources | stack page | /api/stack | graph page | "
          "console peak RSS |")
    print("| --- | --- | --- | --- | --- |")
    for n, pg, ap_, gr, mem in rows:
        print("| %d | %.0f ms | %.0f ms | %.0f ms | %.0f MB |" % (
            n, pg * 1000, ap_ * 1000, gr * 1000, mem))


if __name__ == "__main__":
    main()
