"""``# noqa`` on the reported line and the file-level ``# zerograd: noqa``."""

from __future__ import annotations

import pytest
from cli_helpers import BUGGY, BUGGY_LINE, write

from zerograd_guard.lint.noqa import file_opted_out, line_suppressions


def _with_comment(comment: str) -> str:
    lines = BUGGY.splitlines(keepends=True)
    lines[BUGGY_LINE - 1] = lines[BUGGY_LINE - 1].rstrip("\n") + f"  {comment}\n"
    return "".join(lines)


@pytest.mark.parametrize(
    ("comment", "suppressed"),
    [
        ("# noqa", True),
        ("# noqa: ZG101", True),
        ("# NOQA:ZG101,ZG102", True),
        ("# noqa: ZG1", True),
        ("# noqa: ZG102", False),
        ("# no qa", False),
    ],
)
def test_line_noqa(tmp_path, lint, comment, suppressed):
    write(tmp_path, "loop.py", _with_comment(comment))
    assert lint("loop.py").code == (0 if suppressed else 1)


def test_noqa_on_another_line_does_not_suppress(tmp_path, lint):
    source = BUGGY.replace("optimizer.step()", "optimizer.step()  # noqa: ZG101")
    write(tmp_path, "loop.py", source)
    assert lint("loop.py").code == 1


def test_file_level_opt_out(tmp_path, lint):
    write(tmp_path, "loop.py", "# zerograd: noqa\n" + BUGGY)
    assert lint("loop.py").code == 0
    assert file_opted_out("x = 1\n  # zerograd: noqa\n")
    assert not file_opted_out("x = 1  # zerograd: noqa\n")


def test_parsing_of_codes():
    parsed = line_suppressions("a\nb  # noqa: ZG101, ZG102\nc  # noqa\n")
    assert parsed[2] == frozenset({"ZG101", "ZG102"})
    assert 3 in parsed and 1 not in parsed


# Read with the tokenizer: only real comments count, a typo never widens a code.


def test_noqa_inside_a_string_does_not_suppress(tmp_path, lint):
    source = BUGGY.replace("loss.backward()", "loss.backward(); note = '# noqa'")
    write(tmp_path, "loop.py", source)
    assert lint("loop.py").code == 1


def test_malformed_code_is_not_read_as_a_prefix(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment("# noqa: ZG1O2"))  # the letter O
    run = lint("loop.py")
    assert run.code == 1
    assert f"loop.py:{BUGGY_LINE}: warning: malformed code 'ZG1O2'" in run.err


def test_codes_without_the_colon_warn_and_act_as_a_bare_noqa(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment("# noqa ZG102"))
    run = lint("loop.py")
    assert run.code == 0  # ruff's rule: a bare noqa, with a warning
    assert f"loop.py:{BUGGY_LINE}: warning: `# noqa ZG102` lacks a colon" in run.err


def test_unknown_code_warns_and_other_tools_codes_do_not(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment("# noqa: E501, ZG109"))
    run = lint("loop.py")
    assert run.code == 1
    assert run.err == f"loop.py:{BUGGY_LINE}: warning: unknown code ZG109 in `# noqa`\n"


def test_explanation_after_the_codes(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment("# noqa: ZG101 warm-up loop, cleared by the caller"))
    run = lint("loop.py")
    assert (run.code, run.err) == (0, "")


def test_file_level_opt_out_with_codes_honours_them(tmp_path, lint):
    write(tmp_path, "loop.py", "# zerograd: noqa: ZG102\n" + BUGGY)
    assert lint("loop.py").code == 1  # ZG101 is still reported
    write(tmp_path, "loop.py", "# zerograd: noqa: ZG101\n" + BUGGY)
    assert lint("loop.py").code == 0


def test_file_level_opt_out_inside_a_docstring_does_not_count(tmp_path, lint):
    write(tmp_path, "loop.py", '"""\n# zerograd: noqa\n"""\n' + BUGGY)
    assert lint("loop.py").code == 1


def test_other_tools_codes_without_the_colon_act_as_a_bare_noqa_silently(tmp_path, lint):
    write(tmp_path, "loop.py", _with_comment("# noqa C901"))
    assert (lint("loop.py").code, lint("loop.py").err) == (0, "")
    write(tmp_path, "loop.py", _with_comment("# noqa: E1O1, ZG101"))  # not ours: no warning
    run = lint("loop.py")
    assert (run.code, run.err) == (0, "")
