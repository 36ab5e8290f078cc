"""DeepSpeed: ``engine.backward(loss)`` runs the backward and ``engine.step()`` steps on
each accumulation boundary and then clears (``DeepSpeedEngine._take_model_step`` ends
with a ``zero_grad``), so a loop that only calls the engine is correct. Engines from
``deepspeed.initialize(...)`` are recognised by the extractor; engines built directly
from the engine classes are declared here as managed engines. Reached through wrapper
methods in other modules (a strategy's ``optimizer_step`` calling ``engine.step()``),
project mode follows the wrapper to the engine.
"""

from __future__ import annotations

from zerograd_guard.lint.plugins import hookimpl


@hookimpl
def zerograd_guard_managed_engines() -> list[str]:
    return ["DeepSpeedEngine", "PipelineEngine"]
