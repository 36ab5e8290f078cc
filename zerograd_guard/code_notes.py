"""What each rule page says beyond the rule's own explanation: what the code means at
runtime, which settings affect it, its known limitations, and PyTorch's documentation.

Read by :func:`zerograd_guard.lint.rule_docs.rule_markdown`, which generates the pages
in ``docs/rules/`` (a test keeps them up to date). Imports nothing, like
:mod:`zerograd_guard.codes`. Links are relative to a rule page (``docs/rules/``).
"""

from __future__ import annotations

from dataclasses import dataclass

ZERO_GRAD_DOCS = "https://pytorch.org/docs/stable/generated/torch.optim.Optimizer.zero_grad.html"
AUTOGRAD_NOTES = "https://pytorch.org/docs/stable/notes/autograd.html"
ACCUMULATION_EXAMPLE = (
    "https://pytorch.org/docs/stable/notes/amp_examples.html#gradient-accumulation"
)

PYTORCH_LINKS = (
    f"[`torch.optim.Optimizer.zero_grad`]({ZERO_GRAD_DOCS}): clearing, `set_to_none`",
    f"[Autograd mechanics]({AUTOGRAD_NOTES}): `backward()` adds into `.grad`",
    f"[Gradient accumulation]({ACCUMULATION_EXAMPLE}) in PyTorch's AMP examples",
)

# Every rule reads these settings (docs/configuration.md).
COMMON_SETTINGS = (
    "`select` / `extend-select` / `ignore`, `per-file-ignores` and `# noqa` switch it on or "
    "off ([configuration](../configuration.md#reference))",
    "`extend-backward-calls`, `extend-clear-calls`, `extend-step-calls` teach it your own "
    "helpers; `managed-engines` names trainers that clear for you, whose loops are not "
    "judged ([your own helpers](../configuration.md#teaching-the-analysis-your-own-helpers))",
)
COMMON_LIMITATIONS = (
    "The linter reports only what it can resolve: a call it cannot name (an optimizer "
    "passed through a container, a clear inside an unknown helper) makes the loop unknown, "
    "and unknown is silent. The runtime guard sees what really ran "
    "([runtime limitations](../runtime.md#limitations)).",
)


@dataclass(frozen=True)
class CodeNotes:
    runtime: str
    settings: tuple[str, ...] = ()
    limitations: tuple[str, ...] = ()


NOTES: dict[str, CodeNotes] = {
    "ZG101": CodeNotes(
        runtime="`pytest --zerograd-guard`, `zerograd-guard run` and `zerograd_guard.guard()` "
        "raise `GradientGuardError` (ZG101) at an `optimizer.step()` whose gradients include "
        "a backward pass the previous step already applied: no clear happened in between. "
        "The same code reports the cross-model leak at runtime (a pass another optimizer "
        "already stepped, applied again here; see "
        "[the cross-model leak](../runtime.md#the-cross-model-leak-zg101)).",
        settings=(
            "At runtime, `accumulate(k)` / `@pytest.mark.zerograd_guard(accumulate=k)` "
            "declares a window of k backward passes per step "
            "([`accumulate(k)`](../runtime.md#accumulatek))",
        ),
        limitations=(
            "A clear the linter cannot see (inside a helper it cannot resolve) keeps the "
            "loop unknown, so no finding; add the helper to `extend-clear-calls`.",
            "Accumulating on purpose across steps (rare) is reported; use `# noqa: ZG101`.",
        ),
    ),
    "ZG102": CodeNotes(
        runtime="The guard raises ZG102 at a step that sees no fresh gradient: every gradient "
        "produced since the previous step was cleared before this step, or the step repeats "
        "with no backward pass since the previous one.",
        limitations=(
            "The linter judges a clear and a step in the same function; a clear in a hook or "
            "callback that runs between `backward()` and `step()` is found only at runtime.",
        ),
    ),
    "ZG103": CodeNotes(
        runtime="Under a declared contract (`accumulate(k)`), the guard raises ZG103 at a "
        "step that does not consume exactly k backward passes. Without one, a clear that "
        "throws away backward passes before any step is a ZG103 *warning* (gradients "
        "discarded), given once per optimizer; `zerograd_guard.discard(optimizer)` drops a "
        "bad batch on purpose without it "
        "([dropping a bad batch](../runtime.md#dropping-a-bad-batch-on-purpose)).",
        settings=(
            "At runtime, `accumulate(k)` and `@pytest.mark.zerograd_guard(accumulate=k)` "
            "declare the window; `--strict` / `--zerograd-guard-strict` make the warning "
            "fail the run",
        ),
        limitations=(
            "The linter needs the step's condition and the clear's to be visible in the same "
            "loop; a window counted in another object (a trainer's state) is unknown.",
        ),
    ),
    "ZG104": CodeNotes(
        runtime="At runtime the same bug is reported as ZG101 (the cross-model leak): the "
        "step applies a backward pass another optimizer already stepped "
        "([the cross-model leak](../runtime.md#the-cross-model-leak-zg101)).",
        limitations=(
            "The linter needs to see that one model's loss flows through the other model; "
            "a loss computed inside an unknown helper is unknown, and silent.",
            "A file that freezes or unfreezes that model anywhere "
            "(`requires_grad_(False)`) is not judged for it: when the freeze holds is "
            "not known.",
        ),
    ),
}
