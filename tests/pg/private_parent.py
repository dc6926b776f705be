#!/usr/bin/env python3
"""pgtest.py from a build folder under a private parent (issue 23).

    private_parent.py PGTEST_PY TEST_BINARY

A clone in /root, or in a `mktemp -d` folder, has a parent of mode 700
that the server's unprivileged user cannot search. This makes such a
parent and runs TEST_BINARY through pgtest.py with --dir in a build
folder below it (where the cluster lived before); it must pass. Then
it runs a failing command the same way and checks that the server log was
copied to --dir and that no cluster folder was left behind.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile


# The clusters of this run's pgtest.py carry this tag in their names, so
# that those of the postgres tests running beside it are not counted.
TAG = "private%d-" % os.getpid()


def clusters():
    """This run's pgtest cluster folders now present in the temp folders."""
    pattern = "mp-pg-" + TAG + "*"
    return set(glob.glob("/tmp/" + pattern) +
               glob.glob(os.path.join(tempfile.gettempdir(), pattern)))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    pgtest, binary = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    os.environ["MP_PGTEST_TAG"] = TAG
    private = tempfile.mkdtemp(prefix="mp-private-")
    os.chmod(private, 0o700)
    failures = 0
    try:
        build = os.path.join(private, "clone", "build", "tests")
        os.makedirs(build)
        before = clusters()
        p = subprocess.run([sys.executable, pgtest, "run", "--dir",
                            os.path.join(build, "pg-store"), "--", binary])
        if p.returncode == 77:
            return 77
        if p.returncode != 0:
            print("FAIL: %s under a mode-700 parent exited %d" %
                  (os.path.basename(binary), p.returncode))
            failures += 1
        else:
            print("ok   %s from a build folder under a mode-700 parent" %
                  os.path.basename(binary))

        keep = os.path.join(build, "pg-failing")
        p = subprocess.run([sys.executable, pgtest, "run", "--dir", keep,
                            "--", "false"], stderr=subprocess.DEVNULL)
        if p.returncode == 0:
            print("FAIL: a failing command made pgtest.py exit 0")
            failures += 1
        elif not os.path.isfile(os.path.join(keep, "server.log")):
            print("FAIL: no server log copied to %s after a failure" % keep)
            failures += 1
        else:
            print("ok   a failure keeps the server log in --dir")
        left = clusters() - before
        if left:
            print("FAIL: cluster folders left behind: %s" % sorted(left))
            failures += 1
        else:
            print("ok   no cluster folder left behind")
    finally:
        shutil.rmtree(private, ignore_errors=True)
    print("%d passed, %d failed" % (3 - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
