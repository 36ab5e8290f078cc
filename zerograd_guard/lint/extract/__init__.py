"""Syntax tree -> event model.

* ``names`` — expression keys (``self.opt``), name patterns, condition atoms.
* ``walker`` — one traversal of the libcst tree building each function's model.
* ``resolve`` — decides what names hold (optimizer, scaler, engine, module) and turns raw
  method calls into backward / clear / step / call events.
* ``positions`` — line, column and offsets of the few nodes that are reported.
"""

from zerograd_guard.lint.extract.resolve import resolve_module
from zerograd_guard.lint.extract.walker import build_model

__all__ = ["build_model", "resolve_module"]
