"""Linting one file end to end, and many files in a process pool.

One task = one file: read, decode (or join a notebook's cells), pre-filter,
look up the cache, analyse, apply fixes if asked, drop suppressed findings,
map positions back to what the user sees. Everything a worker needs travels
in the task, so ``-j N`` gives exactly the results of ``-j 1``.
"""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from zerograd_guard.lint.cache import ResultCache, cache_key
from zerograd_guard.lint.collector import frozen_heap, raised_thresholds
from zerograd_guard.lint.findings import Edit, Finding, Fix
from zerograd_guard.lint.fixes_apply import (
    applicable,
    apply_edits,
    checkable,
    parses,
    with_newline,
)
from zerograd_guard.lint.forked import map_forked
from zerograd_guard.lint.legacy_syntax import mask_legacy_syntax
from zerograd_guard.lint.lines import LineIndex, split_lines
from zerograd_guard.lint.noqa import (
    Suppressions,
    filter_suppressed,
    needed_before_analysis,
    read_suppressions,
)
from zerograd_guard.lint.notebooks import Notebook, NotebookError, read_notebook
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.prefilter import may_call_backward, may_contain_backward
from zerograd_guard.lint.rules.base import Rule
from zerograd_guard.lint.sourcefile import (
    MAX_FILE_BYTES,
    MAX_NOTEBOOK_BYTES,
    SourceError,
    SourceText,
    check_code_size,
    decode_notebook,
    decode_python,
    read_bytes,
    write_atomic,
)

if TYPE_CHECKING:
    from zerograd_guard.lint.project.graph import Project, ProjectContext

MAX_FIX_ROUNDS = 25
NO_FAST_PATH_ENV = "ZEROGRAD_NO_FAST_PATH"  # set (not "0"): as ``--no-fast-path``


@dataclass(frozen=True)
class FileSettings:
    """What the configuration governing one file says."""

    options: AnalysisOptions
    rules: tuple[type[Rule], ...]
    disabled: frozenset[str] = frozenset()  # per-file-ignores
    known_codes: frozenset[str] = frozenset()  # every rule's code (for noqa warnings)
    plugin_key: str = ""  # the loaded plugins and their versions

    @property
    def config_key(self) -> str:
        codes = ",".join(f"{rule.__module__}.{rule.__qualname__}" for rule in self.rules)
        return f"{self.options.cache_key()}#{codes}#{self.plugin_key}"


@dataclass(frozen=True)
class RunSettings:
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    cache_dir: Path | None = None
    # parse only the statements that can contribute (``regions``); off: the whole file
    fast_path: bool = True


@dataclass(frozen=True)
class FileTask:
    path: Path
    display: str
    settings: FileSettings
    run: RunSettings
    # The file's bytes when they do not come from ``path`` (stdin, an editor buffer):
    # then ``--fix`` puts the fixed bytes in ``FileResult.fixed_source`` instead of
    # writing ``path``.
    source: bytes | None = None
    project: ProjectContext | None = None  # project mode (see ``zerograd_guard.lint.project``)


