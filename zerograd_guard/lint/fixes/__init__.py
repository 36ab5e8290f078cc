"""Safe fixes: insert a clear after a step (ZG101), move a clear after the step (ZG102).

Fixes are built only when both statements are whole lines of the same function, so the
edit is local and its effect is the one the finding describes. Edits are character
offsets into the analysed source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerograd_guard.lint.findings import Edit, Fix

if TYPE_CHECKING:
    # Type-only: a warm cached run never parses, so it must not pay for importing libcst.
    import libcst as cst

    from zerograd_guard.lint.model.analysed import AnalyzedModule
    from zerograd_guard.lint.model.events import Event


def _newline(statement: cst.SimpleStatementLine, module: cst.Module) -> str:
    return statement.trailing_whitespace.newline.value or module.default_newline


def _line_end(analysed: AnalyzedModule, statement: cst.SimpleStatementLine) -> tuple[int, str]:
    """Offset just after the statement's line, and a prefix needed when it ends the file
    without a newline."""
    end = analysed.span(statement).end_offset
    if end > len(analysed.source) or not analysed.source[:end].endswith(("\n", "\r")):
        return min(end, len(analysed.source)), _newline(statement, analysed.module)
    return end, ""


def _expression(key: str) -> str | None:
    """The optimizer's name as code, when it is a plain name or attribute chain."""
    if key in ("*", "<manual>") or ":" in key or key.endswith(".grad"):
        return None
    return key if all(part.isidentifier() for part in key.split(".")) else None


def insert_clear_after_step(analysed: AnalyzedModule, backward: Event, step: Event) -> Fix | None:
    statement = step.statement
    if statement is None or step.function is not backward.function or len(step.optimizers) != 1:
        return None
    if analysed.is_foreign(step.node):
        return None  # another module's code: not edited from this file
    name = _expression(step.optimizers[0])
    if name is None:
        return None
    analysed.positions.compute([statement])
    indent = analysed.span(statement).indent
    end, prefix = _line_end(analysed, statement)
    text = f"{prefix}{indent}{name}.zero_grad(){_newline(statement, analysed.module)}"
    if prefix:
        text = text[: -len(_newline(statement, analysed.module))]
    return Fix(
        description=f"Insert `{name}.zero_grad()` after the step",
        edits=(Edit(end, end, text),),
    )


def move_clears_after_step(analysed: AnalyzedModule, clears: set[Event], step: Event) -> Fix | None:
    """Move every clear that runs between the backward and ``step`` to the line after the
    step (in their order), when all of them are whole lines of the step's block."""
    target = step.statement
    if target is None or step.block is None or analysed.is_foreign(step.node):
        return None
    ordered = sorted(clears, key=lambda clear: clear.block or (0, 0))
    for clear in ordered:
        statement = clear.statement
        if (
            statement is None
            or clear.function is not step.function
            or clear.block is None
            or clear.block[0] != step.block[0]
            or clear.block[1] >= step.block[1]
            or len(statement.body) != 1
        ):
            return None
    statements = [clear.statement for clear in ordered]
    for statement in statements:
        assert statement is not None
        analysed.positions.anchor(statement.body[0], statement)  # placed from its line
    analysed.positions.compute(
        [target, *statements, *(s.body[0] for s in statements if s is not None)]
    )
    edits: list[Edit] = []
    moved: list[str] = []
    for statement in statements:
        assert statement is not None
        first = analysed.span(statement.body[0])
        indent = analysed.span(statement).indent
        clear_end, _ = _line_end(analysed, statement)
        edits.append(Edit(first.start_offset - len(indent), clear_end, ""))
        moved.append(indent + analysed.source[first.start_offset : clear_end])
    step_end, prefix = _line_end(analysed, target)
    text = prefix + "".join(moved)
    if prefix:
        text = text.rstrip("\r\n")
    edits.append(Edit(step_end, step_end, text))
    return Fix(description="Move the clear to right after the step", edits=tuple(edits))
