"""fairseq: ``Trainer.train_step`` clears the gradients (``self.zero_grad()``), calls the
task's ``train_step(sample, model, criterion, optimizer, ...)`` once per micro-batch
(the task runs ``optimizer.backward(loss)``) and then steps. A task's ``train_step``
override is judged as one iteration between the Trainer's step-and-clear.
"""

from __future__ import annotations

from zerograd_guard.lint.options import IterationFunction
from zerograd_guard.lint.plugins import hookimpl

TASKS = ("FairseqTask", "LegacyFairseqTask")


@hookimpl
def zerograd_guard_iteration_functions() -> list[IterationFunction]:
    return [
        IterationFunction("fairseq", task, "train_step", steps_and_clears=True) for task in TASKS
    ]
