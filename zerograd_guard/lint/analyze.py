"""``analyze_source()``: the one entry point from source text to findings."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

import libcst as cst

from zerograd_guard.lint.collector import raised_thresholds
from zerograd_guard.lint.cst_parse import parse_module
from zerograd_guard.lint.errors import AnalysisError
from zerograd_guard.lint.extract import build_model, resolve_module
from zerograd_guard.lint.extract.positions import Positions
from zerograd_guard.lint.extract.resolve import Choice
from zerograd_guard.lint.findings import Finding
from zerograd_guard.lint.flow import check_flow
from zerograd_guard.lint.model.analysed import AnalyzedModule
from zerograd_guard.lint.model.events import events_of
from zerograd_guard.lint.model.program import ExternalLookup
from zerograd_guard.lint.options import DEFAULT_OPTIONS, AnalysisOptions
from zerograd_guard.lint.rules import BUILTIN_RULES
from zerograd_guard.lint.rules.base import Rule

# Long `elif` chains and long `a + b + ...` expressions are legitimately deep trees; the
# walker bounds statement nesting itself (``nesting too deep to analyse``).
RECURSION_LIMIT = 12_000
# Analyses of one module beyond the first, for instances whose class a branch chooses.
MAX_VARIANTS = 8
_LOCATED = re.compile(r"(?:parser error: )?error at (\d+):(\d+): (.*)")


def parse_for_analysis(source: str) -> cst.Module:
    """libcst's tree of ``source`` (built unvalidated, see ``cst_parse``); raises
    ``AnalysisError`` (one line) when it cannot."""
    try:
        return parse_module(source)
    except cst.ParserSyntaxError as error:
        message = " ".join(error.message.split())
        line, column = error.raw_line, error.raw_column + 1
        located = _LOCATED.match(message)  # the native parser puts its own position first
        if located:
            line, column, message = int(located[1]), int(located[2]) + 1, located[3]
        raise AnalysisError(f"syntax error at {line}:{column}: {message}") from None
    except RecursionError:
        raise AnalysisError("nesting too deep to analyse") from None
    except Exception as error:  # libcst raises assorted errors on odd input (NUL bytes...)
        first = str(error).strip().splitlines()
        raise AnalysisError(
            f"cannot parse: {first[0] if first else type(error).__name__}"
        ) from None


def analyse_module(
    module: cst.Module,
    source: str,
    options: AnalysisOptions = DEFAULT_OPTIONS,
    external: ExternalLookup | None = None,
    chosen: dict[Choice, int] | None = None,
) -> AnalyzedModule:
    """Build, resolve and flow-check the event model of a parsed module; ``external``
    (project mode) resolves names imported from other linted modules; ``chosen``: the
    class each branch-chosen instance takes (``Resolver._chosen_instance``)."""
    model = build_model(module, options, project=external is not None, external=external)
    model.external = external
    choices = resolve_module(model, options, chosen)
    observations = check_flow(model, options.iteration_functions, source, options.hooked_iterations)
    positions = Positions(
        module,
        source,
        lambda: (
            (event.node, event.anchor)
            for function in model.functions
            for event in events_of(function.body)
        ),
    )
    places = None
    if observations.sites and external is not None:
        from zerograd_guard.lint.project.places import ForeignPlaces, MappedPositions, settle

        settle(observations, model.functions)
        places = ForeignPlaces(observations.sites, external.importer)
        positions = MappedPositions(positions, places)  # type: ignore[assignment]
    return AnalyzedModule(
        source=source,
        module=module,
        model=model,
        observations=observations,
        positions=positions,
        places=places,
        choices=choices,
    )


def analyze_source(
    source: str,
    options: AnalysisOptions = DEFAULT_OPTIONS,
    rules: Sequence[type[Rule]] | None = None,
    external: ExternalLookup | None = None,
) -> list[Finding]:
    """Findings of ``rules`` (default: the built-in rules) in ``source``, sorted by line,
    column and code; ``external``: see ``analyse_module``. Raises ``AnalysisError`` (one
    line) for source it cannot analyse. Runs under the collector settings of a CLI run
    (``collector.raised_thresholds``), whichever entry point calls it."""
    with raised_thresholds():
        return _analyze(source, options, rules, external)


def _analyze(
    source: str,
    options: AnalysisOptions,
    rules: Sequence[type[Rule]] | None,
    external: ExternalLookup | None,
) -> list[Finding]:
    module = parse_for_analysis(source)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        findings, choices = _checked(module, source, options, rules, external)
        for chosen in _variants(choices):
            findings += _checked(module, source, options, rules, external, chosen)[0]
    except AnalysisError:
        raise
    except RecursionError:
        raise AnalysisError("nesting too deep to analyse") from None
    except Exception as error:
        raise AnalysisError(
            f"internal error while analysing: {type(error).__name__}: {error}"
        ) from error
    finally:
        sys.setrecursionlimit(limit)
    # one finding per place and code (the first analysis's): variants judge the same lines
    unique: dict[tuple[int, int, str], Finding] = {}
    for finding in findings:
        unique.setdefault((finding.line, finding.column, finding.code), finding)
    return sorted(unique.values(), key=lambda finding: finding.sort_key)


def _checked(
    module: cst.Module,
    source: str,
    options: AnalysisOptions,
    rules: Sequence[type[Rule]] | None,
    external: ExternalLookup | None,
    chosen: dict[Choice, int] | None = None,
) -> tuple[list[Finding], dict[Choice, int]]:
    """The rules' findings on one analysis of ``module``, and the choices it met."""
    analysed = analyse_module(module, source, options, external, chosen)
    try:
        findings = [
            finding
            for rule in (BUILTIN_RULES if rules is None else rules)
            for finding in rule().check(analysed)
        ]
    finally:
        analysed.model.release()  # findings hold no model objects
    return findings, analysed.choices


def _variants(choices: dict[Choice, int]) -> list[dict[Choice, int]]:
    """The other analyses a module's branch-chosen instances need: each choice's other
    classes, one at a time (the rest at their first), at most ``MAX_VARIANTS``. Each is
    one configuration of the program, so its findings are findings of the program."""
    found = [
        {choice: index} for choice, count in sorted(choices.items()) for index in range(1, count)
    ]
    return found[:MAX_VARIANTS]
