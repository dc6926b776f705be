"""What the repository's tree checks share (tests/layers/check_layers.py,
tests/docs/check_citations.py): a self-test on a made-up tree, and the
command line `CHECK ROOT` / `CHECK --self-test`.

A check is a function of a root folder that returns its problems, each a
line `file:line: why`."""
import os
import tempfile


def self_test(tree, check, want, what):
    """Writes |tree| (path -> text) to a temporary folder and runs |check|
    on it: it must flag exactly the `file:line` places of |want|. Returns
    the exit status."""
    with tempfile.TemporaryDirectory() as d:
        for rel, text in tree.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        got = sorted(p.split(": ")[0] for p in check(d))
    if got != sorted(want):
        print("self-test failed: flagged %s, expected %s"
              % (got, sorted(want)))
        return 1
    print("self-test: the check flags exactly the %d bad %s"
          % (len(want), what))
    return 0


def main(argv, usage, check, self_check, failed, passed):
    """The command line: `argv[1]` is the root folder, or --self-test
    (which runs |self_check|). Prints each problem, then |failed| % count
    or |passed|; returns the exit status (2: bad usage)."""
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_check()
    if len(argv) != 2:
        print(usage)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(failed % len(problems))
        return 1
    print(passed)
    return 0
