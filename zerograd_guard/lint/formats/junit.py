"""``--output-format junit``: JUnit XML, one test case per linted file.

A file with findings is a failed test case whose ``failure`` elements list them
(one per finding: the ``message`` attribute is ``CODE message``, the text
``path:line:col: CODE message`` and the fix hint as ``help: ...`` on the next line,
:mod:`zerograd_guard.lint.formats.help`); a file that could not be checked
is an ``error``; a clean file is a passing case. CI systems that show test reports
(Jenkins, GitLab, Azure) then show lint results next to the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree

from zerograd_guard.lint.formats.help import help_text
from zerograd_guard.lint.formats.text import location
from zerograd_guard.lint.runner import FileResult

SUITE_NAME = "zerograd-lint"


def _clean(text: str) -> str:
    # XML 1.0 cannot hold most control characters, nor lone surrogates.
    return "".join(
        char
        if char in "\t\n\r" or (char >= " " and not "\ud800" <= char <= "\udfff")
        else f"\\x{ord(char):02x}"
        for char in text
    )


def render(results: Sequence[FileResult]) -> str:
    failures = sum(1 for result in results if result.reported)
    errors = sum(1 for result in results if result.error)
    suite = ElementTree.Element(
        "testsuite",
        name=SUITE_NAME,
        tests=str(len(results)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
    )
    for result in results:
        case = ElementTree.SubElement(
            suite, "testcase", classname=SUITE_NAME, name=_clean(result.path)
        )
        if result.error:
            error = ElementTree.SubElement(case, "error", message=_clean(result.error))
            error.text = _clean(f"{result.path}: error: {result.error}")
        for item in result.reported:
            failure = ElementTree.SubElement(
                case, "failure", message=_clean(f"{item.code} {item.message}"), type=item.code
            )
            hint = help_text(item)
            text = f"{location(item)}: {item.code} {item.message}"
            failure.text = _clean(text + (f"\nhelp: {hint}" if hint else ""))
    root = ElementTree.Element("testsuites", name=SUITE_NAME)
    root.append(suite)
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
