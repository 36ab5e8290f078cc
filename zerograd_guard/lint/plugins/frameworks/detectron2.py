"""detectron2: ``TrainerBase.train`` calls ``run_step()`` once per iteration;
``SimpleTrainer.run_step`` clears, runs the backward and steps itself
(``optimizer.zero_grad(); losses.backward(); optimizer.step()``, ``AMPTrainer`` through
its grad scaler). An override of ``run_step`` is therefore judged as one iteration of a
loop that does nothing else to the gradients: an override that drops the clear is found.
"""

from __future__ import annotations

from zerograd_guard.lint.options import IterationFunction
from zerograd_guard.lint.plugins import hookimpl

TRAINERS = ("TrainerBase", "SimpleTrainer", "AMPTrainer", "DefaultTrainer")


@hookimpl
def zerograd_guard_iteration_functions() -> list[IterationFunction]:
    return [IterationFunction("detectron2", trainer, "run_step") for trainer in TRAINERS]
