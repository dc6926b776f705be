#!/usr/bin/env python3
"""Runs a command against a private S3-compatible server (s3rver, pinned by
tests/s3/package-lock.json) on 127.0.0.1: a free port, its data in a fresh
folder, a bucket `state`, and stopped and removed at the end whatever
happens.

    s3test.py run [--dir DIR] -- CMD...

Every request passes through sigv4_proxy.py, which checks its signature as
S3 does (s3rver does not); a badly signed one fails the run.

CMD gets MP_TEST_S3_URL (s3://state?endpoint=...&s3ForcePathStyle=true&
region=us-east-1), MP_TEST_S3_ENDPOINT (http://127.0.0.1:PORT),
MP_TEST_S3_DATA (the server's data folder: objects are files under
DATA/state/), MP_TEST_S3_REQUESTS (a file with a line "METHOD PATH" per
request answered) and the server's credentials in AWS_ACCESS_KEY_ID and
AWS_SECRET_ACCESS_KEY; "@S3_URL@" in CMD's arguments becomes that URL.
Exits 77 (skipped) only when the server's package
is not installed (./scripts/npm-deps.sh tests/s3)."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sigv4_proxy  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
S3RVER = os.path.join(HERE, "node_modules", "s3rver", "bin", "s3rver.js")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(data, log):
    """Starts the server; returns (process, port) once it answers."""
    for _ in range(5):
        port = free_port()
        proc = subprocess.Popen(
            ["node", S3RVER, "-d", data, "-a", "127.0.0.1", "-p", str(port),
             "--configure-bucket", "state"],
            stdout=log, stderr=log, start_new_session=True)
        deadline = time.time() + 60
        while time.time() < deadline and proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                if os.path.isdir(os.path.join(data, "state")):
                    return proc, port
            except OSError:
                pass
            time.sleep(0.1)
        stop(proc)
    raise SystemExit("s3test: the S3 server did not start; see the log")


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def main():
    args = sys.argv[1:]
    if not args or args[0] != "run" or "--" not in args:
        sys.exit(__doc__)
    cmd = args[args.index("--") + 1:]
    opts = args[1:args.index("--")]
    keep = opts[opts.index("--dir") + 1] if "--dir" in opts else None
    if not os.path.exists(S3RVER):
        print("s3test: s3rver is not installed; run ./scripts/npm-deps.sh "
              "tests/s3", file=sys.stderr)
        sys.exit(77)
    top = tempfile.mkdtemp(prefix="mp-s3-")
    data = os.path.join(top, "data")
    os.mkdir(data)
    logpath = os.path.join(top, "server.log")
    rc = 1
    with open(logpath, "w") as log:
        proc, port = start(data, log)
        requests = os.path.join(top, "requests.log")
        connections = os.path.join(top, "connections.log")
        open(connections, "w").close()
        proxy = sigv4_proxy.Proxy(port, "S3RVER", log, requests, connections)
        try:
            # every request goes through the proxy that checks its SigV4
            endpoint = "http://127.0.0.1:%d" % proxy.port
            env = dict(os.environ)
            env.update({
                "MP_TEST_S3_ENDPOINT": endpoint,
                "MP_TEST_S3_DATA": data,
                "MP_TEST_S3_REQUESTS": requests,
                "MP_TEST_S3_CONNECTIONS": connections,
                "MP_TEST_S3_URL": "s3://state?endpoint=%s&s3ForcePathStyle="
                                  "true&region=us-east-1" % endpoint,
                "AWS_ACCESS_KEY_ID": "S3RVER",
                "AWS_SECRET_ACCESS_KEY": "S3RVER",
            })
            for k in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                      "AWS_DEFAULT_REGION"):
                env.pop(k, None)
            cmd = [a.replace("@S3_URL@", env["MP_TEST_S3_URL"]) for a in cmd]
            rc = subprocess.call(cmd, env=env)
            print("s3test: %d requests signed right, %d not" % (proxy.good, proxy.bad))
            if proxy.bad and rc == 0:
                print("s3test: badly signed requests (see the server log)")
                rc = 1
        finally:
            proxy.stop()
            stop(proc)
    if rc != 0 and keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(logpath, os.path.join(keep, "server.log"))
    shutil.rmtree(top, ignore_errors=True)
    sys.exit(rc)


if __name__ == "__main__":
    main()
