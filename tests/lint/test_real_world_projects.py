"""Project mode on real multi-file training code (``real_world_projects/``, one folder
per repository): every ``# expect:`` mark is reported and nothing else; bugs injected
into one file are found through the other file or the framework that runs it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from zerograd_guard.lint.cli import main

CORPUS = Path(__file__).parent / "real_world_projects"
PROJECTS = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
_EXPECT = re.compile(r"#\s*expect:\s*(ZG\d{3}(?:\s*,\s*ZG\d{3})*)")

# (project, file, line deleted) -> the finding that must appear: (file, line text, code)
MUTANTS = {
    ("detr", "engine.py", "        optimizer.zero_grad()\n"): (
        "engine.py",
        "losses.backward()",
        "ZG101",
    ),
    ("ignite_dcgan", "dcgan.py", "        netG.zero_grad()\n"): (
        "dcgan.py",
        "errG.backward()",
        "ZG101",
    ),
}


def _lint(root: Path, monkeypatch, capsys) -> set[tuple[str, int, str]]:
    monkeypatch.chdir(root)
    capsys.readouterr()
    code = main(["--no-cache", "-j", "1", "--format", "json", "."])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    return {(item["path"], item["line"], item["code"]) for item in json.loads(captured.out)}


def _expected(root: Path) -> set[tuple[str, int, str]]:
    found = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = _EXPECT.search(line)
            if match:
                relative = path.relative_to(root).as_posix()
                found.update((relative, number, code.strip()) for code in match[1].split(","))
    return found


def test_every_project_has_a_source_header():
    for path in CORPUS.rglob("*.py"):
        assert path.read_text().startswith("# SOURCE: "), path


@pytest.mark.parametrize("project", PROJECTS)
def test_project_matches_its_marks(project, tmp_path, monkeypatch, capsys):
    root = tmp_path / project
    shutil.copytree(CORPUS / project, root)
    assert _lint(root, monkeypatch, capsys) == _expected(root)


@pytest.mark.parametrize("mutant", sorted(MUTANTS), ids=lambda m: f"{m[0]}-{m[1]}")
def test_injected_bug_is_found(mutant, tmp_path, monkeypatch, capsys):
    project, file, deleted = mutant
    root = tmp_path / project
    shutil.copytree(CORPUS / project, root)
    text = (root / file).read_text()
    assert text.count(deleted) == 1
    (root / file).write_text(text.replace(deleted, ""))
    reported_file, line_text, code = MUTANTS[mutant]
    lines = (root / reported_file).read_text().splitlines()
    line = next(number for number, line in enumerate(lines, 1) if line_text in line)
    assert _lint(root, monkeypatch, capsys) == {(reported_file, line, code)}
