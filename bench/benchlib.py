"""Helpers the benchmark scripts share: a private project and stack for
the `test` provider, and one timed minipulumi command with its CPU time
and peak memory (from wait4's rusage)."""
import os
import subprocess
import tempfile
import time


def binary_of(build):
    """The minipulumi binary of a build tree."""
    return os.path.abspath(os.path.join(build, "src", "cli", "minipulumi"))


class Stack:
    """A temp folder with proj/ (a Pulumi YAML project), world/ (the test
    provider's world; a fresh folder under |world_dir| when given) and,
    unless |backend| is given, a SQLite store; the stack `dev` is created
    for the program |text|."""

    def __init__(self, binary, work, text, backend=None, world_dir=None,
                 extra_env=None):
        self.binary = binary
        self.root = tempfile.mkdtemp(dir=work)
        self.proj = os.path.join(self.root, "proj")
        os.makedirs(self.proj)
        self.world = (tempfile.mkdtemp(dir=world_dir) if world_dir
                      else os.path.join(self.root, "world"))
        os.makedirs(self.world, exist_ok=True)
        self.db = os.path.join(self.root, "state.db")
        self.backend = backend or self.db
        self.env = dict(os.environ)
        self.env.update({"PULUMI_CONFIG_PASSPHRASE": "bench",
                         "HOME": self.root,
                         "MINIPULUMI_TEST_WORLD": self.world})
        for k in ("MINIPULUMI_BACKEND_URL", "MINIPULUMI_VERIFY_WRITES",
                  "MINIPULUMI_SERIAL_STEPGEN"):
            self.env.pop(k, None)
        self.env.update(extra_env or {})
        self.write_program(text)
        self.run(["stack", "init", "dev"], stack=False)

    def write_program(self, text):
        with open(os.path.join(self.proj, "Pulumi.yaml"), "w") as f:
            f.write(text)

    def run(self, args, stack=True, env=None):
        """Runs one command; returns (wall s, user+sys s, peak RSS MB).
        Raises SystemExit with its stderr when it fails."""
        cmd = [self.binary, "--backend", self.backend, "--non-interactive",
               "--color", "never", "-C", self.proj]
        if stack:
            cmd += ["-s", "dev"]
        e = dict(self.env)
        e.update(env or {})
        t0 = time.monotonic()
        p = subprocess.Popen(cmd + args, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        p.stderr.close()
        if p.returncode != 0:
            raise SystemExit("%s failed (exit %d): %s" % (
                " ".join(args), p.returncode, err.decode()[-800:]))
        return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0

    def store_bytes(self):
        """The SQLite store's size on disk (with its WAL), 0 elsewhere."""
        n = 0
        for suffix in ("", "-wal"):
            try:
                n += os.path.getsize(self.db + suffix)
            except OSError:
                pass
        return n

    def up(self):
        """`up --yes --skip-preview`, timed."""
        return self.run(["up", "--yes", "--skip-preview"])
