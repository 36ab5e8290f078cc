"""Python 3.6 training code (``x.cuda(async=True)``) is checked, and fixed as written."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import BUGGY, BUGGY_COLUMN, BUGGY_LINE, write

from zerograd_guard.lint.legacy_syntax import mask_legacy_syntax

OLD_BUGGY = BUGGY.replace(
    "        loss = torch.nn", "        y = y.cuda(async=True)\n        loss = torch.nn"
)
OLD_LINE = BUGGY_LINE + 1


def test_mask_keeps_every_offset_and_leaves_strings_comments_and_comparisons() -> None:
    text = (
        "x = y.cuda(async=True)\n"
        "z = f(a, async = True)\r\n"
        's = "async=1"  # async=2\n'
        "if async == 3:\n"
        "    pass\n"
        "async def g():\n"
        "    pass\n"
    )
    masked = mask_legacy_syntax(text)
    assert len(masked) == len(text)
    assert masked.splitlines() == [
        "x = y.cuda(_sync=True)",
        "z = f(a, _sync = True)",
        's = "async=1"  # async=2',
        "if async == 3:",
        "    pass",
        "async def g():",
        "    pass",
    ]


def test_text_without_the_shape_is_returned_as_it_is() -> None:
    text = "async def g():\n    await h(timeout=1)\n"
    assert mask_legacy_syntax(text) is text


def test_an_old_training_file_is_checked(lint, tmp_path: Path) -> None:
    write(tmp_path, "old.py", OLD_BUGGY)
    run = lint("old.py", "--no-cache")
    assert run.code == 1
    assert run.out.startswith(f"old.py:{OLD_LINE}:{BUGGY_COLUMN}: ZG101")


def test_the_fix_keeps_the_file_as_written(lint, tmp_path: Path) -> None:
    path = write(tmp_path, "old.py", OLD_BUGGY)
    run = lint("old.py", "--no-cache", "--fix")
    fixed = path.read_text(encoding="utf-8")
    assert run.code == 0
    assert "y.cuda(async=True)" in fixed and "_sync" not in fixed
    assert "optimizer.zero_grad()" in fixed


def test_an_old_helper_module_is_followed_in_project_mode(lint, tmp_path: Path) -> None:
    write(
        tmp_path,
        "pkg/steps.py",
        "def train_step(model, optimizer, x, y):\n"
        "    x = x.cuda(async=True)\n"
        "    loss = ((model(x) - y) ** 2).mean()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n",
    )
    write(tmp_path, "pkg/__init__.py", "")
    write(
        tmp_path,
        "pkg/train.py",
        "from pkg.steps import train_step\n"
        "\n"
        "\n"
        "def fit(model, optimizer, loader):\n"
        "    for x, y in loader:\n"
        "        train_step(model, optimizer, x, y)\n",
    )
    run = lint("pkg", "--no-cache")
    assert run.code == 1, run.err
    assert "pkg/train.py:6:9: ZG101" in run.out
