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
