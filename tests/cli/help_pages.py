"""Reads minipulumi's command table through its own help pages: the top
page lists the commands, a group's page its subcommands, every page its
flags. Shared by t1200-help-walk.py and cli_doc.py."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)


def section(text, title):
    """The indented lines under |title|, as (first word, rest)."""
    rows, inside = [], False
    for line in text.splitlines():
        if line.strip() == title:
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            name, _, rest = line.strip().partition(" ")
            rows.append((name, rest.strip()))
        elif inside:
            inside = False
    return rows


def flags(text, title="Flags:"):
    """{long name: help} of the flag rows under |title| (args.c prints a
    row as the flag and its value's name in 34 columns, then the help)."""
    out, inside = {}, False
    for line in text.splitlines():
        if line.strip() == title:
            inside = True
            continue
        if not inside or not line.startswith("  ") or not line.strip():
            inside = False
            continue
        words = line[:34].replace(",", " ").split()
        long = [w for w in words if w.startswith("--")]
        if long:
            help_text = line[34:].strip() if len(line) > 34 else ""
            out[long[0][2:]] = help_text
    return out


class Binary:
    """Runs the binary in a scratch folder with its own HOME."""

    def __init__(self, path):
        self.path = os.path.realpath(path)
        self.tmp = tempfile.TemporaryDirectory(prefix="mp-help.")
        self.top = self.tmp.name
        self.home = os.path.join(self.top, "home")
        self.proj = os.path.join(self.top, "proj")
        os.makedirs(self.home)
        os.makedirs(self.proj)
        with open(os.path.join(self.proj, "Pulumi.yaml"), "w") as f:
            f.write("name: proj\nruntime: yaml\n")
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("MINIPULUMI_", "PULUMI_"))}
        self.env.update(HOME=self.home, PULUMI_CONFIG_PASSPHRASE="p",
                        CI="true")

    def run(self, *args):
        p = subprocess.run([self.path, *args], cwd=self.proj, env=self.env,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60 * timeout_multiplier())
        return p.returncode, p.stdout, p.stderr

    def commands(self):
        """[(name, summary)] of the top page."""
        return section(self.run("--help")[1], "Commands:")

    def walk(self):
        """{path: page} of every command and subcommand."""
        pages, todo = {}, [[c] for c, _ in self.commands()]
        while todo:
            path = todo.pop(0)
            page = self.run(*path, "--help")[1]
            pages[" ".join(path)] = page
            todo += [path + [s] for s, _ in section(page, "Subcommands:")]
        return pages
