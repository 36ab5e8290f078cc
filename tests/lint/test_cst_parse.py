"""The unvalidated parse (``lint.cst_parse``) builds the same trees as libcst's, and
leaves validation on for every node built outside it."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst._nodes.base import CSTNode

from zerograd_guard.lint import cst_parse

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    path
    for folder in ("examples", "tests/lint/cases", "tests/lint/real_world")
    for path in (ROOT / folder).rglob("*.py")
)


def test_the_corpus_is_there() -> None:
    assert len(FILES) > 150


def test_trees_equal_the_validated_parse_on_every_corpus_file() -> None:
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        tree = cst_parse.parse_module(text)
        assert tree.deep_equals(cst.parse_module(text)), path
        assert tree.code == text, path


def test_validation_is_back_after_a_parse_and_after_a_failed_one() -> None:
    validate = CSTNode.__post_init__
    cst_parse.parse_module("x = 1\n")
    with pytest.raises(cst.ParserSyntaxError):
        cst_parse.parse_module("def (:\n")
    assert CSTNode.__post_init__ is validate
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")  # validated: an empty name is not a name
