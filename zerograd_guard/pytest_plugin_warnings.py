"""The guard's warnings in a pytest test: each distinct finding once, with its repeats.

A bug in a loop warns at every optimizer step; pytest would list one warning per step
(seven for a seven-step loop). During a guarded test the guard's warnings that reach
display are held back (by replacing ``warnings.showwarning``, which the warnings module
documents as replaceable); at the end of the test each distinct finding is warned once,
at its first step's line, with "also at N later step(s): ..." (the folding of
``zerograd-guard run``, :mod:`zerograd_guard.folding`).

Warning filters keep their meaning: ``-W error::zerograd_guard.GradientGuardWarning``
still raises at the step (filters act before display), ``ignore`` still hides them, and
``pytest.warns`` inside the test records each warning itself (it installs its own
``showwarning``), so those are not warned again.
"""

from __future__ import annotations

import warnings
from typing import Any

from zerograd_guard.folding import fold_repeats

# The warnings module's own display function: while it is installed, a warning shown
# goes to ``_showwarnmsg_impl``, which pytest's capture (catch_warnings(record=True))
# points at its per-test log.
_STOCK_SHOWWARNING = getattr(warnings, "_showwarning_orig", None)


class HeldWarnings:
    """Holds back the guard's warnings from install until :meth:`release`."""

    def __init__(self, category: type[Warning]) -> None:
        self._category = category
        self._held: list[tuple[str, str, int]] = []  # (text, filename, line), in order
        self._previous = warnings.showwarning
        self._active = _STOCK_SHOWWARNING is not None and hasattr(warnings, "_showwarnmsg_impl")
        if self._active:
            warnings.showwarning = self._show

    def _show(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        if issubclass(category, self._category):
            self._held.append((str(message), filename, lineno))
        elif self._previous is not _STOCK_SHOWWARNING:
            self._previous(message, category, filename, lineno, file, line)
        else:  # what the warnings module does with its own showwarning in place
            shown = warnings.WarningMessage(message, category, filename, lineno, file, line)
            warnings._showwarnmsg_impl(shown)  # type: ignore[attr-defined]

    def release(self, findings: list[Any]) -> None:
        """Restore ``showwarning``, then warn each distinct held finding once.

        ``findings`` are the guard's findings (``render()`` / ``as_dict()``); a held
        warning is matched to its finding by its text.
        """
        if not self._active:
            return
        if warnings.showwarning == self._show:
            warnings.showwarning = self._previous
        self._active = False
        by_text = {finding.render(): finding for finding in findings}
        held = [(text, by_text[text]) for text, _, _ in self._held if text in by_text]
        unmatched = [entry for entry in self._held if entry[0] not in by_text]
        places = {text: (filename, line) for text, filename, line in reversed(self._held)}
        folded = fold_repeats([(finding.as_dict(), text) for text, finding in held])
        for index, text in folded:
            filename, line = places[held[index][0]]
            warnings.warn_explicit(text, self._category, filename, line)
        for text, filename, line in unmatched:
            warnings.warn_explicit(text, self._category, filename, line)
