"""The runtime guard links the same rule pages as the linter (R4)."""

from __future__ import annotations

import pytest

from zerograd_guard.lint.formats.sarif import help_uri
from zerograd_guard.runtime import codes

RULE_TEXTS = [value for value in vars(codes).values() if isinstance(value, codes.RuleText)]


@pytest.mark.parametrize("rule", [rule for rule in RULE_TEXTS if rule.code.startswith("ZG")])
def test_runtime_docs_link_is_the_linters(rule):
    assert rule.docs == help_uri(rule.code)
    assert f"/rules/{rule.code.lower()}/" in rule.docs