@dataclass(frozen=True)
class LocatedEdit:
    """A fix edit in the user's coordinates (for notebooks: in the cell's own text)."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str
    cell: int | None = None


@dataclass(frozen=True)
class Reported:
    """A finding as the user sees it: in a file (and cell), with a located fix."""

    path: str
    code: str
    message: str
    line: int
    column: int
    end_line: int
    end_column: int
    cell: int | None = None
    fix: Fix | None = None
    fix_edits: tuple[LocatedEdit, ...] = ()
    hint: str | None = None  # the finding's own advice (``Finding.hint``)
    source_line: str = ""  # the reported line's text, stripped (for SARIF fingerprints)
    # Notebooks: (line, column, end line, end column) in the notebook file's own text of
    # the JSON string holding the reported cell line (what SARIF and GitHub show).
    file_region: tuple[int, int, int, int] | None = None

    @property
    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.column, self.code)


@dataclass
class FileResult:
    path: str
    reported: list[Reported] = field(default_factory=list)
    error: str | None = None
    # Errors in a part of the file (a notebook cell that does not parse) whose other
    # parts were still analysed: (location after the path, message).
    part_errors: list[tuple[str, str]] = field(default_factory=list)
    # (location after the path, message) of each warning about the file's comments.
    warnings: list[tuple[str, str]] = field(default_factory=list)
    diff: str | None = None
    fixes_applied: int = 0
    fixed_source: bytes | None = None  # for a task with ``source``: the bytes after --fix
    fixed_codes: list[str] = field(default_factory=list)  # the code of each applied fix


class _NeedsAnalysis(Exception):
    """A lint without parsing met a file that needs the analyzer."""


BUILTIN_RULES_PACKAGE = "zerograd_guard.lint.rules."


class _Analysis:
    """The analyzer behind the pre-filters and the cache, for one task."""

    def __init__(self, task: FileTask, cache_only: bool = False) -> None:
        self.settings = task.settings
        self.cache = ResultCache(task.run.cache_dir) if task.run.cache_dir else None
        self.cache_only = cache_only
        # The fast path's proof covers the built-in rules; a plugin rule may read any part
        # of the tree, so with one the whole file is parsed (after the old pre-filter).
        self.fast_path = task.run.fast_path and all(
            rule.__module__.startswith(BUILTIN_RULES_PACKAGE) for rule in task.settings.rules
        )
        self.config_key = task.settings.config_key + ("" if self.fast_path else "#whole-file")
        self.context = task.project
        if self.context is not None:  # the result also depends on every file it may read
            self.config_key = f"{self.config_key}#project={self.context.key}"

    def may_find(self, program: str) -> bool:
        """False when the text pre-filter rules out every finding. In project mode a file
        without a backward may still call one in another module (a candidate)."""
        if self.context is not None and self.context.candidate:
            return True
        prefilter = may_call_backward if self.fast_path else may_contain_backward
        return prefilter(program, self.settings.options)

    def __call__(self, program: str) -> list[Finding]:
        # The text pre-filter is cheaper than hashing and reading a cache entry.
        if not self.may_find(program):
            return []
        key = cache_key(program, self.config_key)
        if self.cache is not None:
            cached = self.cache.get(key)
            if cached is not None:
                return cached
        if self.cache_only:
            raise _NeedsAnalysis
        check_code_size(program)
        findings = checkable(self._analyse(program), program)
        if self.cache is not None:
            self.cache.put(key, findings)
        return findings

    def _analyse(self, program: str) -> list[Finding]:
        text: str | None = program
        if self.fast_path:
            from zerograd_guard.lint.project.session import seeds
            from zerograd_guard.lint.regions import analysed_text

            text = analysed_text(
                program,
                self.settings.options,
                project_mode=self.context is not None,
                project_seeds=seeds(self.context),
            )
            if text is None:
                return []  # no statement can contribute: libcst is not even imported
        # Imported only on a cache miss: the analyzer pulls in libcst, which a
        # warm run over unchanged files never needs.
        from zerograd_guard.lint.analyze import analyze_source
        from zerograd_guard.lint.project.session import lookup

        return analyze_source(
            text,
            self.settings.options,
            list(self.settings.rules),
            lookup(self.context, self.settings.options),
        )


@dataclass
class _Program:
    """The analysed text and, for notebooks, the notebook it came from."""

    file_text: str
    text: str
    notebook: Notebook | None
    _suppressions: Suppressions | None = field(default=None, repr=False, compare=False)

    def suppressions(self, known: frozenset[str] = frozenset()) -> Suppressions:
        """The ``# noqa`` comments of the analysed text (read once)."""
        if self._suppressions is None:
            self._suppressions = read_suppressions(self.text, known)
        return self._suppressions

    @classmethod
    def of(cls, file_text: str, is_notebook: bool, drop_broken_cells: bool = False) -> _Program:
        if not is_notebook:
            return cls(file_text, mask_legacy_syntax(file_text), None)
        notebook = read_notebook(file_text)
        if drop_broken_cells:
            notebook = notebook.without_broken_cells() or notebook
        return cls(file_text, notebook.source, notebook)

    def without_broken_cells(self) -> _Program | None:
        """A notebook without its cells that do not parse; None when there is none."""
        notebook = self.notebook.without_broken_cells() if self.notebook else None
        return None if notebook is None else _Program(self.file_text, notebook.source, notebook)

    def edited(self, fix: Fix, newline: str) -> _Program | None:
        edits = with_newline(fix.edits, newline)
        try:
            # masked text keeps every offset: the edits apply to the file as written
            text = apply_edits(self.file_text if self.notebook is None else self.text, edits)
        except ValueError:
            return None
        if self.notebook is None:
            program = _Program.of(text, is_notebook=False)
            return program if parses(program.text) else None
        file_text = self.notebook.edited(edits)
        if file_text is None:
            return None
        program = _Program.of(
            file_text, is_notebook=True, drop_broken_cells=bool(self.notebook.left_out)
        )
        return program if parses(program.text) else None


