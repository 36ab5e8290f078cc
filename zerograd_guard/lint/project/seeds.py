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
    """The analysed file's imports (and the names its ``*`` imports bind), asked lazily
    how a statement may reach a backward through them: only the names its statements
    use are looked up (``lint.regions`` asks ``use`` and ``chain``)."""

    project: Project
    entry: ModuleEntry
    targets: dict[str, list[Target]]  # a name -> the linted definitions it may bind
    modules: frozenset[str]  # names bound to linted modules: reached by their chains
    # top-level functions (classes, and their methods using it) callers may pass an
    # instance that runs a backward (``Project.fed_definitions``): what the analysis
    # types their parameters with
    fed: frozenset[str] = frozenset()
    imported: frozenset[str] = field(init=False)  # the names of ``targets``
    _uses: dict[str, Use | None] = field(default_factory=dict)
    _chains: dict[str, Use | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.imported = frozenset(self.targets)

    def use(self, name: str) -> Use | None:
        """How a use of ``name`` (one of ``imported``) may reach a backward."""
        if name not in self._uses:
            uses = {_use(self.project, target) for target in self.targets.get(name, ())}
            self._uses[name] = (
                Use.ANY if Use.ANY in uses else Use.RUNS if Use.RUNS in uses else None
            )
        return self._uses[name]

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
    if not project.reaches(target.entry, name, "backward"):
        return None
    # a class (its methods' backwards, its bases' included) runs when called, derived
    # from, or when ``Cls.method`` is read
    return Use.RUNS if project.is_class((target.entry.path, name)) else Use.ANY


def import_seeds(project: Project, entry: ModuleEntry) -> ImportSeeds:
    """``entry``'s seeds: its imports, and the names its ``*`` imports of linted modules
    bind (one of a module outside the run binds nothing linted)."""
    targets: dict[str, list[Target]] = {}
    modules: set[str] = set()

    def add(local: str, target: Target | None) -> None:
        if target is None or target.entry is entry:
            return
        if target.attribute:
            targets.setdefault(local, []).append(target)
        else:
            modules.add(local)

    for local in entry.imports:
        add(local, project.resolve_local(entry, local))
    for module in project.star_modules(entry):
        for name in module.definitions:
            add(name, Target(module, (name,)))
        for name in module.imports:
            add(name, project.resolve_local(module, name))
    return ImportSeeds(project, entry, targets, frozenset(modules), project.fed_definitions(entry))
