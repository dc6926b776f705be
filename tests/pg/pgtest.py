#!/usr/bin/env python3
"""A private PostgreSQL server for the tests (issue 14).

    pgtest.py run --dir DIR [--durable] -- CMD ARG...

initdb's a fresh cluster in a fresh temporary folder (under /tmp, or
$TMPDIR when the server's user can reach it), starts it on a free port of
127.0.0.1 with its unix socket in that folder, runs CMD with

    MP_TEST_PG_URL    postgresql://mp:<password>@127.0.0.1:<port>/postgres?sslmode=disable
    MP_TEST_PG_PASSWORD  the password (tests check it never leaks)
    MP_TEST_PG_BIN    the server's bin folder (psql, createdb, ...)

(an argument @PG_URL@ of CMD is replaced by that URL too), and stops the
server when CMD ends, whatever happened (also on SIGTERM
and SIGINT, as meson sends on a timeout). The temporary folder is removed
in every case; when CMD failed, the server log is copied to DIR/server.log
(DIR is typically under the build folder). Exits with CMD's status.

PostgreSQL refuses to run as root: as root, the server runs as the
unprivileged user `nobody`. That user must reach the cluster's folder,
which a build folder under a private parent (a clone in /root, a
`mktemp -d` folder: mode 700) does not allow; hence the cluster never
lives under DIR. Without Debian's server binaries
(/usr/lib/postgresql/*/bin/initdb) the command is skipped (exit 77, with
the reason); scripts/setup.sh installs them, so CI always runs.

--durable keeps fsync and synchronous commit on (benchmarks); the tests
turn them off, as they kill clients, never the server.

Other runners import this module for createdb()/dropdb()/psql().
"""
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

SKIP = 77
PASSWORD = "mp-test-Pw-7f3a9c"
USER = "mp"


