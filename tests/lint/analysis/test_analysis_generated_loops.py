"""Random training loops built from the patterns the analysis knows: it never fails, and
applying its fixes always gives code that parses, and repeated fixing converges."""

from __future__ import annotations

import libcst as cst
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zg_expectations import apply_edits

from zerograd_guard.lint.analyze import analyze_source

SIMPLE = [
    "opt.zero_grad()",
    "loss.backward()",
    "opt.step()",
    "model.zero_grad(set_to_none=True)",
    "scaler.step(opt)",
    "scaler.scale(loss).backward()",
    "x = f(i)",
    "log(i)",
]
WRAPPERS = [
    "if (i + 1) % k == 0:",
    "if i % k == 0:",
    "if sync:",
    "for j in range(3):",
    "while cond(i):",
    "with torch.no_grad():",
    "try:",
]


@st.composite
def blocks(draw, depth: int = 0) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.booleans()):
            header = draw(st.sampled_from(WRAPPERS))
            body = draw(blocks(depth + 1))
            lines.append(header)
            lines.extend("    " + line for line in body)
            if header == "try:":
                lines.extend(["finally:", "    log(i)"])
            elif header.startswith(("for", "while")) and draw(st.booleans()):
                lines[-1:] = [lines[-1], "    " + draw(st.sampled_from(["break", "continue"]))]
        else:
            lines.append(draw(st.sampled_from(SIMPLE)))
    return lines


def program(body: list[str]) -> str:
    return "for i, batch in enumerate(loader):\n" + "".join(f"    {line}\n" for line in body)


def fix_round(source: str) -> str:
    findings = analyze_source(source)
    edits = {edit for finding in findings if finding.fix for edit in finding.fix.edits}
    return apply_edits(source, tuple(edits))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(blocks())
def test_generated_loops_analyse_and_fix_cleanly(body: list[str]) -> None:
    source = program(body)
    # a fix may uncover a finding the fixed one masked (a clear between backward and step
    # hides a leak); rounds of fixes converge, and every round parses
    for _ in range(4):
        fixed = fix_round(source)
        cst.parse_module(fixed)
        if fixed == source:
            break
        source = fixed
    assert not any(finding.fix for finding in analyze_source(source))
