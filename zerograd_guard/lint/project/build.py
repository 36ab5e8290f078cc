"""Building the project index from the files of a run (in the parent, before any task)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from zerograd_guard.lint.collector import raised_thresholds
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import may_contain_backward
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
        backward=may_contain_backward(text, options),
    )


# Below this many files the index is built in this process: forking workers and sending
# the entries back costs more than indexing them (~1 ms a file).
PARALLEL_MIN_FILES = 1_000


def build_project(
    paths: Iterable[Path],
    options: AnalysisOptions,
    cache_dir: Path | None = None,
    jobs: int = 1,
) -> Project:
    """Index the run's ``.py`` files and notebooks (stubs are not analysed as code);
    ``cache_dir``: reuse the entries of unchanged files from the last run, and its task
    contexts when no file changed (``save_project`` writes them back). ``jobs``: index
    a large run in that many forked workers (each file's entry depends on that file
    alone, so the entries, in the run's order, are the same)."""
    markers = tuple(
        sorted(options.extra_backward_calls | options.extra_clear_calls | options.extra_step_calls)
    )
    known, contexts = index_cache.load_all(cache_dir, markers)
    indexed = [path for path in paths if path.suffix in (".py", ".ipynb")]
    with raised_thresholds():
        if jobs > 1 and len(indexed) >= PARALLEL_MIN_FILES and _can_fork():
            found = _index_in_workers(indexed, options, markers, known, jobs)
        else:
            found = [_entry(path, options, markers, known) for path in indexed]
    entries = [entry for entry in found if entry is not None]
    # a context depends on every entry: it is reused only when none changed
    unchanged = len(entries) == len(known) and all(
        known.get(entry.path) == entry for entry in entries
    )
    return Project(entries, markers, contexts if unchanged else None, keyed=cache_dir is not None)


def _can_fork() -> bool:
    """Whether workers here are forked (they inherit what this process imported), asked
    without fixing the process's start method."""
    import multiprocessing

    method = multiprocessing.get_start_method(allow_none=True)
    return (method or multiprocessing.get_all_start_methods()[0]) == "fork"


def _index_chunk(
    chunk: list[Path],
    options: AnalysisOptions,
    markers: tuple[str, ...],
    known: dict[str, ModuleEntry],
) -> list[ModuleEntry | None]:
    return [_entry(path, options, markers, known) for path in chunk]


def _index_in_workers(
    paths: list[Path],
    options: AnalysisOptions,
    markers: tuple[str, ...],
    known: dict[str, ModuleEntry],
    jobs: int,
) -> list[ModuleEntry | None]:
    from concurrent.futures import ProcessPoolExecutor

    size = max(1, len(paths) // (jobs * 8))
    chunks = [paths[start : start + size] for start in range(0, len(paths), size)]
    import multiprocessing

    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=multiprocessing.get_context("fork")
    ) as pool:
        futures = [
            pool.submit(_index_chunk, chunk, options, markers, _known_of(chunk, known))
            for chunk in chunks
        ]
        return [entry for future in futures for entry in future.result()]


def _known_of(chunk: list[Path], known: dict[str, ModuleEntry]) -> dict[str, ModuleEntry]:
    """The cached entries of ``chunk``'s files (what a worker is sent)."""
    found = {}
    for path in chunk:
        key = str(layout.absolute(path))
        if key in known:
            found[key] = known[key]
    return found


def save_project(project: Project, cache_dir: Path | None) -> None:
    """Write the index and the contexts computed so far, if they are new."""
    if project.unsaved:
        index_cache.save(
            cache_dir, project.markers, list(project.entries.values()), project.contexts
        )
