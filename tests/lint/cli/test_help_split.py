"""Message and help (ruff's ``message`` / ``help:`` split, issue 16): every finding
carries a fix hint from its rule, apart from the message, in the ``full`` text format,
JSON (``help``) and SARIF (the rule's ``help``, ``fixes`` for fixable findings)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from zerograd_guard.codes import CODES

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
# One example per built-in code: ZG103's has no fix, the others have one.
BY_CODE = {
    "ZG101": "buggy_missing_clear.py",
    "ZG102": "buggy_clear_between_backward_and_step.py",
    "ZG103": "buggy_accumulation_cleared_every_batch.py",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in BY_CODE.values():
        shutil.copy(EXAMPLES / name, tmp_path / name)
    return tmp_path


def test_every_registry_code_has_a_help_that_is_not_its_summary():
    for entry in CODES.values():
        assert entry.help and entry.help != entry.summary
        assert "\n" not in entry.help


def test_json_help_is_the_fix_or_else_the_rules_hint(project, lint):
    items = json.loads(lint("--output-format", "json", ".").out)
    by_code = {item["code"]: item for item in items}
    assert set(by_code) == set(BY_CODE)
    for code, item in by_code.items():
        assert item["help"], item
        assert item["help"] not in item["message"]  # a hint apart, not the message again
        if item["fix"] is not None:
            assert item["help"] == item["fix"]["description"]
        else:
            assert item["help"] == CODES[code].help


def test_full_format_prints_a_help_line_under_each_snippet(project, lint):
    out = lint("--output-format", "full", ".").out
    blocks = [block for block in out.split("\n\n") if " ZG1" in block]
    assert len(blocks) == 3
    for block in blocks:
        last = block.rstrip("\n").splitlines()[-1]
        code = block.split(": ", 1)[1].split()[0]
        assert last.startswith("  = help: "), block
        if code == "ZG103":
            assert last == f"  = help: {CODES['ZG103'].help}"


def test_sarif_rules_carry_the_hint_and_fixable_results_carry_fixes(project, lint):
    lint("--output-format", "sarif", "-o", "out.sarif", ".")
    log = json.loads((project / "out.sarif").read_text(encoding="utf-8"))
    [run] = log["runs"]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    for code, entry in CODES.items():
        assert rules[code]["help"]["text"].startswith(entry.help)
    for result in run["results"]:
        assert ("fixes" in result) == (result["ruleId"] != "ZG103"), result
