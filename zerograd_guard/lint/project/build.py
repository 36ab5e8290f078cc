"""Building the project index from the files of a run (in the parent, before any task)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from zerograd_guard.lint.collector import raised_thresholds
from zerograd_guard.lint.forked import map_forked
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import may_call_backward
from zerograd_guard.lint.project import index_cache, layout
from zerograd_guard.lint.project.graph import Project
from zerograd_guard.lint.project.index import ModuleEntry, index_source
from zerograd_guard.lint.project.sources import digest_of, module_text
from zerograd_guard.lint.sourcefile import SourceError, read_bytes


def _entry(
    path: Path, options: AnalysisOptions, markers: tuple[str, ...], known: dict[str, ModuleEntry]
) -> ModuleEntry | None:
    try:
        raw = read_bytes(path)
    except (OSError, SourceError):
        return None  # the file's own task reports why it cannot be read
    absolute = layout.absolute(path)
    digest = digest_of(raw)
    # notebooks import, but nothing imports them
    names = layout.module_names(absolute) if path.suffix == ".py" else ()
    previous = known.get(str(absolute))
    if previous is not None and previous.digest == digest and previous.names == names:
        return previous
    try:
        text = module_text(path, raw)
    except SourceError:
        return None
    return index_source(
        text,
        path=str(absolute),
        names=names,
        digest=digest,
        is_package=absolute.name == "__init__.py",
        markers=markers,
        backward=may_call_backward(text, options),
    )


def build_project(
    paths: Iterable[Path],
    options: AnalysisOptions,
    cache_dir: Path | None = None,
    jobs: int = 1,
) -> Project:
    """Index the run's ``.py`` files and notebooks (stubs are not analysed as code);
    ``cache_dir``: reuse the entries of unchanged files from the last run, and its task
    contexts when no file changed (``save_project`` writes them back). ``jobs``: index
    a large run (``forked.MIN_ITEMS`` files) in that many forked workers (each file's
    entry depends on that file alone, so the entries, in the run's order, are the
    same)."""
    markers = tuple(
        sorted(options.extra_backward_calls | options.extra_clear_calls | options.extra_step_calls)
    )
    known, contexts = index_cache.load_all(cache_dir, markers)
    indexed = [path for path in paths if path.suffix in (".py", ".ipynb")]
    with raised_thresholds():
        found = map_forked(
            lambda index: _entry(indexed[index], options, markers, known), len(indexed), jobs
        )
    entries = [entry for entry in found if entry is not None]
    # a context depends on every entry: it is reused only when none changed
    unchanged = len(entries) == len(known) and all(
        known.get(entry.path) == entry for entry in entries
    )
    return Project(entries, markers, contexts if unchanged else None, keyed=cache_dir is not None)


def save_project(project: Project, cache_dir: Path | None) -> None:
    """Write the index and the contexts computed so far, if they are new."""
    if project.unsaved:
        index_cache.save(
            cache_dir, project.markers, list(project.entries.values()), project.contexts
        )
