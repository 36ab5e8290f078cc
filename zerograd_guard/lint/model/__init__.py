"""The event model: what the extractor finds in a source text and the flow check reads.

* ``events`` — the statements of the model: events (backward, clear, step, calls that may
  hold them) and the control structure around them (if, loops, try, jumps).
* ``program`` — functions, classes and the module that hold those statements.
* ``analysed`` — ``AnalyzedModule``, what a rule's ``check()`` receives.
"""

from zerograd_guard.lint.model.events import (
    ALL,
    MANUAL,
    Atom,
    Event,
    EventKind,
    If,
    Jump,
    Loop,
    Statement,
    Try,
)
from zerograd_guard.lint.model.program import ClassInfo, FunctionModel, ModuleModel

__all__ = [
    "ALL",
    "MANUAL",
    "Atom",
    "ClassInfo",
    "Event",
    "EventKind",
    "FunctionModel",
    "If",
    "Jump",
    "Loop",
    "ModuleModel",
    "Statement",
    "Try",
]
