"""Message and help (ruff's ``message`` / ``help:`` split, issue 16): each finding's
``message`` says what is wrong and the lines involved; its ``hint`` is the advice for
that finding, shown apart in every format (``full``'s ``= help:``, JSON ``help``, SARIF
``properties.help``, GitHub's second line, GitLab's ``content.body``, JUnit's
``help:`` line, the language server's second line). Without a hint the help falls back
to the fix's description, then to the code's generic hint
(``zerograd_guard.lint.formats.help``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from zerograd_guard.codes import CODES
from zerograd_guard.lint.findings import Fix
from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.runner import Reported

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
# One example per built-in code: ZG103's has no fix, the others have one.
BY_CODE = {
    "ZG101": "buggy_missing_clear.py",
    "ZG102": "buggy_clear_between_backward_and_step.py",
    "ZG103": "buggy_accumulation_cleared_every_batch.py",
}
# The finding-specific advice each example's finding gives.
HINTS = {
    "ZG101": "Call `optimizer.zero_grad()` right after the step at line 30",
    "ZG102": "Move the clear at line 26 to right after this step, or before backward()",
    "ZG103": "Clear once per window: right after `optimizer` steps, under the same condition",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in BY_CODE.values():
        shutil.copy(EXAMPLES / name, tmp_path / name)
    return tmp_path


def _json(lint, *args: str) -> dict[str, dict]:
    items = json.loads(lint("--output-format", "json", *args, ".").out)
    return {item["code"]: item for item in items}


def _reported(code: str = "ZG101", hint: str | None = None, fix: Fix | None = None) -> Reported:
    return Reported("a.py", code, "what is wrong", 1, 1, 1, 2, fix=fix, hint=hint)


def test_every_registry_code_has_a_help_that_is_not_its_summary():
    for entry in CODES.values():
        assert entry.help and entry.help != entry.summary
        assert "\n" not in entry.help


def test_help_is_the_hint_else_the_fix_else_the_codes_generic_hint():
    fix = Fix("Insert a clear", ())
    assert help_text(_reported(hint="Call `x.zero_grad()`", fix=fix)) == "Call `x.zero_grad()`"
    assert help_text(_reported(fix=fix)) == "Insert a clear"
    assert help_text(_reported()) == CODES["ZG101"].help
    assert help_text(_reported("XYZ900")) is None  # a plugin's code without hint or fix


def test_json_message_and_help_are_separate_and_the_help_is_the_findings_own(project, lint):
    by_code = _json(lint)
    assert set(by_code) == set(BY_CODE)
    for code, item in by_code.items():
        assert item["help"] == HINTS[code]
        assert ";" not in item["message"], item  # the advice no longer trails the message
        assert item["help"] not in item["message"]
        if item["fix"] is not None:
            assert item["help"] != item["fix"]["description"]


def test_concise_text_shows_the_message_only(project, lint):
    out = lint(".").out
    by_code = _json(lint)
    for code, item in by_code.items():
        [line] = [line for line in out.splitlines() if f" {code}" in line]
        assert line.endswith(f" {item['message']}")
        assert HINTS[code] not in out


def test_full_format_prints_the_findings_hint_under_each_snippet(project, lint):
    out = lint("--output-format", "full", ".").out
    blocks = [block for block in out.split("\n\n") if " ZG1" in block]
    assert len(blocks) == 3
    for block in blocks:
        lines = block.rstrip("\n").splitlines()
        code = block.split(": ", 1)[1].split()[0]
        assert lines[-1] == f"  = help: {HINTS[code]}", block
        assert HINTS[code] not in lines[0]


def test_sarif_message_is_the_message_and_the_hint_is_a_result_property(project, lint):
    by_code = _json(lint)
    lint("--output-format", "sarif", "-o", "out.sarif", ".")
    log = json.loads((project / "out.sarif").read_text(encoding="utf-8"))
    [run] = log["runs"]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    for code, entry in CODES.items():
        assert rules[code]["help"]["text"].startswith(entry.help)  # the rule's stays generic
    assert {result["ruleId"] for result in run["results"]} == set(BY_CODE)
    for result in run["results"]:
        code = result["ruleId"]
        assert result["message"]["text"] == by_code[code]["message"]
        assert result["properties"]["help"] == HINTS[code]
        assert ("fixes" in result) == (code != "ZG103"), result


def test_github_annotation_is_the_message_then_the_hint_on_its_own_line(project, lint):
    by_code = _json(lint)
    lines = lint("--output-format", "github", ".").out.splitlines()
    assert len(lines) == 3
    for line in lines:
        code = line.split("(", 1)[1].split(")", 1)[0]
        text = line.split("::", 2)[2]
        assert text == f"{by_code[code]['message']}%0A{HINTS[code]}"


def test_gitlab_description_is_the_message_and_the_content_the_hint(project, lint):
    by_code = _json(lint)
    issues = json.loads(lint("--output-format", "gitlab", ".").out)
    assert len(issues) == 3
    for issue in issues:
        code = issue["check_name"]
        assert issue["description"] == f"{code} {by_code[code]['message']}"
        assert issue["content"] == {"body": HINTS[code]}


def test_junit_failure_text_carries_the_hint_on_a_help_line(project, lint):
    by_code = _json(lint)
    root = ElementTree.fromstring(lint("--output-format", "junit", ".").out)
    failures = root.findall(".//failure")
    assert len(failures) == 3
    for failure in failures:
        code = failure.get("type")
        assert failure.get("message") == f"{code} {by_code[code]['message']}"
        first, help_line = failure.text.splitlines()
        assert first.endswith(f": {code} {by_code[code]['message']}")
        assert help_line == f"help: {HINTS[code]}"


def test_language_server_diagnostic_is_the_message_then_the_hint():
    pytest.importorskip("lsprotocol")
    from zerograd_guard.lint.server.convert import diagnostic

    found = diagnostic(_reported(hint="Call `opt.zero_grad()`"), ["x = 1"], "error")
    assert found.message == "what is wrong\nCall `opt.zero_grad()`"
    plugin = diagnostic(_reported("XYZ900"), ["x = 1"], "error")
    assert plugin.message == "what is wrong"  # nothing to add: no second line


def test_warm_cache_and_parallel_runs_carry_the_hint(project, lint):
    cold = _json(lint)
    entries = sorted((project / ".zerograd_cache").glob("v2/*/*.json"))
    assert len(entries) == len(BY_CODE)
    stored = [json.loads(entry.read_text(encoding="utf-8")) for entry in entries]
    assert {item["hint"] for entry in stored for item in entry["findings"]} == set(HINTS.values())
    assert _json(lint) == cold  # served from the cache
    assert _json(lint, "--no-cache", "-j", "2") == cold


# A backward whose gradients are read, not stepped, on top of a step's (ZG101's third path).
STALE_READ = """\
import torch
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(x).sum().backward()
optimizer.step()
model(x).sum().backward()
print(model.weight.grad)
"""


def _rule_findings():
    from zerograd_guard.lint.analyze import analyze_source
    from zerograd_guard.lint.rules import BUILTIN_RULES
    from zerograd_guard.lint.testing import source_of

    sources = [source_of(example) for rule in BUILTIN_RULES for example in rule.INVALID]
    return [finding for source in [*sources, STALE_READ] for finding in analyze_source(source)]


def test_every_builtin_finding_has_its_own_hint_apart_from_its_message():
    findings = _rule_findings()
    assert {finding.code for finding in findings} == set(CODES)
    for finding in findings:
        assert finding.hint and finding.hint != CODES[finding.code].help, finding
        assert finding.hint not in finding.message, finding
        for advice in ("e.g. call", "; clear", "; call", "instead"):
            assert advice not in finding.message, finding


def test_stale_read_hint_names_the_optimizers_clear():
    from zerograd_guard.lint.analyze import analyze_source

    [finding] = analyze_source(STALE_READ)
    assert finding.message.endswith("sees their sum, not this backward's gradients")
    assert (
        finding.hint
        == "Clear the gradients right before this backward(): call `optimizer.zero_grad()`"
    )
