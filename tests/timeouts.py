"""The scale of the test runners' time limits (docs/reliability.md, "Test
timeouts"): MINIPULUMI_TEST_TIMEOUT_MULTIPLIER scales every time limit of
a runner, as meson test's --timeout-multiplier scales the suite's, for a
slow or busy machine. Imported by tests/conformance/run.py and
tests/language/run.py."""
import os
import sys


def timeout_multiplier():
    text = os.environ.get("MINIPULUMI_TEST_TIMEOUT_MULTIPLIER", "1")
    try:
        m = float(text)
    except ValueError:
        m = 0
    if not m > 0:
        sys.exit("MINIPULUMI_TEST_TIMEOUT_MULTIPLIER must be a number above 0, not %r" % text)
    return m
