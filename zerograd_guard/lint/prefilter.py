"""The text pre-filters: which files need parsing at all. Import no parser.

A finding needs a backward event (ZG101 a backward whose gradients a later step adds to,
ZG102 the fresh gradients of a backward discarded before a step, ZG103 gradients
accumulated by backwards over a window), and the extractor makes a backward event only
of a call whose function is a name or an attribute named ``backward``,
``manual_backward`` or a configured / plugin-contributed backward name.

* ``may_contain_backward``: the name occurs anywhere (the whole-file path, and runs
  with plugin rules, which may look at any file the old filter let through);
* ``may_call_backward``: the name occurs as a word followed by ``(``. Between a call's
  function and its ``(`` Python allows only whitespace, newlines inside brackets,
  comments and line continuations, so a word followed by anything else (``_hook``,
  ``=``, ``.``, ``,``) is not such a call. The occurrence may still be inside a string
  or a comment: ``regions`` tells those apart.

A framework that runs the backward around its users' hook methods (fastai's callbacks,
``HookedIteration``) brings its own backward: a file with a class of that framework and
no backward call can still hold a finding, but only through a clear of its own (a
ZG102 before the framework's step, a ZG103; a step alone sees fresh gradients or
applies them again, which no rule reports, and a leak needs the file's own backward):
``may_drive_hooks`` lets such files through when they name the framework's package and
class and may clear.
"""

from __future__ import annotations

import re
from functools import lru_cache

from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions

BACKWARD_MARKER = "backward"
# A call the extractor takes as freezing a model file-wide (``freeze_bn()``,
# ``set_requires_grad(net, False)``, ``toggle_optimizer(opt)``), matched in its name.
FREEZING_CALL = re.compile(r"freeze|requires_grad(?!_$)|toggle_optimizer", re.I)
# Text that may hold such a call, or a ``requires_grad_`` / ``requires_grad =`` freeze.
MAY_FREEZE = re.compile(r"freeze|requires_grad|toggle_optimizer", re.I)
BUILTIN_BACKWARD_CALLS = frozenset({"backward", "manual_backward"})


def backward_names(options: AnalysisOptions = DEFAULT_OPTIONS) -> frozenset[str]:
    """Every call name the extractor turns into a backward event."""
    return BUILTIN_BACKWARD_CALLS | options.extra_backward_calls


@lru_cache(maxsize=256)
def _call_pattern(name: str) -> re.Pattern[str]:
    # Starts with the literal name (a lookbehind or an alternation first would make the
    # regex engine try every position: ~30x slower); the word start is checked after.
    # a closing parenthesis may come between: ``(loss.backward)()`` calls it too
    return re.compile(rf"{re.escape(name)}(?!\w)(?:\s|#[^\r\n]*+|\\|\))*\(")


def has_backward_call(text: str, names: frozenset[str]) -> bool:
    """Whether a word in ``names`` is followed by ``(``, with only whitespace, comments,
    line continuations and closing parentheses between. A name right after a letter, digit or
    ``_`` is part of a longer word (``manual_backward`` is a name of its own); any other
    character before it, a combining mark say, counts as a word start: a maybe."""
    for name in names:
        for match in _call_pattern(name).finditer(text):
            start = match.start()
            before = text[start - 1] if start else " "
            if not (before.isalnum() or before == "_"):
                return True
    return False


def may_contain_backward(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> bool:
    """False only when ``text`` cannot contain a backward call (built-in or configured)
    nor be driven by a framework's backward (``may_drive_hooks``); files for which this
    is False cannot produce a finding and need not be parsed."""
    return (
        BACKWARD_MARKER in text
        or any(name in text for name in options.extra_backward_calls)
        or may_drive_hooks(text, options)
    )


def may_call_backward(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> bool:
    """False only when no backward name in ``text`` is followed by a call's ``(`` and
    no framework's backward may drive it (``may_drive_hooks``)."""
    if may_drive_hooks(text, options):
        return True
    if not may_contain_backward(text, options):  # a substring test is cheaper than a regex
        return False
    return has_backward_call(text, backward_names(options))


def may_step(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> bool:
    """False only when ``text`` can hold no step, clear or write of ``.grad``: every one
    the extractor makes names ``step`` or ``grad`` (``zero_grad``, ``ClearGrad``,
    ``p.grad = None``, ``optimizer_step``), case aside, or is ``_foreach_zero_`` or a
    configured name."""
    lowered = text.lower()
    return (
        "step" in lowered
        or "grad" in lowered
        or "_foreach_zero_" in lowered
        or any(name in text for name in options.extra_step_calls)
        or any(name in text for name in options.extra_clear_calls)
    )


def may_drive_hooks(text: str, options: AnalysisOptions = DEFAULT_OPTIONS) -> bool:
    """Whether a framework that runs its own backward around hook methods may drive a
    class of ``text``: it names the framework's package and class. (A class that clears
    nothing still records what the framework's step sees, which other findings read; a
    clear may be spelled in ways no marker sees: ``(p.  # comment`` then ``grad) = None``.)"""
    return any(spec.package in text and spec.base in text for spec in options.hooked_iterations)