def find_bin():
    """The newest installed server's bin folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if
                   p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reachable_tmp():
    """A temporary folder's parent that `nobody` can reach: $TMPDIR when
    every folder on its path is searchable by others, else /tmp."""
    cand = tempfile.gettempdir()
    path = os.path.abspath(cand)
    while True:
        try:
            if not os.stat(path).st_mode & 0o001:
                return "/tmp"
        except OSError:
            return "/tmp"
        if path == "/":
            return cand
        path = os.path.dirname(path)


class Server:
    def __init__(self, bindir, durable=False):
        self.bindir = bindir
        # MP_PGTEST_TAG names a caller's clusters apart from those of the
        # tests running beside it (private_parent.py counts its own).
        prefix = "mp-pg-" + os.environ.get("MP_PGTEST_TAG", "")
        self.root = tempfile.mkdtemp(prefix=prefix, dir=reachable_tmp())
        self.data = os.path.join(self.root, "data")
        self.log = os.path.join(self.root, "server.log")
        self.durable = durable
        self.port = None
        self.runas = []
        self.started = False

    def _as_server(self, argv, **kw):
        return subprocess.run(self.runas + argv, **kw)

    def _own(self):
        """As root, the cluster belongs to `nobody`, which must be able to
        reach the folder; otherwise we run as ourselves."""
        if os.geteuid() != 0:
            return
        nobody = pwd.getpwnam("nobody")
        os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
        self.runas = ["runuser", "-u", "nobody", "--"]
        if self._as_server(["test", "-w", self.root]).returncode != 0:
            raise SystemExit("pgtest: user nobody cannot write %s (a parent "
                             "folder is not searchable); set TMPDIR to a "
                             "folder others can reach" % self.root)

    def start(self):
        self._own()
        pwfile = os.path.join(self.root, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if self.runas:
            nobody = pwd.getpwnam("nobody")
            os.chown(pwfile, nobody.pw_uid, nobody.pw_gid)
        p = self._as_server(
            [os.path.join(self.bindir, "initdb"), "-D", self.data, "-U", USER,
             "--pwfile", pwfile, "-A", "scram-sha-256", "-E", "UTF8",
             "--locale", "C.UTF-8", "--no-sync"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        os.unlink(pwfile)
        if p.returncode != 0:
            raise SystemExit("pgtest: initdb failed:\n" +
                             p.stdout.decode(errors="replace"))
        opts = ["-c listen_addresses=127.0.0.1", "-k " + self.root,
                "-c shared_buffers=16MB", "-c max_connections=200"]
        if not self.durable:
            opts += ["-c fsync=off", "-c synchronous_commit=off",
                     "-c full_page_writes=off"]
        for attempt in range(5):
            self.port = free_port()
            p = self._as_server(
                [os.path.join(self.bindir, "pg_ctl"), "-D", self.data, "-l",
                 self.log, "-w", "-t", "60", "-o",
                 " ".join(opts + ["-p %d" % self.port]), "start"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if p.returncode == 0:
                self.started = True
                return
            time.sleep(0.2)  # the port was taken meanwhile: another one
        raise SystemExit("pgtest: the server did not start:\n" +
                         p.stdout.decode(errors="replace") + tail(self.log))

    def stop(self):
        if not self.started:
            return
        self._as_server([os.path.join(self.bindir, "pg_ctl"), "-D", self.data,
                         "-m", "immediate", "-w", "stop"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.started = False

    def url(self, db="postgres"):
        return "postgresql://%s:%s@127.0.0.1:%d/%s?sslmode=disable" % (
            USER, PASSWORD, self.port, db)


def tail(path, n=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-n:])
    except OSError:
        return ""


def keep_log(log, folder):
    """Copies the server |log| into |folder| (created); returns the copy's
    path, or None when there is no folder or the copy failed."""
    if not folder:
        return None
    try:
        os.makedirs(folder, exist_ok=True)
        dest = os.path.join(folder, "server.log")
        shutil.copyfile(log, dest)
        return dest
    except OSError:
        return None


# ---------------------------------------------------------------- helpers

def with_db(url, db):
    """|url| naming database |db| instead."""
    u = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + db, u.query,
                                    u.fragment))


def psql(url, sql, check=True):
    """Runs |sql| with psql on |url|; returns stdout (tuples only)."""
    bindir = os.environ.get("MP_TEST_PG_BIN") or find_bin()
    p = subprocess.run([os.path.join(bindir, "psql"), "-X", "-q", "-A", "-t",
                        "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120 * timeout_multiplier())
    if check and p.returncode != 0:
        raise RuntimeError("psql %r: %s" % (sql, p.stderr.decode(
            errors="replace").strip()))
    return p.stdout.decode(errors="replace")


def createdb(admin_url, name, template=None):
    """Creates database |name| (a fresh copy of |template| if given) and
    returns its URL."""
    sql = 'CREATE DATABASE "%s"' % name
    if template:
        sql += ' TEMPLATE "%s"' % template
    psql(admin_url, sql + " STRATEGY FILE_COPY")
    return with_db(admin_url, name)


def dropdb(admin_url, name):
    psql(admin_url, 'DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % name,
         check=False)


# ---------------------------------------------------------------- main

def main(argv):
    if len(argv) < 4 or argv[1] != "run" or "--" not in argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    cut = argv.index("--")
    opts, cmd = argv[2:cut], argv[cut + 1:]
    durable = "--durable" in opts
    keep = opts[opts.index("--dir") + 1] if "--dir" in opts else None
    bindir = find_bin()
    if bindir is None:
        print("SKIP: no PostgreSQL server binaries "
              "(/usr/lib/postgresql/*/bin/initdb); install Debian's "
              "`postgresql` package (scripts/setup.sh does)")
        return SKIP
    server = Server(bindir, durable)

    def on_signal(sig, frame):
        raise KeyboardInterrupt("signal %d" % sig)

    signal.signal(signal.SIGTERM, on_signal)
    status = 1
    try:
        server.start()
        env = dict(os.environ)
        env["MP_TEST_PG_URL"] = server.url()
        env["MP_TEST_PG_PASSWORD"] = PASSWORD
        env["MP_TEST_PG_BIN"] = bindir
        cmd = [a.replace("@PG_URL@", server.url()) for a in cmd]
        status = subprocess.run(cmd, env=env).returncode
    except KeyboardInterrupt as e:
        print("pgtest: stopped (%s)" % e, file=sys.stderr)
    finally:
        server.stop()
        if status != 0:
            kept = keep_log(server.log, keep)
            print("pgtest: the server log%s:" % (
                " is kept in " + kept if kept else ""), file=sys.stderr)
            print(tail(server.log, 15), file=sys.stderr)
        shutil.rmtree(server.root, ignore_errors=True)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
