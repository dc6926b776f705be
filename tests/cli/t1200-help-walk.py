#!/usr/bin/env python3
"""Walks minipulumi's command table through its own help pages: `--help`
lists the commands, a group's page lists its subcommands. For every
command and subcommand, `--help` and `-h` (and `help <command>` for the
top level) must exit 0, print that command's own page (its usage line
names it) and change nothing on disk: no login, no state file, no stack
config (issue 37). Usage: t1200-help-walk.py <minipulumi>."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from help_pages import Binary, section  # noqa: E402


def tree(root):
    """Every file and folder under |root|, with a digest of each file."""
    seen = {}
    for d, dirs, files in os.walk(root):
        for name in dirs:
            seen[os.path.join(d, name)] = "dir"
        for name in files:
            p = os.path.join(d, name)
            with open(p, "rb") as f:
                seen[p] = hashlib.sha256(f.read()).hexdigest()
    return seen


def main():
    b = Binary(sys.argv[1])
    failures = []
    top, run = b.top, b.run
    rc, top_page, err = run("--help")
    commands = section(top_page, "Commands:")
    if rc != 0 or len(commands) < 10:
        failures.append(f"--help: status {rc}, commands {commands}: {err}")
    # an alias ("Alias of up") shows the page of the command it names
    aliases = {c: s.split()[-1] for c, s in commands
               if s.startswith("Alias of ")}
    todo = [[c] for c, _ in commands]
    walked = 0
    while todo:
        path = todo.pop(0)
        shown = " ".join([aliases.get(path[0], path[0])] + path[1:])
        forms = [path + ["--help"], path + ["-h"]]
        if len(path) == 1:
            forms.append(["help", path[0]])
        page = None
        for args in forms:
            before = tree(top)
            rc, out, err = run(*args)
            after = tree(top)
            what = " ".join(args)
            if rc != 0:
                failures.append(f"{what}: exit status {rc}: {err.strip()}")
            if f"Usage:\n  minipulumi {shown}" not in out:
                failures.append(f"{what}: not the page of '{shown}':\n{out}")
            if before != after:
                changed = sorted(set(before.items()) ^ set(after.items()))
                failures.append(f"{what}: changed files: {changed}")
            page = page or out
        walked += 1
        for sub, _ in section(page, "Subcommands:"):
            todo.append(path + [sub])
    if walked < 30:
        failures.append(f"only {walked} commands walked")
    print(f"{walked} commands walked")
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    sys.exit(1 if failures else 0)


main()
