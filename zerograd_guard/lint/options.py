"""What the analysis can be told beyond the built-in patterns.

Filled from ``[tool.zerograd-guard]`` config and from plugins; read by the extractor.
Names are matched against the final attribute or function name of a call
(``my_clear`` matches ``helpers.my_clear(...)`` and ``self.trainer.my_clear(...)``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnalysisOptions:
    extra_backward_calls: frozenset[str] = frozenset()
    extra_clear_calls: frozenset[str] = frozenset()
    extra_step_calls: frozenset[str] = frozenset()
    # Class or factory names whose instances own clearing (an in-house trainer):
    # loops driven by them are never judged.
    managed_engines: frozenset[str] = frozenset()

    def cache_key(self) -> str:
        """A stable text that changes whenever the options change the analysis."""
        parts = [
            ",".join(sorted(self.extra_backward_calls)),
            ",".join(sorted(self.extra_clear_calls)),
            ",".join(sorted(self.extra_step_calls)),
            ",".join(sorted(self.managed_engines)),
        ]
        return "|".join(parts)


DEFAULT_OPTIONS = AnalysisOptions()
