"""The docs build strictly, and the rule pages are generated from the rules' own examples."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from zerograd_guard.lint.rule_docs import clean_example, expected_lines, rule_markdown
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.testing import source_of

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.skipif(
    importlib.util.find_spec("material") is None, reason="the docs extra is not installed"
)
def test_mkdocs_build_strict(tmp_path):
    site = tmp_path / "site"
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    for rule in BUILTIN_RULES:
        page = site / "rules" / rule.code.lower() / "index.html"
        assert rule.name in page.read_text(encoding="utf-8")
        assert rule.code in index


def test_rule_pages_show_the_tested_examples():
    for rule in BUILTIN_RULES:
        page = rule_markdown(rule)
        assert page.startswith(f"# {rule.code}: {rule.name}")
        assert rule.summary in page
        for example in map(source_of, rule.INVALID):
            assert expected_lines(example), f"{rule.code}: an INVALID example without # expect"
            assert clean_example(example, mark_findings=True) in page
            assert "# expect:" not in clean_example(example)
        for example in rule.VALID:
            assert clean_example(example) in page


def test_clean_example_marks_reported_lines():
    code = "for b in data:\n    loss.backward()  # expect: ZG101\n"
    assert clean_example(code) == "for b in data:\n    loss.backward()\n"
    assert clean_example(code, mark_findings=True).splitlines()[1].endswith("# <- ZG101")
    assert expected_lines(code) == [2]
