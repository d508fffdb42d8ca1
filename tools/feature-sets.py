#!/usr/bin/env python3
"""Fails when two cargo selections would compile a shared crate with different features.

Cargo resolves the features of every dependency over the packages and targets one command
selects: `cargo build -p api` and `cargo test --workspace` could each enable a different
set of, say, tokio's features, and each would then compile tokio, everything above it and
all of our crates again under another hash (ten minutes or more in release on 2 cores).
The `workspace-hack` crate names each dependency whose features would differ with the
union of them, and every one of our crates depends on it, so every selection sees the
same set. This check (run by `just lint`) asks `cargo tree` for the features each
selection the justfile, the tests and a deployment use would build with, and names any
crate whose set differs between two of them, with what `workspace-hack` must add.

`--write` names them there (and what they bring) until every selection agrees.
"""

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

# What our commands select (the justfile's recipes, the e2e tests' `cargo build -p api`, a
# deployment's release build, a feature's own `cargo test -p`), as `cargo tree` arguments:
# `-e normal,build` for a build of libraries and binaries, `dev` added where tests,
# examples or benches are built (their dev-dependencies are then part of the resolution).
ROOT = Path(__file__).resolve().parent.parent
BUILD = ["-e", "normal,build"]
TESTS = ["-e", "normal,build,dev"]


def members():
    out = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(p["name"] for p in json.loads(out)["packages"])


def selections(crates):
    yield "--workspace (tests)", ["--workspace", *TESTS]
    yield "--workspace", ["--workspace", *BUILD]
    yield "-p generator -p api", ["-p", "generator", "-p", "api", *BUILD]
    yield "bench's binaries", [
        *(a for c in ["api", "generator", "smtp-sink", "fake-stripe"] for a in ("-p", c)),
        *BUILD,
    ]
    for crate in crates:
        yield f"-p {crate}", ["-p", crate, *BUILD]
        yield f"-p {crate} (tests)", ["-p", crate, *TESTS]


NODE = re.compile(r"^(?P<name>\S+) v(?P<version>\S+)(?P<rest>[^|]*)\|(?P<features>[^ ]*)")


def features(args):
    """{(name, version, host): set of feature lists} for one selection.

    A crate is built for the host when it is a proc macro or a build script's dependency,
    or a dependency of one (cargo resolves those apart from the target's): the tree's
    `[build-dependencies]` headings and proc-macro nodes say where that starts.
    """
    out = subprocess.run(
        ["cargo", "tree", "--locked", "-f", "{p}|{f}", *args],
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    found = defaultdict(set)
    host_at = {}  # depth -> whether the node last seen at that depth is built for the host
    section = {}  # depth -> the heading its nodes are listed under ("build", "dev", "normal")
    for line in out.splitlines():
        if not line.strip():
            host_at, section = {}, {}
            continue
        body = line.lstrip("│├└─ \u00a0")
        indent = len(line) - len(body)
        if body.startswith("["):
            section[indent // 4 + 1] = body.strip("[]").split("-")[0]
            continue
        depth = indent // 4
        for deeper in [d for d in section if d > depth]:
            del section[deeper]
        m = NODE.match(body)
        if not m:
            continue
        parent_host = host_at.get(depth - 1, False) if depth else False
        host = parent_host or section.get(depth) == "build" or "(proc-macro)" in m["rest"]
        host_at[depth] = host
        if "(/" in m["rest"]:
            continue  # one of ours
        found[(m["name"], m["version"], host)].add(m["features"])
    return found


HACK = ROOT / "api/crates/workspace-hack/Cargo.toml"
MARK = "# Made by `python3 tools/feature-sets.py --write`"
ENTRY = re.compile(r'^\S+ = \{ (?:package = "(?P<package>[^"]+)", )?version = "=(?P<version>[^"]+)"')


def check():
    """(drift, union): the builds some selection makes that the workspace's tests do not."""
    crates = [c for c in members() if c != "workspace-hack"]
    seen = {label: features(args) for label, args in selections(crates)}
    union = defaultdict(set)
    for found in seen.values():
        for key, sets in found.items():
            for s in sets:
                union[key].update(f for f in s.split(",") if f)
    # A crate can be built twice in one selection (for the target, and for the host as a
    # build script's dependency, each with its own features): what matters is that every
    # build of it any selection makes is one the whole workspace's tests make too.
    everything = seen["--workspace (tests)"]
    drift = {}
    for label, found in seen.items():
        for key, sets in found.items():
            for s in sets - everything.get(key, set()):
                have = {f for f in s.split(",") if f}
                drift.setdefault(key, []).append((label, sorted(union[key] - have)))
    return drift, union


def listed():
    """The (name, version, host) the workspace-hack names today."""
    keys, host = set(), False
    for line in open(HACK).read().splitlines():
        if line.startswith("["):
            host = line == "[build-dependencies]"
        elif m := ENTRY.match(line):
            name = m["package"] or line.split(" ")[0]
            keys.add((name, m["version"], host))
    return keys


def table(keys, union):
    lines = []
    for section, for_host in (("dependencies", False), ("build-dependencies", True)):
        lines.append(f"[{section}]")
        named = [k for k in sorted(keys) if k[2] == for_host]
        for name, version, host in named:
            wanted = union[(name, version, host)]
            feats = ", ".join(f'"{f}"' for f in sorted(wanted) if f != "default")
            twice = sum(1 for k in named if k[0] == name) > 1
            major, minor = version.split(".")[:2]
            key = f"{name}-{major}-{minor}" if twice else name
            lines.append(
                f"{key} = {{ "
                + (f'package = "{name}", ' if twice else "")
                + f'version = "={version}"'
                + ("" if "default" in wanted else ", default-features = false")
                + (f", features = [{feats}]" if feats else "")
                + " }"
            )
    return "\n".join(lines) + "\n"


def write():
    """Adds what drifts to the workspace-hack until nothing does (a crate named there can
    bring features of its own dependencies that then drift in turn)."""
    for _ in range(8):
        drift, union = check()
        if not drift:
            print("workspace-hack: every selection builds shared dependencies alike")
            return 0
        text = open(HACK).read()
        head = text[: text.index(MARK)]
        keys = listed() | set(drift)
        open(HACK, "w").write(
            head
            + MARK
            + ": each dependency whose features some\n"
            + "# cargo selection would resolve differently, with the union of them.\n"
            + table(keys, union)
        )
        # Not --locked: records the hack's new dependencies in Cargo.lock, which the next
        # round's `cargo tree --locked` reads.
        subprocess.run(["cargo", "tree", "--workspace", "--depth", "0"], check=True, cwd=ROOT, capture_output=True)
    print("workspace-hack: still drifting after 8 rounds")
    return 1


def main():
    if "--write" in sys.argv:
        return write()
    drift, union = check()
    if not drift:
        print(f"feature sets: {len(union)} dependencies built alike by every selection")
        return 0
    print("These dependencies would be compiled with other features by some selections,")
    print("so each would compile them and all of our crates again. Run")
    print("`python3 tools/feature-sets.py --write` to name them in the workspace-hack:")
    for (name, version, _), where in sorted(drift.items()):
        label, missing = where[0]
        print(f"  {name} {version}: `{label}` lacks {', '.join(missing) or '(a set another lacks)'}"
              + (f" (and {len(where) - 1} more selections)" if len(where) > 1 else ""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
