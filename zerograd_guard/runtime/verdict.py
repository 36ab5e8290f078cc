"""Judge one optimizer step from its parameters' states (see ``param_state``).

Decisions, per step:

* ZG101 — some parameter's window started on the gradient the previous step applied
  (``STALE``) and that gradient was not all zeros: a missing clear, per parameter.
* ZG102 — nothing fresh, and either backward passes were discarded by clears since
  the previous step (cleared between backward and step), or gradients untouched since
  the previous step are stepped again (repeated step).
* ZG103 — under an ``accumulate(k)`` contract, the step did not consume exactly ``k``
  backward passes (or clears discarded some); without a contract, a clear that
  discarded a window begun after a clear is a warning.
* not observed — gradients changed but no hook ever fired for this optimizer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from zerograd_guard.runtime import codes
from zerograd_guard.runtime.naming import parameter_names
from zerograd_guard.runtime.param_state import STALE, any_nonzero
from zerograd_guard.runtime.registry import Entry
from zerograd_guard.runtime.report import Finding
from zerograd_guard.runtime.sites import Site, capture_site
from zerograd_guard.runtime.value_check import resolve_flags


@dataclass(slots=True)
class Judgement:
    backward_passes: int = 0
    violations: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        if self.violations:
            return self.violations[0].code
        return "ok"


@dataclass(slots=True)
class StepContext:
    """Who is stepping, for the report."""

    optimizer: torch.optim.Optimizer
    label: str
    step: int
    contract: int | None
    last_clear: Site | None


def clean_step(entries: list[Entry], contract: int | None) -> int | None:
    """The backward passes an unremarkable step consumed, or None if it needs judging.

    Unremarkable: every parameter accumulated into a gradient it still holds, no window
    started on the previously stepped gradient, no clear discarded a backward pass
    since that step, and the count meets the ``accumulate`` contract. ``judge_step``
    finds nothing in such a step; this loop reaches the same verdict without building
    its lists, so the correct path (nearly every step) stays cheap.
    """
    passes = 0
    for param, state in entries:
        accumulations = state.accumulations
        if not accumulations or state.origin == STALE or state.discarded or param.grad is None:
            return None
        if accumulations > passes:
            passes = accumulations
        state.judged = True
    if not passes or (contract is not None and passes != contract):
        return None
    return passes


def judge_step(entries: list[Entry], context: StepContext) -> Judgement:
    fresh = 0
    backward_passes = 0
    suspects: list[Entry] = []
    discarded: list[Entry] = []
    discarded_passes = 0
    discarded_clean = False
    stale: list[Entry] = []
    changed = False
    for param, state in entries:
        accumulations = state.accumulations
        grad = param.grad
        if accumulations:
            if grad is None:
                discarded.append((param, state))
                discarded_passes = max(discarded_passes, accumulations + state.discarded)
                continue
            if state.origin == STALE:
                suspects.append((param, state))
            else:
                fresh += 1
            backward_passes = max(backward_passes, accumulations)
        elif state.discarded:
            discarded.append((param, state))
        elif grad is not None and state.stepped and not state.cleared:
            if state.untouched_since_step(grad):
                stale.append((param, state))
            elif not state.provisional:
                changed = True
        if state.discarded:
            discarded_passes = max(discarded_passes, state.discarded)
            discarded_clean = discarded_clean or (
                state.discarded_clean > 0 and not state.provisional
            )
        state.judged = True

    judgement = Judgement(backward_passes=backward_passes)
    if suspects:
        nonzero = resolve_flags([state.flag for _, state in suspects])
        contaminated = [entry for entry, value in zip(suspects, nonzero, strict=True) if value]
        fresh += len(suspects) - len(contaminated)
        if contaminated:
            sites = _unique(state.window_site for _, state in contaminated)
            judgement.violations.append(
                _finding(codes.MISSING_CLEAR, contaminated, context, sites, context.last_clear)
            )
            return judgement
    if not fresh:
        if discarded:
            judgement.violations.append(
                _finding(
                    codes.CLEARED_BEFORE_STEP,
                    discarded,
                    context,
                    _unique(state.discard_site or state.window_site for _, state in discarded),
                    context.last_clear,
                    f"{discarded_passes} backward pass(es) since the previous step, all cleared",
                )
            )
        elif stale:
            nonzero = resolve_flags([any_nonzero(param.grad) for param, _ in stale])
            repeated = [entry for entry, value in zip(stale, nonzero, strict=True) if value]
            if repeated:
                judgement.violations.append(
                    _finding(codes.REPEATED_STEP, repeated, context, [], context.last_clear)
                )
        elif changed and not any(state.touched for _, state in entries):
            judgement.warnings.append(_finding(codes.NOT_OBSERVED, [], context, [], None))
        return judgement
    if context.contract is not None:
        if backward_passes != context.contract or discarded_passes:
            detail = (
                f"consumed {backward_passes} backward pass(es)"
                + (f", {discarded_passes} more discarded by clears" if discarded_passes else "")
                + f"; contract: accumulate({context.contract})"
            )
            judgement.violations.append(
                _finding(
                    codes.ACCUMULATION_CONTRACT,
                    discarded or [e for e in entries if e[1].accumulations],
                    context,
                    [],
                    context.last_clear,
                    detail,
                )
            )
    elif discarded_clean:
        judgement.warnings.append(
            _finding(
                codes.DISCARDED,
                discarded or [e for e in entries if e[1].discarded_clean],
                context,
                [],
                context.last_clear,
                f"{discarded_passes} backward pass(es) discarded; "
                f"this step consumed {backward_passes}",
            )
        )
    return judgement


def _finding(
    rule: codes.RuleText,
    entries: list[Entry],
    context: StepContext,
    backward_sites: list[Site],
    clear_site: Site | None,
    detail: str = "",
) -> Finding:
    return Finding(
        rule=rule,
        optimizer=context.label,
        step=context.step,
        parameters=parameter_names([param for param, _ in entries], context.optimizer),
        detail=detail,
        step_site=capture_site(1),
        backward_sites=backward_sites,
        clear_site=clear_site,
    )


def _unique(sites: object) -> list[Site]:
    seen: list[Site] = []
    for site in sites:  # type: ignore[attr-defined]
        if site is not None and site not in seen:
            seen.append(site)
    return seen[:3]
