"""Guard the Python processes a guarded test or ``zerograd-guard run`` starts.

Like pytest-cov for coverage: while a :class:`Propagation` is open, Python children
(``subprocess``, ``multiprocessing``, ``torch.multiprocessing.spawn``, and their
children) run the guard too, in the same mode, and their findings come back to the
parent through a report directory. See ``docs/runtime-engines.md``.
"""

from zerograd_guard.children.propagation import Propagation, start_propagation
from zerograd_guard.children.records import ChildRecord, ChildViolation

__all__ = ["ChildRecord", "ChildViolation", "Propagation", "start_propagation"]
