"""Recall on a real repository by deletion: remove each clear in turn, lint again.

    python benchmarks/deletion_recall.py REPO [--max 30] [--json OUT] [--pythonpath DIR]

Each single-line ``X.zero_grad(...)`` statement of the repository's Python files is
replaced by ``pass`` (same indentation, same line ending) in a private copy of the
repository; the copy is linted again in project mode, with one cache for the whole run
(so each mutant costs about what an edit costs a user), and the mutant is *caught* when
a finding appears that the unmodified copy did not have, in any file (a missing clear in
a helper is reported where the loop calls it). A missed mutant is not necessarily a
miss of the analyzer: the deleted clear may have been redundant (another clear covers
it, no step follows, an evaluation loop); telling the two apart is a reader's job.

``--pythonpath`` lints with the ``zerograd_guard`` package found there (a ``git
archive`` of another revision) instead of the installed one. Prints one line per mutant
(``CAUGHT`` / ``MISSED``, the file, line and text) and a summary; ``--json`` writes the
baseline findings and every mutant's new findings.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLEAR = re.compile(r"^(\s*)[\w.\[\]()'\"]+\.zero_grad\([^()]*\)\s*(#.*)?$")


def lint(root: Path, cache: Path, pythonpath: str | None) -> list[dict[str, object]]:
    """The findings of a project-mode run over ``root`` (JSON records)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    command = [
        sys.executable,
        "-c",
        "import sys; from zerograd_guard.lint.cli import main; sys.exit(main())",
        *("--output-format", "json", "-j", "1", "--exit-zero", "-q"),
        *("--cache-dir", str(cache), str(root)),
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    try:
        return list(json.loads(done.stdout or "[]"))
    except json.JSONDecodeError:
        sys.stderr.write(done.stderr[-2000:])
        return []


def clear_sites(root: Path) -> list[tuple[Path, int]]:
    """Every single-line ``X.zero_grad(...)`` statement: (file, 0-based line)."""
    sites = []
    for path in sorted(root.rglob("*.py")):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        sites.extend((path, index) for index, line in enumerate(lines) if CLEAR.match(line))
    return sites


def _key(finding: dict[str, object]) -> tuple[object, object, object]:
    return finding["path"], finding["line"], finding["code"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--max", type=int, default=30, help="mutants at most (first sites)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--pythonpath", help="lint with the zerograd_guard found here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="deletion_recall_") as scratch:
        copy = Path(scratch) / args.repo.resolve().name
        shutil.copytree(args.repo, copy, ignore=shutil.ignore_patterns(".git"), symlinks=True)
        cache = Path(scratch) / "cache"
        baseline = lint(copy, cache, args.pythonpath)
        known = {_key(finding) for finding in baseline}
        sites = clear_sites(copy)
        mutants = []
        for path, index in sites[: args.max]:
            original = path.read_bytes()
            lines = original.decode("utf-8").splitlines(keepends=True)
            line = lines[index]
            ending = line[len(line.rstrip("\r\n")) :]
            indent = CLEAR.match(line.rstrip("\r\n")).group(1)  # type: ignore[union-attr]
            lines[index] = f"{indent}pass{ending}"
            path.write_text("".join(lines), encoding="utf-8", newline="")
            try:
                found = lint(copy, cache, args.pythonpath)
            finally:
                path.write_bytes(original)
            new = [finding for finding in found if _key(finding) not in known]
            relative = str(path.relative_to(copy))
            verdict = "CAUGHT" if new else "MISSED"
            print(f"{verdict} {relative}:{index + 1}: {line.strip()}", flush=True)
            mutants.append({"path": relative, "line": index + 1, "text": line.strip(), "new": new})
    caught = sum(1 for mutant in mutants if mutant["new"])
    print(
        f"baseline findings: {len(baseline)}; mutants: {len(mutants)} of {len(sites)} "
        f"clear sites; caught: {caught}"
    )
    if args.json is not None:
        args.json.write_text(json.dumps({"baseline": baseline, "mutants": mutants}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
