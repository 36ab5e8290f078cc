"""Output formats: text (sorted, deterministic), json, github, statistics, colour."""

from __future__ import annotations

import json

from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE, CORRECT, write

from zerograd_guard.lint.formats.github import escape_data, escape_property


def test_text_output_is_sorted_by_path_line_column(tmp_path, lint):
    for name in ("b.py", "a.py", "sub/c.py"):
        write(tmp_path, name, BUGGY)
    write(tmp_path, "clean.py", CORRECT)
    result = lint(".")
    assert result.code == 1
    lines = result.out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["a.py", "b.py", "sub/c.py"]
    assert lines[0].startswith(f"a.py:{BUGGY_LINE}:{BUGGY_COLUMN}: ZG101 ")
    assert lines[-1] == "Found 3 errors." or lines[-2] == "Found 3 errors."
    assert "clean.py" not in result.out


def test_clean_run_says_all_checks_passed(tmp_path, lint):
    write(tmp_path, "ok.py", CORRECT)
    result = lint("ok.py")
    assert (result.code, result.out) == (0, "All checks passed!\n")


def test_two_identical_runs_print_identical_output(tmp_path, lint):
    for index in range(5):
        write(tmp_path, f"m{index}.py", BUGGY)
    assert lint(".", "--no-cache").out == lint(".", "--no-cache").out


def test_json_has_the_documented_fields(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("--format", "json", "bad.py")
    assert result.code == 1
    [item] = json.loads(result.out)
    assert item["path"] == "bad.py"
    assert (item["line"], item["column"], item["code"]) == (BUGGY_LINE, BUGGY_COLUMN, "ZG101")
    assert item["end_line"] >= item["line"] and item["end_column"] >= 1
    assert item["cell"] is None
    assert "optimizer" in item["message"]
    assert set(item) == {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "message",
        "name",
        "url",
        "help",
        "cell",
        "fix",
    }
    # Issue 16: the rule's name and docs URL, and the fix hint apart from the message.
    assert item["name"] == "gradients-not-cleared"
    assert item["url"].endswith("/rules/zg101/")
    # The finding's own hint (issue 16, message / help split), not the fix's generic wording.
    assert item["help"] == "Call `optimizer.zero_grad()` right after the step at line 11"
    assert item["help"] not in item["message"]


def test_json_on_a_clean_file_is_an_empty_array(tmp_path, lint):
    write(tmp_path, "ok.py", CORRECT)
    result = lint("--format", "json", "ok.py")
    assert (result.code, json.loads(result.out)) == (0, [])


def test_github_annotations(tmp_path, lint):
    write(tmp_path, "bad.py", BUGGY)
    result = lint("--format", "github", "bad.py")
    assert result.code == 1
    [line] = result.out.splitlines()
    assert line.startswith(
        f"::error file=bad.py,line={BUGGY_LINE},col={BUGGY_COLUMN},endLine={BUGGY_LINE},"
    )
    assert ",title=zerograd-lint (ZG101)::" in line


def test_github_escaping():
    assert escape_data("50% done\nnext\r") == "50%25 done%0Anext%0D"
    assert escape_property("a,b:c\n") == "a%2Cb%3Ac%0A"


def test_statistics_counts_per_code(tmp_path, lint):
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "b.py", BUGGY)
    result = lint("--statistics", ".")
    assert result.code == 1
    first = result.out.splitlines()[0].split("\t")
    assert (first[0].strip(), first[1]) == ("2", "ZG101")
    assert "a.py" not in result.out


def test_statistics_as_json(tmp_path, lint):
    write(tmp_path, "a.py", BUGGY)
    write(tmp_path, "b.py", BUGGY)
    result = lint("--statistics", "--format", "json", ".")
    assert result.code == 1
    assert json.loads(result.out) == [
        {"code": "ZG101", "name": "gradients-not-cleared", "count": 2, "fixable": True}
    ]


def test_statistics_with_sarif_or_github_is_a_usage_error(tmp_path, lint):
    write(tmp_path, "a.py", BUGGY)
    for output in ("sarif", "github"):
        result = lint("--statistics", "--format", output, ".")
        assert (result.code, result.out) == (2, "")
        assert result.err == f"error: --statistics works with --format text or json, not {output}\n"


def test_no_colour_when_not_a_tty_or_no_color(tmp_path, lint, monkeypatch):
    write(tmp_path, "bad.py", BUGGY)
    assert "\x1b[" not in lint("bad.py").out
    monkeypatch.setattr("zerograd_guard.lint.cli.use_colour", lambda choice, stream: True)
    assert "\x1b[" in lint("bad.py").out


def test_colour_rules():
    from zerograd_guard.lint.console import use_colour

    class Tty:
        def isatty(self) -> bool:
            return True

    assert use_colour("auto", Tty(), {})
    assert not use_colour("auto", Tty(), {"NO_COLOR": "1"})


def test_version_and_explain(lint):
    from zerograd_guard import __version__
    from zerograd_guard.lint.rules import BUILTIN_RULES

    result = lint("--version")
    assert (result.code, result.out.strip()) == (0, f"zerograd-lint {__version__}")
    for rule in BUILTIN_RULES:
        explained = lint("--explain", rule.code.lower())
        assert explained.code == 0
        assert explained.out.startswith(f"# {rule.code}: {rule.name}")
        assert rule.summary in explained.out


def test_explain_unknown_code_is_a_usage_error(lint):
    result = lint("--explain", "ZG999")
    assert result.code == 2
    assert result.err.startswith("error: unknown rule code 'ZG999'")
    assert "Traceback" not in result.err


def test_python_dash_m_entry_point(tmp_path):
    import subprocess
    import sys

    write(tmp_path, "bad.py", BUGGY)
    completed = subprocess.run(
        [sys.executable, "-m", "zerograd_guard.lint", "--no-cache", "bad.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"NO_COLOR": "1", "PATH": ""},
        check=False,
    )
    assert completed.returncode == 1
    assert completed.stdout.startswith(f"bad.py:{BUGGY_LINE}:{BUGGY_COLUMN}: ZG101")
