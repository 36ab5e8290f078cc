"""Judge one optimizer step from its parameters' states (see ``param_state``).

``scan_step`` classifies the parameters once; ``CHECKS`` is the ordered table of named
checks that read the scan, and the first finding ends judging.

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

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

import torch

from zerograd_guard.runtime import codes
from zerograd_guard.runtime.naming import parameter_names
from zerograd_guard.runtime.param_state import STALE, any_nonzero
from zerograd_guard.runtime.registry import Entry
from zerograd_guard.runtime.report import Finding
from zerograd_guard.runtime.sites import Mark, Site, capture_site, site_of, sites_of
from zerograd_guard.runtime.value_check import resolve_flags

MAX_SITES = 8  # backward lines printed per finding


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
    short_window_allowed: bool = False  # an epoch's last window may be short (registry)
    in_closure: bool = False  # judged after a closure evaluation (LBFGS runs it many times)


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
        # ``unusual``: a stale start, a discard or a leak in this window (param_state).
        if not accumulations or state.unusual or param.grad is None:
            return None
        if accumulations > passes:
            passes = accumulations
        state.judged = True
    if not passes or (contract is not None and passes != contract):
        return None
    return passes


@dataclass(slots=True)
class StepScan:
    """What one pass over a step's parameters found; the checks below read it."""

    entries: list[Entry]
    fresh: int = 0  # parameters with a backward pass since the previous step, not stale
    backward_passes: int = 0
    contaminated: list[Entry] = field(default_factory=list)  # stale and not all zero
    leaked: list[Entry] = field(default_factory=list)  # another optimizer's pass, then own
    discarded: list[Entry] = field(default_factory=list)
    discarded_passes: int = 0
    discarded_clean: bool = False
    stale: list[Entry] = field(default_factory=list)  # untouched since the previous step
    changed: bool = False  # a gradient changed with no hook seen
    touched: bool = False  # some hook fired for these parameters


def scan_step(entries: list[Entry]) -> StepScan:
    """Classify every parameter of the step; the one batched value read happens here."""
    scan = StepScan(entries)
    suspects: list[Entry] = []
    for param, state in entries:
        accumulations = state.accumulations
        grad = param.grad
        scan.touched = scan.touched or state.touched
        if accumulations:
            if grad is None:
                scan.discarded.append((param, state))
                scan.discarded_passes = max(scan.discarded_passes, accumulations + state.discarded)
                continue
            if state.origin == STALE:
                suspects.append((param, state))
            else:
                scan.fresh += 1
            if state.leaked:
                scan.leaked.append((param, state))
            scan.backward_passes = max(scan.backward_passes, accumulations)
        elif state.discarded:
            scan.discarded.append((param, state))
        elif grad is not None and state.stepped and not state.cleared:
            if state.untouched_since_step(grad):
                scan.stale.append((param, state))
            elif not state.provisional:
                scan.changed = True
        if state.discarded:
            scan.discarded_passes = max(scan.discarded_passes, state.discarded)
            scan.discarded_clean = scan.discarded_clean or (
                state.discarded_clean > 0 and not state.provisional
            )
        state.judged = True
    if suspects:
        nonzero = resolve_flags([state.flag for _, state in suspects])
        scan.contaminated = [entry for entry, value in zip(suspects, nonzero, strict=True) if value]
        scan.fresh += len(suspects) - len(scan.contaminated)
    return scan


# --- the checks: each returns its finding or None; the first finding ends judging -------


