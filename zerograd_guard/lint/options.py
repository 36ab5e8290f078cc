"""What the analysis can be told beyond the built-in patterns.

Filled from ``[tool.zerograd-guard]`` config and from plugins; read by the extractor.
Names are matched against the final attribute or function name of a call
(``my_clear`` matches ``helpers.my_clear(...)`` and ``self.trainer.my_clear(...)``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class IterationFunction:
    """A function a framework runs once per batch from its own loop (plugin hook
    ``zerograd_guard_iteration_functions``); its body is judged as one iteration.

    Which functions: a method named ``method`` of a class deriving from ``package``'s
    class ``name`` (``transformers`` / ``Trainer`` / ``training_step``), or, without a
    ``method``, a function passed as the first argument of ``package``'s callable
    ``name`` (``ignite`` / ``Engine``). ``steps_and_clears``: the framework steps and
    clears the gradients itself between two calls (the override only adds gradients).
    """

    package: str
    name: str
    method: str | None = None
    steps_and_clears: bool = False

    def key(self) -> str:
        return f"{self.package}:{self.name}:{self.method}:{int(self.steps_and_clears)}"


@dataclass(frozen=True)
class AnalysisOptions:
    extra_backward_calls: frozenset[str] = frozenset()
    extra_clear_calls: frozenset[str] = frozenset()
    extra_step_calls: frozenset[str] = frozenset()
    # Class or factory names whose instances own clearing (an in-house trainer):
    # loops driven by them are never judged.
    managed_engines: frozenset[str] = frozenset()
    # Functions frameworks run once per batch (built-in framework plugins and others).
    iteration_functions: frozenset[IterationFunction] = frozenset()

    def cache_key(self) -> str:
        """A stable text that changes whenever the options change the analysis."""
        parts = [
            ",".join(sorted(self.extra_backward_calls)),
            ",".join(sorted(self.extra_clear_calls)),
            ",".join(sorted(self.extra_step_calls)),
            ",".join(sorted(self.managed_engines)),
            ",".join(sorted(spec.key() for spec in self.iteration_functions)),
        ]
        return "|".join(parts)


DEFAULT_OPTIONS = AnalysisOptions()
