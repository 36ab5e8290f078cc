"""What a statement of the analysed file must use to reach a backward in another module.

The fast path (``lint.regions``) keeps a statement without a backward of its own when it
may call one elsewhere; this says which uses of the file's imports may. A use of an
imported function that may run a backward (within what the analysis follows) may call
it. A class that may touch gradients runs code only when the statement calls it, derives
from it or reads an attribute of it (``Cls.method(...)``), and only a class whose methods (or
its bases') hold a backward can reach one: naming it in an annotation or an
``isinstance`` check runs none of its code. An imported module leads where its
``module.a.b`` chains resolve: the analysis follows a call into another module only by
the dotted name it is written with, so a module passed on whole (``getattr(torch, n)``)
leads nowhere it can see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from zerograd_guard.lint.project.graph import Project, Target
from zerograd_guard.lint.project.index import ModuleEntry
from zerograd_guard.lint.regions import Use


@dataclass
class ImportSeeds:
    """The analysed file's imports, sorted by how a statement may reach a backward
    through them (``lint.regions`` reads the three sets and asks ``chain``)."""

    project: Project
    entry: ModuleEntry
    functions: frozenset[str] = frozenset()  # any use may reach
    classes: frozenset[str] = frozenset()  # reached when called, derived from, read
    modules: frozenset[str] = frozenset()  # reached by their chains
    _chains: dict[str, Use | None] = field(default_factory=dict)

    def chain(self, dotted: str) -> Use | None:
        """How ``module.a.b`` (its head one of ``modules``) may reach a backward."""
        if dotted not in self._chains:
            target = self.project.resolve_local(self.entry, dotted)
            self._chains[dotted] = None if target is None else _use(self.project, target)
        return self._chains[dotted]


def _use(project: Project, target: Target) -> Use | None:
    if not target.attribute:
        return None  # a module passed on whole: what is called through it is not followed
    name = target.attribute[0]
    if not project.is_class((target.entry.path, name)):
        return Use.ANY if project.reaches(target.entry, name, "backward") else None
    # its methods' backwards, its bases' included; ``Cls.method`` runs when called too
    return Use.RUNS if project.reaches(target.entry, name, "backward") else None


def import_seeds(project: Project, entry: ModuleEntry) -> ImportSeeds:
    """``entry``'s seeds: its imports, and the names its ``*`` imports of linted modules
    bind (one of a module outside the run binds nothing linted)."""
    functions, classes, modules = set(), set(), set()

    def add(local: str, target: Target | None) -> None:
        if target is None or target.entry is entry:
            return
        if not target.attribute:
            modules.add(local)
            return
        use = _use(project, target)
        if use is Use.ANY:
            functions.add(local)
        elif use is Use.RUNS:
            classes.add(local)

    for local in entry.imports:
        add(local, project.resolve_local(entry, local))
    for module in project.star_modules(entry):
        for name in module.definitions:
            add(name, Target(module, (name,)))
        for name in module.imports:
            add(name, project.resolve_local(module, name))
    return ImportSeeds(project, entry, frozenset(functions), frozenset(classes), frozenset(modules))
