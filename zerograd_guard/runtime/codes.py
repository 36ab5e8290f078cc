"""Rule codes shared with the linter, with the one-line explanation and fix the guard prints."""

from __future__ import annotations

from dataclasses import dataclass

from zerograd_guard.codes import DOCS_ROOT, docs_url

LIMITATIONS_URL = f"{DOCS_ROOT}/runtime/#limitations"


@dataclass(frozen=True)
class RuleText:
    """What a runtime report says about one rule code."""

    code: str
    title: str
    fix: str

    @property
    def docs(self) -> str:
        if self.code.startswith("ZG"):
            return docs_url(self.code)
        return LIMITATIONS_URL


MISSING_CLEAR = RuleText(
    "ZG101",
    "gradients were not cleared since the previous step: this backward pass added to "
    "gradients the previous step already applied",
    "clear once per step: call optimizer.zero_grad() before loss.backward() "
    "(or right after optimizer.step())",
)
MISSING_CLEAR_IN_CLOSURE = RuleText(
    "ZG101",
    "gradients were not cleared inside the closure: this backward pass added to "
    "gradients the previous closure evaluation already applied",
    "clear inside the closure: call optimizer.zero_grad() before loss.backward() there "
    "(the optimizer evaluates the closure several times per step)",
)
CROSS_MODEL_LEAK = RuleText(
    "ZG101",
    "gradients of another optimizer's loss: a backward pass left gradients on these "
    "parameters, another optimizer stepped it, and this step applies them together with "
    "a later backward pass",
    "clear these parameters before their own backward pass (optimizer.zero_grad() right "
    "before it), or detach the other model's input, or freeze these parameters "
    "(requires_grad_(False)) during the other optimizer's backward pass",
)
CLEARED_BEFORE_STEP = RuleText(
    "ZG102",
    "the step sees no fresh gradient: every gradient produced since the previous step "
    "was cleared before this step",
    "move zero_grad() out of the gap between loss.backward() and optimizer.step()",
)
REPEATED_STEP = RuleText(
    "ZG102",
    "repeated step: no backward pass since the previous step, which already applied "
    "these gradients",
    "call loss.backward() between steps, or remove the extra optimizer.step()",
)
ACCUMULATION_CONTRACT = RuleText(
    "ZG103",
    "the step does not consume the declared number of backward passes",
    "clear only when the accumulation window starts (after the step), and step every k "
    "micro-batches",
)
DISCARDED = RuleText(
    "ZG103",
    "gradients discarded: a clear threw away backward passes with no step in between "
    "(zero_grad inside an accumulation window?)",
    "clear only after optimizer.step(), not every micro-batch; to drop a bad batch on "
    "purpose, clear with zerograd_guard.discard(optimizer)",
)
NOT_OBSERVED = RuleText(
    "unobserved",
    "optimizer not observed: it steps with gradients the guard never saw accumulate "
    "(flat gradient buffers, FSDP1, CUDA graphs?); the guard is blind for it",
    "nothing to fix in your loop; the guard cannot check this optimizer",
)
STALLED = RuleText(
    "stalled",
    "optimizer stopped stepping: more backward passes piled up since its last step than "
    "its largest accumulation window",
    "check the condition that calls optimizer.step() (an accumulation counter that is "
    "never reset, a step inside a branch that stopped being taken)",
)