def missing_clear(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG101: a window started on the gradient the previous step applied (not all zero)."""
    if not scan.contaminated:
        return None
    return _finding(
        codes.MISSING_CLEAR_IN_CLOSURE if context.in_closure else codes.MISSING_CLEAR,
        scan.contaminated,
        context,
        _window_sites(scan.contaminated),
        _last_clear(scan.contaminated),
    )


def cross_model_leak(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG101: the step applies a pass another optimizer stepped, plus a later pass.

    Silent under a declared contract (accumulating across another optimizer's steps on
    purpose), and where the other pass was all the window held (one backward pass
    feeding two optimizers that both step).
    """
    if not scan.leaked or context.contract is not None:
        return None
    sites = _unique(
        site
        for _, state in scan.leaked
        for site in (state.window_site, state.leak_site, *(state.later_sites or ()))
    )
    return _finding(codes.CROSS_MODEL_LEAK, scan.leaked, context, sites, _last_clear(scan.leaked))


def cleared_before_step(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG102: nothing fresh, and clears discarded the backward passes since the step."""
    if scan.fresh or not scan.discarded:
        return None
    return _finding(
        codes.CLEARED_BEFORE_STEP,
        scan.discarded,
        context,
        _window_sites(scan.discarded),
        _last_clear(scan.discarded),
        f"{scan.discarded_passes} backward pass(es) since the previous step, all cleared",
    )


def repeated_step(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG102: nothing fresh, nothing discarded, gradients untouched since the step (not zero)."""
    if scan.fresh or scan.discarded or not scan.stale:
        return None
    nonzero = resolve_flags([any_nonzero(param.grad) for param, _ in scan.stale])
    repeated = [entry for entry, value in zip(scan.stale, nonzero, strict=True) if value]
    if not repeated:
        return None
    return _finding(codes.REPEATED_STEP, repeated, context, [], _last_clear(repeated))


def not_observed(scan: StepScan, context: StepContext) -> Finding | None:
    """Warning: gradients changed for this optimizer but no hook of its parameters fired."""
    if scan.fresh or scan.discarded or scan.stale or not scan.changed or scan.touched:
        return None
    return _finding(codes.NOT_OBSERVED, [], context, [], None)


def accumulation_contract(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG103: under ``accumulate(k)``, the step did not consume exactly k backward passes."""
    if not scan.fresh or context.contract is None:
        return None
    if not scan.discarded_passes and (
        scan.backward_passes == context.contract
        or (scan.backward_passes < context.contract and context.short_window_allowed)
    ):
        return None
    detail = (
        f"consumed {scan.backward_passes} backward pass(es)"
        + (f", {scan.discarded_passes} more discarded by clears" if scan.discarded_passes else "")
        + f"; contract: accumulate({context.contract})"
    )
    affected = scan.discarded or _accumulated(scan.entries)
    return _finding(
        codes.ACCUMULATION_CONTRACT,
        affected,
        context,
        _window_sites(affected),
        _last_clear(affected),
        detail,
    )


def discarded_window(scan: StepScan, context: StepContext) -> Finding | None:
    """ZG103 warning, no contract: a clear threw away a window that began after a clear."""
    if not scan.fresh or context.contract is not None or not scan.discarded_clean:
        return None
    affected = scan.discarded or [e for e in scan.entries if e[1].discarded_clean]
    return _finding(
        codes.DISCARDED,
        affected,
        context,
        _window_sites(affected),
        _last_clear(affected),
        f"{scan.discarded_passes} backward pass(es) discarded; "
        f"this step consumed {scan.backward_passes}",
    )


Check = Callable[[StepScan, StepContext], "Finding | None"]

# (check, is a violation): in order; at most one finding per step.
CHECKS: tuple[tuple[Check, bool], ...] = (
    (missing_clear, True),
    (cross_model_leak, True),
    (cleared_before_step, True),
    (repeated_step, True),
    (not_observed, False),
    (accumulation_contract, True),
    (discarded_window, False),
)


WARNING_CODES = {not_observed: codes.NOT_OBSERVED.code, discarded_window: codes.DISCARDED.code}


def judge_step(
    entries: list[Entry], context: StepContext, already_warned: Collection[str] = ()
) -> Judgement:
    """Run the checks in order. A warning already given for this optimizer is not
    built again (it is shown once per optimizer): its check is skipped, which changes no
    verdict, as no later check can fire where a warning check did."""
    scan = scan_step(entries)
    judgement = Judgement(backward_passes=scan.backward_passes)
    for check, is_violation in CHECKS:
        if not is_violation and WARNING_CODES[check] in already_warned:
            continue
        finding = check(scan, context)
        if finding is not None:
            (judgement.violations if is_violation else judgement.warnings).append(finding)
            break
    return judgement


def _last_clear(entries: list[Entry]) -> Site | None:
    """The last clear of these parameters (not another model's), None if never cleared."""
    for _, state in entries:
        if state.clear_site is not None:
            return site_of(state.clear_site)
    return None


def _window_sites(entries: list[Entry]) -> list[Site]:
    """Every distinct backward line of these parameters' windows (the discarded one's
    where a clear discarded it), in order."""
    sites: list[Mark | None] = []
    for _, state in entries:
        if state.discard_site is not None:
            sites += [state.discard_site, *(state.discard_later or ())]
        else:
            sites += [state.window_site, *(state.later_sites or ())]
    return _unique(sites)


def _accumulated(entries: list[Entry]) -> list[Entry]:
    return [entry for entry in entries if entry[1].accumulations]


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
        clears_known=bool(entries),
    )


def _unique(marks: Iterable[Mark | None]) -> list[Site]:
    """The distinct lines of these marks, in order (two calls on one line: one site)."""
    return sites_of(marks, MAX_SITES)