def _fix_id(fix: Fix) -> tuple[str, tuple[tuple[int, int, str], ...]]:
    return (fix.description, tuple((e.start, e.end, e.content) for e in fix.edits))


def _visible(findings: list[Finding], program: _Program, disabled: frozenset[str]) -> list[Finding]:
    """Findings left after ``per-file-ignores`` and ``# noqa`` comments."""
    kept = [f for f in findings if not any(f.code.startswith(code) for code in disabled)]
    return filter_suppressed(kept, program.suppressions()) if kept else kept


def _apply_fixes(
    program: _Program, findings: list[Finding], analyse: _Analysis, task: FileTask, newline: str
) -> tuple[_Program, list[Finding], list[str]]:
    """Apply fixes one at a time, re-analysing after each.

    A fix is kept only if the result parses, analyses, and has fewer findings of
    the fixed code (so a fix that does not remove its finding can never be
    applied twice). Suppressed findings are never fixed.
    """
    from zerograd_guard.lint.errors import AnalysisError

    rejected: set[tuple[str, tuple[tuple[int, int, str], ...]]] = set()
    applied: list[str] = []
    disabled, unsafe = task.settings.disabled, task.run.unsafe_fixes
    for _ in range(MAX_FIX_ROUNDS):
        visible = _visible(findings, program, disabled)
        candidates = [fix for fix in applicable(visible, unsafe) if _fix_id(fix) not in rejected]
        if not candidates:
            break
        fix = candidates[0]
        code = next(f.code for f in visible if f.fix is fix)
        edited = program.edited(fix, newline)
        new_findings: list[Finding] | None = None
        if edited is not None and edited.text != program.text:
            try:
                new_findings = analyse(edited.text)
            except (AnalysisError, SourceError):
                new_findings = None
        if (
            edited is None
            or new_findings is None
            or _count(_visible(new_findings, edited, disabled), code) >= _count(visible, code)
        ):
            rejected.add(_fix_id(fix))
            continue
        program, findings = edited, new_findings
        applied.append(code)
    return program, findings, applied


def _count(findings: list[Finding], code: str) -> int:
    return sum(1 for finding in findings if finding.code == code)


def unified_diff(before: str, after: str, display: str) -> str:
    """A ``diff -u`` style patch, marking a last line without a newline as patch does.

    Lines keep their own ending (``\r\n``, ``\r`` or ``\n``); a line ended by a
    lone ``\r`` (classic Mac) also gets a ``\n``, so the patch shows one line per
    line instead of lines printed over each other.
    """
    lines = difflib.unified_diff(
        split_lines(before, keepends=True),
        split_lines(after, keepends=True),
        fromfile=display,
        tofile=display,
    )
    return "".join(_terminated(line) for line in lines)


def _terminated(line: str) -> str:
    if line.endswith("\n"):
        return line
    if line.endswith("\r"):
        return line + "\n"
    return line + "\n\\ No newline at end of file\n"


def _locate(program: _Program, finding: Finding, display: str, lines: LineIndex) -> Reported:
    def position(offset: int) -> tuple[int | None, int, int]:
        line, column = lines.position(offset)
        if program.notebook is None:
            return None, line, column
        return program.notebook.position(line, column)

    def located(edit: Edit) -> LocatedEdit:
        if program.notebook is not None:
            in_cell = program.notebook.edit_in_cell(edit)
            if in_cell is not None:
                cell, line, column, end_line, end_column, content = in_cell
                return LocatedEdit(line, column, end_line, end_column, content, cell)
        cell, line, column = position(edit.start)
        _, end_line, end_column = position(edit.end)
        return LocatedEdit(line, column, end_line, end_column, edit.content, cell)

    edits = tuple(map(located, finding.fix.edits)) if finding.fix is not None else ()
    message, hint = finding.message, finding.hint
    cell, line, column = None, finding.line, finding.column
    end_line, end_column = finding.end_line, finding.end_column
    file_region = None
    if program.notebook is not None:
        cell, line, column = program.notebook.position(finding.line, finding.column)
        end_cell, end_line, end_column = program.notebook.position(
            finding.end_line, finding.end_column
        )
        if end_cell != cell:
            end_line, end_column = line, column
        message = program.notebook.cite_lines(message)
        hint = program.notebook.cite_lines(hint) if hint is not None else None
        file_region = program.notebook.file_region(cell, line)
    return Reported(
        path=display,
        code=finding.code,
        message=message,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        cell=cell,
        fix=finding.fix,
        fix_edits=edits,
        hint=hint,
        source_line=lines.line(finding.line).strip(),
        file_region=file_region,
    )


