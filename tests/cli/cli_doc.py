#!/usr/bin/env python3
"""Writes (--write) or checks docs/cli.md: Pulumi's commands and flags
that do not need Pulumi Cloud, each with what minipulumi does. What
minipulumi has is read off the binary's own help pages (help_pages.py),
so the page cannot drift from the commands; what Pulumi has is the
reference below (pkg/cmd/pulumi/ in pulumi/pulumi, v3). A flag or command
minipulumi lacks says "missing", with the reason where one is known.
Usage: cli_doc.py <minipulumi> [--write]."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from help_pages import Binary, flags  # noqa: E402

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "docs/cli.md")

OPERATION = ["config-file", "debug", "diff", "json", "message", "parallel",
             "stack", "suppress-outputs", "suppress-permalink", "exec-kind",
             "client", "event-log", "run-program", "exclude",
             "exclude-dependents", "target", "target-dependents",
             "show-replacement-steps", "show-sames", "suppress-progress"]

# Pulumi's commands (without Pulumi Cloud's) and their flags, long names.
PULUMI = {
    "": ["color", "cwd", "disable-integrity-checking", "emoji", "logflow",
         "logtostderr", "memprofilerate", "non-interactive", "profiling",
         "tracing", "verbose", "fully-qualify-stack-names", "otel-traces"],
    "up": OPERATION + [
        "config", "config-path", "continue-on-error", "expect-no-changes",
        "plan", "policy-pack", "policy-pack-config", "refresh", "replace",
        "secrets-provider", "show-config", "show-full-output",
        "show-policy-remediations", "show-reads", "show-secrets",
        "skip-preview", "target-replace", "yes", "attach-debugger", "strict",
        "exec-agent"],
    "preview": OPERATION + [
        "config", "config-path", "expect-no-changes", "import-file",
        "policy-pack", "policy-pack-config", "refresh", "replace",
        "save-plan", "show-config", "show-policy-remediations", "show-reads",
        "show-secrets", "target-replace", "attach-debugger"],
    "refresh": OPERATION + [
        "clear-pending-creates", "expect-no-changes",
        "import-pending-creates", "preview-only", "show-secrets",
        "skip-pending-creates", "skip-preview", "yes"],
    "destroy": OPERATION + [
        "continue-on-error", "exclude-protected", "preview-only", "refresh",
        "remove", "show-config", "skip-preview", "yes"],
    "import": ["config-file", "debug", "diff", "file", "from",
               "generate-code", "json", "message", "out", "parallel",
               "parent", "preview-only", "properties", "protect", "provider",
               "skip-preview", "stack", "suppress-outputs",
               "suppress-permalink", "yes", "exec-kind", "suppress-progress"],
    "cancel": ["stack", "yes"],
    "config": ["config-file", "json", "show-secrets", "stack", "open"],
    "config get": ["json", "path", "open"],
    "config set": ["path", "plaintext", "secret"],
    "config rm": ["path"],
    "config set-all": ["json", "path", "plaintext", "secret"],
    "config rm-all": ["path"],
    "config cp": ["dest", "path"],
    "config refresh": ["force"],
    "stack": ["show-ids", "show-name", "show-secrets", "show-urns", "stack"],
    "stack init": ["copy-config-from", "no-select", "secrets-provider",
                   "stack"],
    "stack ls": ["all", "json", "project", "tag"],
    "stack select": ["create", "secrets-provider", "stack"],
    "stack rm": ["force", "preserve-config", "remove-backups", "stack",
                 "yes"],
    "stack rename": ["stack"],
    "stack output": ["json", "shell", "show-secrets", "stack"],
    "stack export": ["file", "show-secrets", "stack", "version"],
    "stack import": ["file", "force", "stack"],
    "stack history": ["full-dates", "json", "page", "page-size",
                      "show-secrets", "stack"],
    "stack tag": [], "stack unselect": [],
    # stack/stack_graph.go
    "stack graph": ["stack", "ignore-parent-edges", "ignore-dependency-edges",
                    "dependency-edge-color", "parent-edge-color",
                    "short-node-name", "dot-fragment"],
    "stack tag get": ["stack"], "stack tag ls": ["json", "stack"],
    "stack tag rm": ["stack"], "stack tag set": ["stack"],
    "stack change-secrets-provider": [],
    "state": [],
    "state delete": ["all", "force", "stack", "target-dependents", "yes"],
    "state unprotect": ["all", "stack", "yes"],
    "state protect": ["all", "stack", "yes"],
    "state rename": ["stack", "yes"],
    "state move": ["dest", "include-parents", "source", "yes"],
    "state repair": ["stack", "yes"],
    "state edit": ["stack"],
    "state upgrade": ["yes"],
    "state taint": ["stack", "yes"],
    "state untaint": ["all", "stack", "yes"],
    "login": ["cloud-url", "default-org", "insecure", "local", "interactive"],
    "logout": ["all", "cloud-url", "local"],
    "whoami": ["json", "verbose"],
    # console/console.go: Pulumi Cloud's console in a browser there; a
    # console of its own here (docs/console.md)
    "console": ["stack"],
    "version": [],
    "plugin": [],
    "plugin ls": ["json", "project"],
    "plugin install": ["exact", "file", "reinstall", "server", "checksum"],
    "plugin rm": ["all", "yes"],
    "plugin run": ["kind"],
    "gen-completion": [],
    # about.go
    "about": ["json", "stack", "transitive"],
    # newcmd/new.go
    "new": ["config", "config-path", "description", "dir", "force",
            "generate-only", "name", "offline", "stack", "yes",
            "secrets-provider", "list-templates"],
    # install.go
    "install": ["use-language-version-tools", "no-plugins",
                "no-dependencies", "reinstall"],
    "convert": [],
    # operations/watch.go
    "watch": ["path", "debug", "stack", "config-file", "config",
              "config-path", "secrets-provider", "message", "policy-pack",
              "policy-pack-config", "parallel", "refresh", "show-config",
              "show-replacement-steps", "show-sames", "urns",
              "skip-plugin-pre-install", "exec-kind"],
    "package": [], "package get-schema": [], "package gen-sdk": [],
    "schema": [], "schema check": [],
    "policy new": [], "policy validate-config": [],
}

# Why a Pulumi command or flag is missing, where there is more to say.
WHY = {
    "": {"memprofilerate": "missing: Go runtime setting",
         "profiling": "missing: Go runtime profiles"},
    "login": {"default-org": "missing: organizations are Pulumi Cloud's"},
}

# The flags minipulumi has and Pulumi's command sources (PULUMI above) do
# not: the only ones that may be labelled `minipulumi only`. A flag of the
# binary's help missing from both fails the check, so a label is never a
# guess.
MINIPULUMI_ONLY = {
    "": {"stack", "backend"},
    "up": {"ignore-protect", "serial-stepgen"},
    "preview": {"secrets-provider", "serial-stepgen", "exec-agent",
                "show-full-output"},
    "refresh": {"show-reads", "serial-stepgen", "exec-agent", "policy-pack",
                "policy-pack-config", "show-config", "show-full-output"},
    "destroy": {"ignore-protect", "show-secrets", "show-reads",
                "serial-stepgen", "exec-agent", "policy-pack",
                "policy-pack-config", "show-full-output"},
    "stack graph": {"format"},
    "console": {"port", "host", "show-secrets", "open"},
}
CLOUD = ("--remote*, --neo and --teams on every command, and the commands "
         "org, deployment, env and logs, exit 2 with one error "
         "naming Pulumi Cloud")


def status(path, flag, have):
    if flag in have:
        text = have[flag] or "accepted"
        # a flag that cannot mean anything here says so in its help
        if text.startswith(("no effect:", "refused:")):
            return text
        return "yes: " + text
    why = WHY.get(path, {}).get(flag)
    return why or "missing"


def render(pages):
    top = pages[next(iter(pages))]
    out = ["# The command line, flag by flag", "",
           "Pulumi's commands and flags that do not need Pulumi Cloud "
           "(`pkg/cmd/pulumi/` in pulumi/pulumi), each with what minipulumi "
           "does: `yes:` and minipulumi's own help text, or `missing`. The "
           "flags only minipulumi has follow, marked `minipulumi only`. "
           "This page is written by `python3 tests/cli/cli_doc.py "
           "build/src/cli/minipulumi --write` from the binary's own help "
           "pages, and the `cli` test suite (t1204-cli-doc) fails when it "
           "and the binary disagree.", "",
           "Pulumi Cloud: " + CLOUD + ".", ""]
    for path, pflags in PULUMI.items():
        title = "Global flags" if not path else f"`minipulumi {path}`"
        page = top if not path else pages.get(path)
        out.append(f"## {title}")
        out.append("")
        if page is None:
            out.append("missing: minipulumi has no such command.")
            out.append("")
            continue
        have = flags(page, "Global Flags:" if not path else "Flags:")
        have.pop("help", None)
        # Pulumi's per-command --stack is a global flag here
        known = dict(flags(page, "Global Flags:"), **have)
        if path and not pflags and not have:
            out.append("yes (no flags of its own).")
            out.append("")
            continue
        out.append("| flag | minipulumi |")
        out.append("| --- | --- |")
        for f in pflags:
            out.append(f"| `--{f}` | {status(path, f, known)} |")
        for f in have:
            if f not in pflags:
                if f not in MINIPULUMI_ONLY.get(path, ()):
                    raise SystemExit(
                        f"cli_doc.py: `minipulumi {path}` --{f} is neither "
                        "among Pulumi's flags (PULUMI) nor in MINIPULUMI_ONLY")
                out.append(f"| `--{f}` | minipulumi only: {have[f]} |")
        out.append("")
    extra = [p for p in pages if p not in PULUMI]
    if extra:
        out.append("## Commands only minipulumi has, or Pulumi Cloud's")
        out.append("")
        for p in extra:
            out.append(f"- `minipulumi {p}`")
        out.append("")
    return "\n".join(out)


def main():
    b = Binary(sys.argv[1])
    pages = {"": b.run("--help")[1]}
    # the global flags are on every command's page
    pages[""] = b.run("version", "--help")[1]
    pages.update(b.walk())
    text = render(pages)
    if "--write" in sys.argv:
        with open(DOC, "w") as f:
            f.write(text)
        return 0
    with open(DOC) as f:
        old = f.read()
    if old != text:
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(True), text.splitlines(True), "docs/cli.md",
            "generated"))
        print("docs/cli.md is out of date: run tests/cli/cli_doc.py "
              "<minipulumi> --write", file=sys.stderr)
        return 1
    print("docs/cli.md agrees with the binary")
    return 0


sys.exit(main())
