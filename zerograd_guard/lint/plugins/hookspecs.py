"""The hooks a plugin may implement. Every hook is optional; results are merged."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from zerograd_guard.lint.plugins import hookspec

if TYPE_CHECKING:
    from zerograd_guard.lint.options import HookedIteration, IterationFunction
    from zerograd_guard.lint.rules.base import Rule


@hookspec
def zerograd_guard_backward_calls() -> Iterable[str]:
    """Extra call names that run a backward pass (``my_trainer.backward_pass``)."""


@hookspec
def zerograd_guard_clear_calls() -> Iterable[str]:
    """Extra call names that clear gradients (``reset_grads``)."""


@hookspec
def zerograd_guard_step_calls() -> Iterable[str]:
    """Extra call names that apply an optimizer step (``apply_update``)."""


@hookspec
def zerograd_guard_managed_engines() -> Iterable[str]:
    """Class or factory names whose objects clear gradients themselves."""


@hookspec
def zerograd_guard_iteration_functions() -> Iterable[IterationFunction]:
    """Functions a framework runs once per batch from its own loop (a ``Trainer``
    subclass's ``training_step``, the function handed to ``Engine``): judged as one
    iteration of that loop (see ``zerograd_guard.lint.options.IterationFunction``)."""


@hookspec
def zerograd_guard_hooked_iterations() -> Iterable[HookedIteration]:
    """Batches a framework runs around hook methods of its users' classes (fastai's
    ``Learner`` around a ``Callback``'s ``before_step``...): each such class is judged
    inside the batch (see ``zerograd_guard.lint.options.HookedIteration``)."""


@hookspec
def zerograd_guard_rules() -> Iterable[type[Rule]]:
    """Extra ``Rule`` subclasses, run next to the built-in ones."""