def _where(program: _Program, line: int) -> str:
    """``line`` (``cell N:line`` in a notebook) of a line of the analysed text."""
    if program.notebook is None:
        return str(line)
    cell, cell_line, _ = program.notebook.position(line, 1)
    return f"cell {cell}:{cell_line}"


def _decode(raw: bytes, is_notebook: bool) -> SourceText:
    return decode_notebook(raw) if is_notebook else decode_python(raw)


def _lint(task: FileTask, cache_only: bool = False) -> FileResult:
    from zerograd_guard.lint.errors import AnalysisError

    if cache_only and (task.run.fix or task.run.diff):
        raise _NeedsAnalysis
    result = FileResult(task.display)
    is_notebook = task.path.suffix == ".ipynb"
    limit = MAX_NOTEBOOK_BYTES if is_notebook else MAX_FILE_BYTES
    raw = task.source if task.source is not None else read_bytes(task.path, limit)
    source = _decode(raw, is_notebook)
    program = _Program.of(source.text, is_notebook)
    known = task.settings.known_codes
    if needed_before_analysis(program.text, known):
        suppressions = program.suppressions(known)
        result.warnings = [
            (_where(program, line), message) for line, message in suppressions.warnings
        ]
        if suppressions.opted_out:
            return result
    if not task.settings.rules:
        return result
    analyse = _Analysis(task, cache_only)
    if not analyse.may_find(program.text):
        return result
    try:
        findings = analyse(program.text)
    except AnalysisError as exc:
        trimmed = program.without_broken_cells()
        if trimmed is None:
            result.error = " ".join(str(exc).split())
            return result
        program = trimmed
        try:
            findings = analyse(program.text)
        except AnalysisError as again:
            result.error = " ".join(str(again).split())
            return result
    if program.notebook is not None:
        result.part_errors = [
            (f"cell {cell.cell}:{cell.line}:{cell.column}", f"syntax error: {cell.message}")
            for cell in program.notebook.left_out
        ]
    if task.run.fix or task.run.diff:
        newline = "\n" if is_notebook else source.newline
        fixed, fixed_findings, fixed_codes = _apply_fixes(program, findings, analyse, task, newline)
        written = True
        if fixed.file_text != program.file_text:
            if task.run.diff:
                result.diff = unified_diff(program.file_text, fixed.file_text, task.display)
            elif task.source is not None:
                result.fixed_source = source.encode(fixed.file_text)
            else:
                written = _write_fixed(task.path, source.encode(fixed.file_text), raw, result)
        if written:
            program, findings = fixed, fixed_findings
            result.fixed_codes = fixed_codes
            result.fixes_applied = len(fixed_codes)
    kept = _visible(findings, program, task.settings.disabled)
    if kept:
        lines = LineIndex(program.text)
        result.reported = [_locate(program, finding, task.display, lines) for finding in kept]
    return result


def _write_fixed(path: Path, data: bytes, read: bytes, result: FileResult) -> bool:
    """Write a fixed file unless it changed since it was ``read``; a refusal or a write
    failure becomes the file's error (its findings stay reported, unfixed)."""
    try:
        write_atomic(path, data, expected=read)
    except SourceError as exc:
        result.error = str(exc)
        return False
    except OSError as exc:
        result.error = f"cannot write: {exc.strerror or exc}"
        return False
    return True


def lint_file(task: FileTask) -> FileResult:
    """Lint one file; every failure becomes a one-line ``error``, never an exception."""
    result = _guarded_lint(task, cache_only=False)
    assert result is not None  # only a cache-only lint can leave a file unanswered
    return result


def _lint_without_parsing(task: FileTask) -> FileResult | None:
    """The file's result when the pre-filter or the cache answers it, else ``None``."""
    return _guarded_lint(task, cache_only=True)


def _guarded_lint(task: FileTask, cache_only: bool) -> FileResult | None:
    try:
        return _lint(task, cache_only)
    except _NeedsAnalysis:
        return None
    except (SourceError, NotebookError) as exc:
        return FileResult(task.display, error=str(exc))
    except RecursionError:
        return FileResult(task.display, error="too deeply nested to analyse")
    except OSError as exc:
        return FileResult(task.display, error=f"cannot write: {exc.strerror or exc}")
    except Exception as exc:  # an analyzer bug must not hide the other files' results
        detail = " ".join(str(exc).split())
        return FileResult(task.display, error=f"internal error: {type(exc).__name__}: {detail}")


