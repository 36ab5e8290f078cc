"""One registry of codes: the rules, the runtime messages and SARIF read the same names and URLs."""

from __future__ import annotations

import subprocess
import sys

from zerograd_guard.codes import CODES, docs_url
from zerograd_guard.lint.formats.sarif import help_uri
from zerograd_guard.lint.rules import BUILTIN_RULES


def test_every_builtin_rule_takes_its_name_and_summary_from_the_registry():
    assert sorted(rule.code for rule in BUILTIN_RULES) == sorted(CODES)
    for rule in BUILTIN_RULES:
        assert (rule.name, rule.summary) == (CODES[rule.code].name, CODES[rule.code].summary)
        assert help_uri(rule.code) == CODES[rule.code].url == docs_url(rule.code)
        assert CODES[rule.code].url.endswith(f"/rules/{rule.code.lower()}/")


def test_runtime_messages_link_the_registry_url():
    from zerograd_guard.runtime.codes import MISSING_CLEAR

    assert MISSING_CLEAR.docs == CODES["ZG101"].url


def test_the_registry_imports_neither_torch_nor_libcst():
    code = (
        "import sys, zerograd_guard.codes\n"
        "assert 'torch' not in sys.modules and 'libcst' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
