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
    ``name`` (``ignite`` / ``Engine``), or returned by a function of the file called
    there, or whose first parameter is annotated with it (``def update(engine: Engine,
    batch)``). ``steps_and_clears``: the framework steps and
    clears the gradients itself between two calls (the override only adds gradients).
    """

    package: str
    name: str
    method: str | None = None
    steps_and_clears: bool = False

    def key(self) -> str:
        return f"{self.package}:{self.name}:{self.method}:{int(self.steps_and_clears)}"


BACKWARD = "<backward>"
"""In ``HookedIteration.order``: the framework's own backward of its loss."""
STEP = "<step>"
"""In ``HookedIteration.order``: the framework's own ``optimizer.step()``."""
CLEAR = "<clear>"
"""In ``HookedIteration.order``: the framework's own ``optimizer.zero_grad()``."""


@dataclass(frozen=True)
class HookedIteration:
    """One batch of a framework's own loop, told as the framework's own gradient events
    between the hook methods a user's class overrides (plugin hook
    ``zerograd_guard_hooked_iterations``). fastai's ``Learner`` runs ``loss.backward()``
    between a callback's ``before_backward`` and ``after_backward`` and steps between its
    ``before_step`` and ``after_step``: a clear in ``after_backward`` is a bug only with
    that backward and step around it, which neither the hook's own body nor an
    ``IterationFunction`` shows.

    Which classes: those deriving from ``package``'s class ``base`` (through in-file
    bases; imported by name, or bound by the file's last ``import *``, which must be of
    one of ``star_modules``: what another star import binds is unknown). Each such class
    is judged alone, as one batch repeated: ``order`` lists the hook method names and
    the framework's own events (``BACKWARD``, ``STEP``, ``CLEAR``) in the order the
    framework runs them; a hook the class does not define does nothing.

    * ``cancels``: ``(exception, hook)``: a hook that raises ``exception`` (its class name)
      resumes the batch at ``hook`` (fastai: ``CancelStepException`` skips the step, at
      ``after_step``); one raised later than ``hook`` in ``order`` ends the batch;
    * ``replaces``: ``(hook, items)``: a class defining ``hook`` runs that method in place
      of ``items`` of ``order`` (fastai: a ``Learner`` subclass's ``_step`` replaces
      ``STEP``);
    * ``optimizer`` / ``model``: the names hook code gives the optimizer the framework
      steps and the model it clears (the first names it in messages); a name the class
      assigns itself (``self.model = teacher``) is the class's own;
    * ``label``: how messages name the framework's loop (``fastai's `Learner```).
    """

    package: str
    base: str
    order: tuple[str, ...]
    cancels: tuple[tuple[str, str], ...] = ()
    replaces: tuple[tuple[str, tuple[str, ...]], ...] = ()
    optimizer: tuple[str, ...] = ("self.optimizer",)
    model: tuple[str, ...] = ("self.model",)
    star_modules: tuple[str, ...] = ()
    label: str = ""

    def key(self) -> str:
        return repr(self)


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
    # Batches frameworks run around hook methods (built-in framework plugins and others).
    hooked_iterations: frozenset[HookedIteration] = frozenset()

    def cache_key(self) -> str:
        """A stable text that changes whenever the options change the analysis."""
        parts = [
            ",".join(sorted(self.extra_backward_calls)),
            ",".join(sorted(self.extra_clear_calls)),
            ",".join(sorted(self.extra_step_calls)),
            ",".join(sorted(self.managed_engines)),
            ",".join(sorted(spec.key() for spec in self.iteration_functions)),
            ",".join(sorted(spec.key() for spec in self.hooked_iterations)),
        ]
        return "|".join(parts)


DEFAULT_OPTIONS = AnalysisOptions()