def _size(task: FileTask) -> int:
    try:
        return task.path.stat().st_size
    except OSError:
        return 0


KILLED_WORKER = "the process analysing it was killed (out of memory?)"


# Pending work below this many bytes is analysed in this process: starting workers
# (forking, each importing what the parent has not) costs more than ten small files.
IN_PROCESS_BYTES = 150_000


def _run_pool(tasks: Sequence[FileTask], jobs: int, project: Project | None) -> list[FileResult]:
    sizes = {id(task): _size(task) for task in tasks}
    if len(tasks) <= 1 or sum(sizes.values()) <= IN_PROCESS_BYTES:
        return [lint_file(task) for task in tasks]
    # Import the analyzer (and libcst) once here: forked workers inherit it.
    import zerograd_guard.lint.analyze
    import zerograd_guard.lint.regions  # noqa: F401
    from zerograd_guard.lint.project.session import install

    workers = min(jobs, len(tasks))
    # Largest files first and small chunks: one slow file must not leave the
    # other workers idle at the end. Each worker lints one file at a time and drops
    # its tree before the next (``analyze_source`` releases the model).
    ordered = sorted(tasks, key=lambda task: sizes[id(task)], reverse=True)
    chunksize = max(1, min(16, len(tasks) // (workers * 64)))
    try:
        with ProcessPoolExecutor(
            max_workers=workers, initializer=install, initargs=(project,)
        ) as pool:
            return list(pool.map(lint_file, ordered, chunksize=chunksize))
    except BrokenProcessPool:
        return _isolate_killer(ordered, project)


def _isolate_killer(tasks: Sequence[FileTask], project: Project | None) -> list[FileResult]:
    """After a worker died (the OOM killer, a signal): lint the files again in one
    worker at a time, so the file whose worker dies is known; it gets an error, every
    other file its result. Slower, and only ever after a crash."""
    from zerograd_guard.lint.project.session import install

    results: list[FileResult] = []
    pending = list(tasks)
    while pending:
        with ProcessPoolExecutor(max_workers=1, initializer=install, initargs=(project,)) as pool:
            futures = []
            with contextlib.suppress(BrokenProcessPool):  # the worker may die meanwhile
                for task in pending:
                    futures.append(pool.submit(lint_file, task))
            done = 0
            try:
                for future in futures:
                    results.append(future.result())
                    done += 1
            except BrokenProcessPool:
                killed = True
            else:
                killed = done == 0  # cannot happen; guarantees progress
            if killed:
                results.append(FileResult(pending[done].display, error=KILLED_WORKER))
                done += 1
        pending = pending[done:]
    return results


def run_tasks(
    tasks: Sequence[FileTask], jobs: int, project: Project | None = None
) -> list[FileResult]:
    """Lint every task; results sorted by path, whatever the number of jobs. ``project``:
    the index of the run's files, for tasks that carry a ``ProjectContext``."""
    from zerograd_guard.lint.project.session import install

    install(project)
    try:
        with raised_thresholds(), frozen_heap() if project else contextlib.nullcontext():
            results = _run_all(tasks, jobs, project)
    finally:
        install(None)
    for result in results:
        result.reported.sort(key=lambda item: item.sort_key)
    return sorted(results, key=lambda result: result.path)


def _run_all(tasks: Sequence[FileTask], jobs: int, project: Project | None) -> list[FileResult]:
    if jobs <= 1 or len(tasks) <= 1:
        results = [lint_file(task) for task in tasks]
    else:
        # Answer here first what needs no parse (the pre-filter, the cache): a warm run
        # must not pay for starting workers (and importing libcst) to read cache
        # entries, and what is left tells whether workers are worth starting at all.
        results, pending = [], []
        # in forked workers for a large run (``forked.MIN_ITEMS``): one process reading
        # and scanning every file of a large tree leaves the other cores idle
        answers = map_forked(lambda index: _lint_without_parsing(tasks[index]), len(tasks), jobs)
        for task, answered in zip(tasks, answers, strict=True):
            if answered is None:
                pending.append(task)
            else:
                results.append(answered)
        results.extend(_run_pool(pending, jobs, project))
    return results
