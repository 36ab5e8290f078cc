"""Where the flow check's observations about other modules' events are reported.

An event of another module (a backward inside an imported ``train_step``) is reported in
the linted file at the call it ran under, and messages name both places: the other
file's line and that call. Observations the other module reports on its own (everything
happened inside one of its functions, which its own analysis judges) are dropped here,
so no finding appears twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zerograd_guard.lint.model.events import Event, Loop, Statement, events_of

if TYPE_CHECKING:
    import libcst as cst

    from zerograd_guard.lint.extract.positions import Positions, Span
    from zerograd_guard.lint.flow.engine import Observations
    from zerograd_guard.lint.model.program import FunctionModel
    from zerograd_guard.lint.project.external import LoadedModule


def _foreign(event: Event) -> bool:
    return event.function is not None and event.function.origin is not None


def _loops(statements: list[Statement]) -> list[Loop]:
    from zerograd_guard.lint.model.events import If, Try

    found: list[Loop] = []
    for statement in statements:
        if isinstance(statement, Loop):
            found.append(statement)
            found.extend(_loops(statement.body))
            found.extend(_loops(statement.orelse))
        elif isinstance(statement, If):
            found.extend(_loops(statement.body))
            found.extend(_loops(statement.orelse))
        elif isinstance(statement, Try):
            for part in (
                statement.body,
                *statement.handlers,
                statement.orelse,
                statement.finalbody,
            ):
                found.extend(_loops(part))
    return found


def _in_one_loop(owner: FunctionModel, events: list[Event]) -> bool:
    """Whether one loop of ``owner`` holds all of ``events``: then its own analysis sees
    them repeat. A loop elsewhere in it (over the networks to clip) repeats nothing of
    them; the loop that does is the caller's."""
    wanted = {id(event) for event in events}
    return any(
        wanted <= {id(event) for event in events_of(loop.body)} for loop in _loops(owner.body)
    )


def settle(observations: Observations, local: list[FunctionModel]) -> None:
    """Drop observations that lie wholly inside another module's function: that module's
    own analysis reports them (from the same events, without this file's context). A
    broken window is kept only for a loop of this file (``local``: its functions)."""
    for (backward, key), steps in list(observations.leaks.items()):
        if _foreign(backward) and all(_foreign(step) for step in steps):
            owner = backward.function
            if owner is not None and _in_one_loop(owner, [backward, *steps]):
                del observations.leaks[(backward, key)]
    for (step, key), clears in list(observations.discards.items()):
        owner = step.function
        if (
            _foreign(step)
            and all(clear.function is owner for clear in clears)
            and owner is not None
            and owner.has_backward
        ):
            del observations.discards[(step, key)]
            observations.step_statuses.pop((step, key), None)
    if observations.broken_windows:
        loops = {id(loop) for function in local for loop in _loops(function.body)}
        for clear, (_, loop) in list(observations.broken_windows.items()):
            if id(loop) not in loops:
                del observations.broken_windows[clear]


class ForeignPlaces:
    """Other modules' nodes -> the call in the linted file they ran under."""

    def __init__(self, sites: dict[Event, Event], importer: str) -> None:
        self.importer = importer
        self._by_node: dict[int, tuple[Event, Event, cst.CSTNode]] = {}
        for event, site in sites.items():
            for node in (event.node, event.statement, event.anchor):
                if node is not None:
                    self._by_node.setdefault(id(node), (event, site, node))

    def is_foreign(self, node: cst.CSTNode) -> bool:
        return id(node) in self._by_node

    def local(self, node: cst.CSTNode) -> cst.CSTNode:
        """``node`` itself, or for another module's node the call it ran under."""
        found = self._by_node.get(id(node))
        return node if found is None else found[1].node

    def describe(self, node: cst.CSTNode, call_line: int) -> str:
        event, _, _ = self._by_node[id(node)]
        function = event.function
        loaded: LoadedModule = function.origin  # type: ignore[union-attr,assignment]
        line = loaded.positions.span(node).line
        return (
            f"{loaded.display(self.importer)}:{line} (in `{function.qualname}`, "  # type: ignore[union-attr]
            f"called at line {call_line})"
        )


class MappedPositions:
    """``Positions`` of the linted file that also place other modules' nodes (at the
    call they ran under)."""

    def __init__(self, positions: Positions, places: ForeignPlaces) -> None:
        self.positions = positions
        self.places = places

    def anchor(self, node: cst.CSTNode, statement: cst.CSTNode | None) -> None:
        self.positions.anchor(node, statement)

    def compute(self, nodes: list[cst.CSTNode]) -> None:
        self.positions.compute([self.places.local(node) for node in nodes])

    def span(self, node: cst.CSTNode) -> Span:
        return self.positions.span(self.places.local(node))
