"""Hugging Face ``Trainer``: ``_inner_training_loop`` calls ``training_step`` once per
micro-batch (it computes the loss through ``compute_loss`` and runs the backward), and
on each accumulation boundary steps the optimizer and clears (``model.zero_grad()``)
itself. An override of ``training_step`` is judged as one iteration between the
Trainer's own step-and-clear: gradients it adds are applied and cleared by the Trainer.
A clear the override runs between its backward and its own step is still found.
"""

from __future__ import annotations

from zerograd_guard.lint.options import IterationFunction
from zerograd_guard.lint.plugins import hookimpl

TRAINERS = ("Trainer", "Seq2SeqTrainer")


@hookimpl
def zerograd_guard_iteration_functions() -> list[IterationFunction]:
    return [
        IterationFunction("transformers", trainer, method, steps_and_clears=True)
        for trainer in TRAINERS
        for method in ("training_step", "compute_loss")
    ]
