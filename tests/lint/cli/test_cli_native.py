"""ruff's conventions on the command line (issue 16): names, stdin, output files and
formats, fix reporting, noqa adoption, settings and file listings, gitignore."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import jsonschema
import pytest
from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE, CORRECT, write
from test_cli_notebooks import TRAINING

from zerograd_guard.lint.findings import Edit, Finding, Fix
from zerograd_guard.lint.plugins import hookimpl
from zerograd_guard.lint.rules.base import Rule

DATA = Path(__file__).parent / "data"
FINDING_PREFIX = f"bad.py:{BUGGY_LINE}:{BUGGY_COLUMN}: ZG101"


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str | bytes) -> None:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))


# --- names and output destination -------------------------------------------------


def test_output_format_is_the_name_and_format_its_alias(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    assert lint("--output-format", "json", "bad.py").out == lint("--format", "json", "bad.py").out
    assert json.loads(lint("--output-format=json", "bad.py").out)[0]["code"] == "ZG101"


def test_output_file_gets_the_report_and_stdout_stays_empty(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("--output-format", "sarif", "-o", "report.sarif", "bad.py")
    assert (result.code, result.out) == (1, "")
    log = json.loads((tmp_path / "report.sarif").read_text(encoding="utf-8"))
    assert log["runs"][0]["results"][0]["ruleId"] == "ZG101"


def test_output_file_that_cannot_be_written_is_a_one_line_error(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("-o", "no/such/dir/report.txt", "bad.py")
    assert result.code == 2
    assert result.err.strip().splitlines()[-1].startswith("no/such/dir/report.txt: error: ")


def test_quiet_prints_findings_only(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "ok.py", CORRECT)
    noisy = lint("bad.py")
    assert "Found 1 error." in noisy.out
    quiet = lint("-q", "bad.py")
    assert quiet.code == 1
    assert quiet.out.splitlines() == [noisy.out.splitlines()[0]]
    assert lint("--quiet", "ok.py").out == ""


def test_colour_flag_and_force_color(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    assert "\x1b[" in lint("--color", "always", "bad.py").out  # NO_COLOR=1 is set by `lint`
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in lint("bad.py").out  # not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" in lint("bad.py").out
    assert "\x1b[" not in lint("--color=never", "bad.py").out


# --- stdin ------------------------------------------------------------------------


def test_stdin_is_linted_under_its_given_name(tmp_path, lint, monkeypatch):
    _stdin(monkeypatch, BUGGY)
    result = lint("-", "--stdin-filename", "train.py")
    assert result.code == 1
    assert result.out.startswith(f"train.py:{BUGGY_LINE}:{BUGGY_COLUMN}: ZG101 ")
    assert not (tmp_path / "train.py").exists()


def test_stdin_without_a_name_is_shown_as_dash(lint, monkeypatch):
    _stdin(monkeypatch, BUGGY)
    assert lint("-").out.startswith(f"-:{BUGGY_LINE}:{BUGGY_COLUMN}: ZG101 ")


def test_stdin_notebook_by_name(lint, monkeypatch):
    _stdin(monkeypatch, TRAINING)
    result = lint("-", "--stdin-filename", "nb/train.ipynb")
    assert result.out.startswith("nb/train.ipynb:cell 5:3:5: ZG101 ")


def test_stdin_fix_writes_the_fixed_source_to_stdout(tmp_path, lint, monkeypatch):
    _stdin(monkeypatch, BUGGY)
    result = lint("-", "--stdin-filename", "train.py", "--fix")
    assert result.code == 0
    assert result.out.count("optimizer.zero_grad()") == 1
    compile(result.out, "fixed", "exec")
    assert "1 fixed" in result.err  # the report goes to stderr, the source to stdout
    _stdin(monkeypatch, CORRECT)
    assert lint("-", "--fix").out == CORRECT  # nothing to fix: the source unchanged


def test_stdin_follows_the_configuration_of_its_name(tmp_path, lint, monkeypatch):
    write(tmp_path, "proj/pyproject.toml", '[tool.zerograd-guard]\nignore = ["ZG101"]\n')
    _stdin(monkeypatch, BUGGY)
    assert lint("-", "--stdin-filename", "proj/train.py").code == 0
    _stdin(monkeypatch, BUGGY)
    assert lint("-", "--stdin-filename", "other/train.py").code == 1


def test_stdin_cannot_be_mixed_with_paths(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    _stdin(monkeypatch, BUGGY)
    result = lint("-", "bad.py")
    assert result.code == 2 and "stdin" in result.err


# --- errors, fixes ------------------------------------------------------------------


def test_syntax_error_is_a_path_line_col_diagnostic(tmp_path, lint):
    write(tmp_path, "broken.py", "import torch\nfor x in y:\n    loss.backward(\n")
    result = lint("broken.py")
    assert result.code == 2
    assert result.err.startswith("broken.py:4:1: error: syntax error: ")


def test_show_fixes_lists_fixes_per_file_and_code(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("--fix", "--show-fixes", "bad.py")
    assert result.code == 0
    assert "Fixed 1 error:\n- bad.py:\n    1 x ZG101 (gradients-not-cleared)\n" in result.out


def test_fix_only_reports_no_remaining_findings_and_exits_zero(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "nofix.py", BUGGY)
    result = lint("--fix-only", "bad.py")
    assert result.code == 0
    assert FINDING_PREFIX not in result.out and "Fixed 1 error" in result.out
    assert "zero_grad" in (tmp_path / "bad.py").read_text(encoding="utf-8")


def test_exit_non_zero_on_fix(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    assert lint("--fix", "--exit-non-zero-on-fix", "bad.py").code == 1
    assert lint("--fix", "--exit-non-zero-on-fix", "bad.py").code == 0  # nothing left to fix


class UnsafeOnly(Rule):
    code = "XU001"
    name = "toy-unsafe"
    summary = "A toy rule whose fix is unsafe."
    explanation = "Reports `print` with an unsafe fix."

    def check(self, model: object) -> Iterable[Finding]:
        source = getattr(model, "source", "")
        if "print(" in source:
            fix = Fix("drop the print", (Edit(0, 0, "# "),), safe=False)
            yield Finding(self.code, "prints", 1, 1, 1, 2, fix)


class UnsafePlugin:
    @hookimpl
    def zerograd_guard_rules(self) -> Iterable[type[Rule]]:
        return [UnsafeOnly]


def test_hint_when_unsafe_fixes_are_hidden(tmp_path, lint):
    write(tmp_path, "p.py", "print(1)\nloss.backward()\n")
    result = lint("--select", "XU001", "p.py", plugins=(UnsafePlugin(),))
    assert result.code == 1
    assert "1 hidden fix is available with the `--unsafe-fixes` option." in result.out
    shown = lint("--select", "XU001", "--unsafe-fixes", "p.py", plugins=(UnsafePlugin(),))
    assert "hidden" not in shown.out


def test_add_noqa_silences_every_finding_and_keeps_the_file_valid(tmp_path, lint):
    path = write(tmp_path, "bad.py", BUGGY)
    result = lint("--add-noqa", "bad.py")
    assert result.code == 0
    assert "Added 1 noqa comment." in result.err
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[BUGGY_LINE - 1].endswith("loss.backward()  # noqa: ZG101")
    assert text.replace("  # noqa: ZG101", "") == BUGGY
    assert lint("bad.py").code == 0
    lint("--add-noqa", "bad.py")
    assert path.read_text(encoding="utf-8") == text  # idempotent


def test_add_noqa_extends_an_existing_noqa_and_skips_continuations():
    from zerograd_guard.lint.add_noqa import add_noqa
    from zerograd_guard.lint.runner import Reported

    def item(line: int, code: str) -> Reported:
        return Reported("f.py", code, "m", line, 1, line, 2)

    source = "a()  # noqa: ZG102\nb() \\\n  + 1\nc()\n"
    edit = add_noqa(source, [item(1, "ZG101"), item(2, "ZG101"), item(4, "ZG103")])
    assert edit.text == "a()  # noqa: ZG102, ZG101\nb() \\\n  + 1\nc()  # noqa: ZG103\n"
    assert (edit.added, edit.skipped) == (2, 1)


# --- settings, files, excludes, gitignore, cache ----------------------------------------


def test_show_settings_names_the_governing_configuration(tmp_path, lint):
    write(tmp_path, "proj/pyproject.toml", '[tool.zerograd-guard]\nignore = ["ZG103"]\n')
    write(tmp_path, "proj/src/train.py", BUGGY)
    result = lint("--show-settings", "proj/src/train.py")
    assert result.code == 0
    assert f"configuration: {tmp_path / 'proj' / 'pyproject.toml'}" in result.out
    assert "selected rules: ZG101, ZG102, ZG104\n" in result.out
    elsewhere = lint("--show-settings", "other.py").out
    assert "configuration: defaults" in elsewhere


def test_show_files_lists_what_would_be_linted(tmp_path, lint):
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "sub/b.ipynb", TRAINING)
    write(tmp_path, ".venv/pyvenv.cfg", "")
    write(tmp_path, ".venv/lib.py", BUGGY)
    write(tmp_path, "notes.txt", "")
    result = lint("--show-files", ".")
    assert (result.code, result.out) == (0, "a.py\nsub/b.ipynb\n")


def test_extend_exclude_on_the_command_line_and_in_the_config(tmp_path, lint):
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "outputs/2024/train.py", BUGGY)
    write(tmp_path, "legacy/old.py", BUGGY)
    assert lint("--show-files", "--extend-exclude", "outputs,legacy/*.py", ".").out == "a.py\n"
    write(tmp_path, "pyproject.toml", '[tool.zerograd-guard]\nextend-exclude = ["outputs/"]\n')
    assert lint("--show-files", ".").out == "a.py\nlegacy/old.py\n"


def test_dot_slash_patterns_mean_the_same_in_exclude_and_per_file_ignores(tmp_path, lint):
    # Issue 16: two fnmatch matchers disagreed on "./tests/*.py"; one gitignore matcher now.
    write(tmp_path, "tests/test_a.py", BUGGY)
    write(tmp_path, "tests/deep/test_b.py", BUGGY)
    write(
        tmp_path,
        "pyproject.toml",
        '[tool.zerograd-guard.per-file-ignores]\n"./tests/*.py" = ["ZG101"]\n',
    )
    result = lint("-q", ".")
    assert [line.split(":")[0] for line in result.out.splitlines()] == ["tests/deep/test_b.py"]
    write(tmp_path, "pyproject.toml", '[tool.zerograd-guard]\nexclude = ["./tests/*.py"]\n')
    assert lint("--show-files", ".").out == "tests/deep/test_b.py\n"


def test_gitignored_folders_are_skipped_unless_told_otherwise(tmp_path, lint):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, ".gitignore", "wandb/\nlightning_logs\n*.tmp.py\n!keep.tmp.py\n")
    write(tmp_path, "train.py", BUGGY)
    write(tmp_path, "wandb/run-1/files/code/train.py", BUGGY)
    write(tmp_path, "lightning_logs/version_0/train.py", BUGGY)
    write(tmp_path, "scratch.tmp.py", BUGGY)
    write(tmp_path, "keep.tmp.py", BUGGY)
    write(tmp_path, "sub/.gitignore", "outputs/\n")
    write(tmp_path, "sub/outputs/x.py", BUGGY)
    write(tmp_path, "sub/y.py", BUGGY)
    assert lint("--show-files", ".").out == "keep.tmp.py\nsub/y.py\ntrain.py\n"
    assert lint("--show-files", "sub").out == "sub/y.py\n"  # parents' .gitignore applies
    everything = lint("--show-files", "--no-respect-gitignore", ".").out.splitlines()
    assert len(everything) == 7
    # A file named on the command line is linted all the same.
    assert lint("wandb/run-1/files/code/train.py").code == 1


def test_cache_dir_from_the_environment_and_the_config(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    monkeypatch.setenv("ZEROGRAD_LINT_CACHE_DIR", str(tmp_path / "env-cache"))
    lint("bad.py")
    assert (tmp_path / "env-cache").is_dir()
    monkeypatch.delenv("ZEROGRAD_LINT_CACHE_DIR")
    write(tmp_path, "pyproject.toml", '[tool.zerograd-guard]\ncache-dir = "build-cache"\n')
    lint("bad.py")
    assert (tmp_path / "build-cache").is_dir()
    assert not (tmp_path / ".zerograd_cache").exists()


@pytest.mark.parametrize("table", ["zerograd-lint", "zerograd_guard", "zerograd"])
def test_a_misnamed_table_is_warned_about(tmp_path, lint, table):
    write(tmp_path, "pyproject.toml", f'[tool.{table}]\nignore = ["ZG101"]\n')
    write(tmp_path, "bad.py", BUGGY)
    result = lint("bad.py")
    assert result.code == 1
    assert f"warning: [tool.{table}] is not read; the table is [tool.zerograd-guard]" in result.err


# --- rules listing --------------------------------------------------------------------


def _main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    from zerograd_guard.lint.cli import main

    code = main(list(argv))
    return code, capsys.readouterr().out


def test_rules_lists_every_rule(capsys):
    from zerograd_guard.lint.rules import BUILTIN_RULES

    code, out = _main(capsys, "rules")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["code", "name", "fix", "summary"]
    for rule in BUILTIN_RULES:
        [line] = [line for line in lines if line.startswith(rule.code)]
        assert rule.name in line and rule.summary in line
    rows = json.loads(_main(capsys, "rules", "--output-format", "json")[1])
    assert {row["code"]: row["fixable"] for row in rows} == {
        "ZG101": True,
        "ZG102": True,
        "ZG103": False,
        "ZG104": False,
    }
    assert all(row["url"].endswith(f"/rules/{row['code'].lower()}/") for row in rows)


# --- formats ---------------------------------------------------------------------------


def test_full_format_shows_the_line_and_a_caret(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    lines = lint("--output-format", "full", "bad.py").out.splitlines()
    assert lines[0].startswith(FINDING_PREFIX)
    assert lines[1].strip() == "|"
    assert lines[2] == f"{BUGGY_LINE} |         loss.backward()"
    caret = lines[3]
    assert caret.index("^") == lines[2].index("loss")
    assert caret.count("^") == len("loss.backward()")
    assert lint("--output-format", "concise", "bad.py").out == lint("bad.py").out


def test_gitlab_code_quality_report_validates(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "copy.py", BUGGY)
    write(tmp_path, "nb.ipynb", TRAINING)
    issues = json.loads(lint("--output-format", "gitlab", ".").out)
    schema = json.loads((DATA / "gitlab-codequality.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(issues, schema)
    assert {issue["location"]["path"] for issue in issues} == {"bad.py", "copy.py", "nb.ipynb"}
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    [bad] = [issue for issue in issues if issue["location"]["path"] == "bad.py"]
    assert (bad["check_name"], bad["location"]["lines"]["begin"]) == ("ZG101", BUGGY_LINE)
    # The fingerprint survives lines added above the finding.
    write(tmp_path, "bad.py", "# a comment\n" + BUGGY)
    moved = json.loads(lint("--output-format", "gitlab", "bad.py").out)[0]
    assert moved["fingerprint"] == bad["fingerprint"]


def test_junit_report_is_read_by_a_junit_consumer(tmp_path, lint):
    junitparser = pytest.importorskip("junitparser")
    write(tmp_path, "bad.py", BUGGY)
    write(tmp_path, "ok.py", CORRECT)
    write(tmp_path, "broken.py", "loss.backward(\n")
    result = lint("--output-format", "junit", "-o", "report.xml", ".")
    assert result.code == 2
    xml = junitparser.JUnitXml.fromfile(str(tmp_path / "report.xml"))
    [suite] = list(xml)
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 1)
    cases = {case.name: case for case in suite}
    assert cases["ok.py"].is_passed
    [failure] = cases["bad.py"].result
    assert isinstance(failure, junitparser.Failure) and failure.type == "ZG101"
    assert FINDING_PREFIX in failure.text
    [error] = cases["broken.py"].result
    assert isinstance(error, junitparser.Error)


def test_sarif_results_carry_fixes(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    log = json.loads(lint("--output-format", "sarif", "bad.py").out)
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(log, schema)
    [result] = log["runs"][0]["results"]
    [fix] = result["fixes"]
    [change] = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "bad.py"
    [replacement] = change["replacements"]
    assert "zero_grad()" in replacement["insertedContent"]["text"]
    assert replacement["deletedRegion"]["startLine"] >= BUGGY_LINE
