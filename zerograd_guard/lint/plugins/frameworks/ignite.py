"""PyTorch-Ignite: ``Engine(process_function)`` calls ``process_function(engine, batch)``
once per iteration (``Engine._run_once_on_dataset``) and does nothing to the gradients
itself, so the function is judged as one iteration of a loop: a function passed by name,
one a factory of the file returns there (``Engine(make_update(model, optimizer))``), or
one typed as a process function by its first parameter (``def _update(engine: Engine,
batch)``, however it reaches the engine).

``create_supervised_trainer`` and ``supervised_training_step*`` build that function
inside ignite: it clears on the first micro-batch of each window
(``(iteration - 1) % gradient_accumulation_steps == 0``) and steps on the last
(``iteration % gradient_accumulation_steps == 0``), which is correct; being outside the
linted code, those calls are never judged.
"""

from __future__ import annotations

from zerograd_guard.lint.options import IterationFunction
from zerograd_guard.lint.plugins import hookimpl


@hookimpl
def zerograd_guard_iteration_functions() -> list[IterationFunction]:
    return [IterationFunction(package="ignite", name="Engine")]
