#!/usr/bin/env python3
"""Runs a command against Microsoft's Azure Storage emulator (Azurite's
blob service, pinned by tests/azblob/package-lock.json) on 127.0.0.1: a
free port, its data in a fresh folder, a container `state`, and stopped
and removed at the end whatever happens.

    aztest.py run [--dir DIR] -- CMD...
    aztest.py upload FOLDER PREFIX    (within run: FOLDER's files as blobs)

Azurite checks every request's Shared Key signature as Azure does.

CMD gets MP_TEST_AZ_URL (azblob://state?domain=127.0.0.1:PORT&protocol=
http), MP_TEST_AZ_DOMAIN (127.0.0.1:PORT), the emulator's account in
AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY (every other AZURE_STORAGE_*
variable unset) and an account SAS token for it in MP_TEST_AZ_SAS;
"@AZ_URL@" in CMD's arguments becomes that URL. Exits 77
(skipped) only when the emulator's package is not installed
(./scripts/npm-deps.sh tests/azblob)."""
import base64
import email.utils
import hashlib
import hmac
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
AZURITE = os.path.join(HERE, "node_modules", "azurite", "dist", "src", "blob",
                       "main.js")
# Azurite's well-known development account (public, in Microsoft's docs)
ACCOUNT = "devstoreaccount1"
KEY = ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
       "K1SZFPTOtr/KBHBeksoGMGw==")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def signed(method, url, path, query, body=None, xms=None):
    """A request with Azure's Shared Key authorization: |path| as sent,
    |query| decoded, |xms| more x-ms-* headers."""
    date = email.utils.formatdate(usegmt=True)
    headers = {"x-ms-date": date, "x-ms-version": "2021-08-06"}
    headers.update(xms or {})
    canon_headers = "".join("%s:%s\n" % (k, headers[k]) for k in sorted(headers))
    canon_res = "/%s%s" % (ACCOUNT, path) + "".join(
        "\n%s:%s" % (k, v) for k, v in sorted(query.items()))
    length, ctype = "", ""
    if body:
        length, ctype = str(len(body)), "application/octet-stream"
        headers["Content-Type"] = ctype
    to_sign = "%s\n\n\n%s\n\n%s\n\n\n\n\n\n\n%s%s" % (
        method, length, ctype, canon_headers, canon_res)
    sig = base64.b64encode(hmac.new(base64.b64decode(KEY), to_sign.encode(),
                                    hashlib.sha256).digest()).decode()
    headers["Authorization"] = "SharedKey %s:%s" % (ACCOUNT, sig)
    return urllib.request.Request(url, data=body, method=method, headers=headers)


def upload(domain, folder, prefix):
    """Every file under |folder| as a block blob PREFIX/<its path> of the
    container `state` (a DIY folder written by hand, put in a container as
    Pulumi's CLI would have written it)."""
    for top, _, files in os.walk(folder):
        for name in files:
            rel = os.path.relpath(os.path.join(top, name), folder)
            path = "/%s/state/%s/%s" % (ACCOUNT, prefix, urllib.parse.quote(rel))
            with open(os.path.join(top, name), "rb") as f:
                body = f.read()
            req = signed("PUT", "http://%s%s" % (domain, path), path, {}, body,
                         {"x-ms-blob-type": "BlockBlob"})
            with urllib.request.urlopen(req, timeout=60) as r:
                if r.status != 201:
                    raise SystemExit("aztest: uploading %s: %d" % (rel, r.status))


def account_sas():
    """An account SAS for the blob service (read, write, delete, list, add,
    create on the service, containers and blobs), valid for a day."""
    expiry = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400))
    version = "2021-08-06"
    to_sign = "\n".join([ACCOUNT, "rwdlac", "b", "sco", "", expiry, "", "",
                         version, "", ""])
    sig = base64.b64encode(hmac.new(base64.b64decode(KEY), to_sign.encode(),
                                    hashlib.sha256).digest()).decode()
    q = urllib.parse.quote
    return "sv=%s&ss=b&srt=sco&sp=rwdlac&se=%s&sig=%s" % (
        version, q(expiry, safe=""), q(sig, safe=""))


def create_container(port, name):
    path = "/%s/%s" % (ACCOUNT, name)
    url = "http://127.0.0.1:%d%s?restype=container" % (port, path)
    req = signed("PUT", url, path, {"restype": "container"})
    with urllib.request.urlopen(req, timeout=30) as r:
        if r.status != 201:
            raise SystemExit("aztest: creating the container: %d" % r.status)


def start(data, log):
    """Starts the emulator; returns (process, port) once it answers."""
    for _ in range(5):
        port = free_port()
        proc = subprocess.Popen(
            ["node", AZURITE, "--blobHost", "127.0.0.1", "--blobPort",
             str(port), "--location", data, "--silent",
             "--disableTelemetry"],
            stdout=log, stderr=log, start_new_session=True)
        deadline = time.time() + 90
        while time.time() < deadline and proc.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                create_container(port, "state")
                return proc, port
            except OSError:
                pass
            time.sleep(0.2)
        stop(proc)
    raise SystemExit("aztest: the emulator did not start; see the log")


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
    if args[:1] == ["upload"] and len(args) == 3:
        upload(os.environ["MP_TEST_AZ_DOMAIN"], args[1], args[2])
        return
    if not args or args[0] != "run" or "--" not in args:
        sys.exit(__doc__)
    cmd = args[args.index("--") + 1:]
    opts = args[1:args.index("--")]
    keep = opts[opts.index("--dir") + 1] if "--dir" in opts else None
    if not os.path.exists(AZURITE):
        print("aztest: azurite is not installed; run ./scripts/npm-deps.sh "
              "tests/azblob", file=sys.stderr)
        sys.exit(77)
    top = tempfile.mkdtemp(prefix="mp-az-")
    data = os.path.join(top, "data")
    os.mkdir(data)
    logpath = os.path.join(top, "server.log")
    rc = 1
    with open(logpath, "w") as log:
        proc, port = start(data, log)
        try:
            domain = "127.0.0.1:%d" % port
            env = {k: v for k, v in os.environ.items()
                   if not k.startswith("AZURE_STORAGE")}
            env.update({
                "MP_TEST_AZ_DOMAIN": domain,
                "MP_TEST_AZ_URL": "azblob://state?domain=%s&protocol=http" % domain,
                "AZURE_STORAGE_ACCOUNT": ACCOUNT,
                "AZURE_STORAGE_KEY": KEY,
                "MP_TEST_AZ_SAS": account_sas(),
            })
            cmd = [a.replace("@AZ_URL@", env["MP_TEST_AZ_URL"]) for a in cmd]
            rc = subprocess.call(cmd, env=env)
        finally:
            stop(proc)
    if rc != 0 and keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(logpath, os.path.join(keep, "server.log"))
    shutil.rmtree(top, ignore_errors=True)
    sys.exit(rc)


if __name__ == "__main__":
    main()
