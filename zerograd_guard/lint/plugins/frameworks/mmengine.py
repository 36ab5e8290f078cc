"""mmengine: the training loop calls the model's ``train_step(data, optim_wrapper)``
once per iteration and does nothing to the gradients itself; the default
``BaseModel.train_step`` calls ``optim_wrapper.update_params(loss)``, which runs the
backward, steps and clears in one call (``OptimWrapper.update_params``; with
``accumulative_counts`` it steps and clears on window ends only). An override of
``train_step`` is judged as one iteration: one that calls ``optim_wrapper.backward()``
and ``optim_wrapper.step()`` without ``optim_wrapper.zero_grad()`` is found.
``update_params`` and ``optim_context`` stay opaque calls: they clear what they apply.
"""

from __future__ import annotations

from zerograd_guard.lint.options import IterationFunction
from zerograd_guard.lint.plugins import hookimpl


@hookimpl
def zerograd_guard_iteration_functions() -> list[IterationFunction]:
    return [IterationFunction("mmengine", "BaseModel", "train_step")]
