"""``zerograd-lint``: the command line.

Exit codes: 0 no findings (or ``--exit-zero``), 1 findings (with ``--diff``:
fixes to apply), 2 a usage or configuration error, or a file that could not be
read or parsed. Every user error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from zerograd_guard._version import __version__
from zerograd_guard.lint.cache import DEFAULT_DIRNAME
from zerograd_guard.lint.config import Config, ConfigError, ConfigResolver, load_config_file
from zerograd_guard.lint.console import COLOR_CHOICES, use_colour
from zerograd_guard.lint.discovery import Discovered, discover
from zerograd_guard.lint.formats import FORMATS
from zerograd_guard.lint.formats.paths import printable
from zerograd_guard.lint.formats.text import error_line
from zerograd_guard.lint.listing import render_files, render_rules, render_settings
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.plugins.manager import Contributions, PluginError
from zerograd_guard.lint.runner import (
    NO_FAST_PATH_ENV,
    FileResult,
    FileSettings,
    FileTask,
    Reported,
    RunSettings,
)
from zerograd_guard.lint.selection import SelectionError, expand, per_file_ignored, resolve

if TYPE_CHECKING:
    from zerograd_guard.lint.project.graph import Project
    from zerograd_guard.lint.rules.base import Rule

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
CACHE_DIR_ENV = "ZEROGRAD_LINT_CACHE_DIR"
STDIN = "-"
SUBCOMMANDS = ("rules", "server")


class UsageError(Exception):
    """A bad invocation; ``str()`` is the one-line message."""


def _codes(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid job count {value!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError("the job count must be at least 1")
    return jobs


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zerograd-lint",
        description="Find PyTorch training loops whose gradients are not cleared, "
        "cleared too early, or cleared so that accumulation breaks.",
    )
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or folders (default: .); '-' reads one file from stdin; "
        "'zerograd-lint rules' lists the rules, 'zerograd-lint server' starts the language server",
    )
    parser.add_argument(
        "--output-format",
        "--format",
        dest="format",
        choices=FORMATS,
        default="text",
        help="output format (text is also called concise)",
    )
    parser.add_argument("-o", "--output-file", metavar="PATH", help="write the report to PATH")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print findings only: no summary, no warnings"
    )
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the text output (auto: on a terminal, or when FORCE_COLOR is set)",
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the name of the file read from stdin ('-'): its configuration, notebook or not",
    )
    parser.add_argument(
        "--select",
        type=_codes,
        action="extend",
        metavar="CODES",
        help="only these codes or prefixes (comma-separated; ALL for all)",
    )
    parser.add_argument(
        "--extend-select",
        type=_codes,
        action="extend",
        metavar="CODES",
        help="add codes to the configured selection",
    )
    parser.add_argument(
        "--ignore",
        type=_codes,
        action="extend",
        metavar="CODES",
        help="skip these codes or prefixes",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    parser.add_argument("--explain", metavar="CODE", help="print a rule's documentation")
    parser.add_argument("--version", action="version", version=f"zerograd-lint {__version__}")
    parser.add_argument("--statistics", action="store_true", help="print counts per code")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"cache folder (default: ${CACHE_DIR_ENV}, the config's cache-dir, "
        ".zerograd_cache in the project root)",
    )
    parser.add_argument(
        "--no-fast-path",
        action="store_true",
        help=f"parse whole files (same findings; for comparisons; or {NO_FAST_PATH_ENV}=1)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="parallel processes (default: number of cores)",
    )
    parser.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    parser.add_argument(
        "--fix-only",
        action="store_true",
        help="apply fixes and report nothing else (exit 0 unless --exit-non-zero-on-fix)",
    )
    parser.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="exit 1 when a fix was applied, even if no finding remains",
    )
    parser.add_argument(
        "--show-fixes", action="store_true", help="list the fixes applied, per file and code"
    )
    parser.add_argument(
        "--add-noqa",
        action="store_true",
        help="append '# noqa: CODE' to every reported line (adopting the tool on legacy code)",
    )
    parser.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    parser.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
    )
    parser.add_argument(
        "--extend-exclude",
        type=_codes,
        action="extend",
        metavar="PATTERNS",
        help="more exclude patterns (comma-separated, gitignore syntax)",
    )
    parser.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="skip what .gitignore files ignore in folder walks (default: on)",
    )
    parser.add_argument(
        "--show-files", action="store_true", help="print the files that would be linted, and exit"
    )
    parser.add_argument(
        "--show-settings",
        metavar="FILE",
        help="print the configuration that governs FILE, and exit",
    )
    parser.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply excludes to files named on the command line too",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="use this pyproject.toml (or TOML file) instead of discovery",
    )
    parser.add_argument(
        "--no-plugins", action="store_true", help="do not load plugins from installed packages"
    )
    parser.add_argument(
        "--no-project",
        action="store_true",
        help="analyse each file alone (calls into other linted modules stay unknown)",
    )
    return parser


def _known_rules(contributions: Contributions) -> dict[str, type[Rule]]:
    from zerograd_guard.lint.rules import BUILTIN_RULES

    rules: dict[str, type[Rule]] = {}
    for rule in (*BUILTIN_RULES, *contributions.rules):
        if rule.code in rules and rules[rule.code] is not rule:
            raise UsageError(f"error: two rules share the code {rule.code}")
        rules[rule.code] = rule
    return rules


def _explain(code: str, rules: dict[str, type[Rule]]) -> int:
    from zerograd_guard.lint.rule_docs import rule_markdown

    rule = rules.get(code.strip().upper())
    if rule is None:
        raise UsageError(f"error: unknown rule code {code!r} (known: {', '.join(sorted(rules))})")
    sys.stdout.write(rule_markdown(rule))
    return EXIT_CLEAN


class _Planner:
    """Turns discovered files into tasks, one settings object per governing config."""

    def __init__(
        self,
        args: argparse.Namespace,
        rules: dict[str, type[Rule]],
        contributions: Contributions,
        run: RunSettings,
    ) -> None:
        self.args = args
        self.rules = rules
        self.known = sorted(rules)
        self.contributions = contributions
        self.run = run
        self._by_config: dict[int, tuple[frozenset[str], FileSettings]] = {}

    def _for_config(self, config: Config) -> tuple[frozenset[str], FileSettings]:
        memo = self._by_config.get(id(config))
        if memo is None:
            origin = str(config.source) if config.source else "defaults"
            selected = resolve(
                self.known,
                [
                    (origin, config.select, config.extend_select, config.ignore),
                    (
                        "the command line",
                        self.args.select,
                        self.args.extend_select or (),
                        self.args.ignore or (),
                    ),
                ],
            )
            settings = FileSettings(
                options=self.contributions.merged_into(config.options),
                rules=tuple(self.rules[code] for code in sorted(selected)),
                known_codes=frozenset(self.known),
                plugin_key=self.contributions.plugin_key,
            )
            memo = (selected, settings)
            self._by_config[id(config)] = memo
        return memo

    def task(self, path: Path, config: Config) -> FileTask:
        selected, settings = self._for_config(config)
        origin = f"{config.source} per-file-ignores"
        disabled = per_file_ignored(config.per_file_ignores, path, config.root, self.known, origin)
        if disabled & selected:
            settings = dataclasses.replace(settings, disabled=frozenset(disabled))
        return FileTask(path=path, display=_display(path), settings=settings, run=self.run)

    def names(self) -> dict[str, str]:
        """Code -> rule name, for every known rule."""
        return {code: rule.name for code, rule in self.rules.items()}

    def selected_rules(self) -> list[type[Rule]]:
        """The rules selected for any linted file (for a run without files: the defaults)."""
        if not self._by_config:
            self._for_config(Config(root=Path.cwd()))
        codes = set().union(*(selected for selected, _ in self._by_config.values()))
        return [self.rules[code] for code in sorted(codes)]


def _display(path: Path) -> str:
    absolute = Path(os.path.abspath(path))
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _report(
    args: argparse.Namespace,
    results: list[FileResult],
    planner: _Planner,
    missing: int,
    out: TextIO,
    stdin_text: str | None = None,
) -> None:
    """Print findings in the chosen format.

    ``missing``: paths named on the command line that do not exist (not checked).
    """
    from zerograd_guard.lint.formats import (
        as_json,
        full,
        github,
        gitlab,
        junit,
        sarif,
        statistics,
        text,
    )
    from zerograd_guard.lint.lines_view import LineReader

    items: list[Reported] = [item for result in results for item in result.reported]
    errors = [(result.path, result.error) for result in results if result.error]
    errors += [
        (result.path, f"{where}: {message}")
        for result in results
        for where, message in result.part_errors
    ]
    rules = planner.selected_rules()
    if args.diff:
        out.writelines(result.diff for result in results if result.diff)
        fixable = sum(result.fixes_applied for result in results)
        noun = "error" if fixable == 1 else "errors"
        sys.stderr.write(
            f"Would fix {fixable} {noun}.\n" if fixable else "No errors would be fixed.\n"
        )
        return
    if args.fix_only:
        if args.show_fixes or not args.quiet:
            out.write(text.fixed_listing(results, names=planner.names()))
        return
    names = planner.names()
    levels = {rule.code: rule.level for rule in rules}
    colour = use_colour(args.color, out)
    if args.format == "json":
        out.write(
            statistics.render_json(items, names)
            if args.statistics
            else as_json.render(items, names)
        )
    elif args.format == "sarif":
        out.write(sarif.render(items, rules, errors, sarif.source_root(Path.cwd())))
    elif args.format == "github":
        out.write(github.render(items, levels))
    elif args.format == "gitlab":
        out.write(gitlab.render(items, levels))
    elif args.format == "junit":
        out.write(junit.render(results))
    else:
        if args.statistics:
            out.write(statistics.render(items, names))
        elif args.format == "full":
            out.write(full.render(items, colour, LineReader(stdin_text).line))
        else:
            out.write(text.render(items, colour))
        if args.show_fixes and args.fix:
            out.write(text.fixed_listing(results, names))
        if not args.quiet:
            fixed = sum(result.fixes_applied for result in results)
            fixable = 0 if args.fix else sum(1 for i in items if i.fix is not None and i.fix.safe)
            hidden = 0
            if not args.unsafe_fixes:
                hidden = sum(1 for i in items if i.fix is not None and not i.fix.safe)
            unchecked = len({path for path, _ in errors}) + missing  # a notebook counts once
            out.write(text.summary(len(items), fixed, fixable, unchecked, hidden))


def _cache_dir(resolver: ConfigResolver, paths: Sequence[str]) -> Path:
    """Where the cache lives when ``--cache-dir`` is not given: ``$ZEROGRAD_LINT_CACHE_DIR``,
    else the ``cache-dir`` of the configuration governing the working directory, else
    ``.zerograd_cache`` in the project root: the folder of the configuration that governs
    the working directory, else the one that governs every given path, else the working
    directory."""
    from_env = os.environ.get(CACHE_DIR_ENV)
    if from_env:
        return Path(from_env)
    governing = resolver.for_path(Path.cwd(), is_dir=True)
    if governing.cache_dir is not None:
        return governing.cache_dir
    if governing.source is None:
        configs = [resolver.for_path(Path(path)) for path in paths]
        roots = {config.root for config in configs if config.source is not None}
        if len(roots) == 1 and all(config.source is not None for config in configs):
            config = configs[0]
            return config.cache_dir or roots.pop() / DEFAULT_DIRNAME
    return governing.root / DEFAULT_DIRNAME


def _check_combinations(args: argparse.Namespace, paths: Sequence[str]) -> None:
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"error: --statistics works with --format text or json, not {args.format}")
    if STDIN in paths and len(paths) > 1:
        raise UsageError("error: '-' (stdin) cannot be combined with other paths")
    if args.stdin_filename and STDIN not in paths and args.paths:
        raise UsageError("error: --stdin-filename needs '-' (or no path) to read stdin")
    if args.add_noqa and (args.fix or args.fix_only or args.diff):
        raise UsageError("error: --add-noqa cannot be combined with --fix, --fix-only or --diff")


def _stdin_task(args: argparse.Namespace, planner: _Planner, resolver: ConfigResolver) -> FileTask:
    """The one file read from stdin, named by ``--stdin-filename`` (default ``stdin.py``)."""
    name = args.stdin_filename or "stdin.py"
    task = planner.task(Path(name), resolver.for_path(Path(name), is_dir=False))
    display = args.stdin_filename or STDIN
    return dataclasses.replace(task, display=display, source=sys.stdin.buffer.read())


def _in_project(
    tasks: list[FileTask], configs: list[Config], cache_dir: Path | None, jobs: int
) -> tuple[Project, list[FileTask]]:
    """Index the run's files as one project; tasks of files whose configuration says
    ``project = false`` stay in per-file mode."""
    from zerograd_guard.lint.collector import raised_thresholds
    from zerograd_guard.lint.project.build import build_project, save_project

    options = [task.settings.options for task in tasks]
    merged = AnalysisOptions(
        extra_backward_calls=frozenset().union(*(o.extra_backward_calls for o in options)),
        extra_clear_calls=frozenset().union(*(o.extra_clear_calls for o in options)),
        extra_step_calls=frozenset().union(*(o.extra_step_calls for o in options)),
    )
    # the index and the contexts are many small objects, nearly all kept: a collection
    # every 700 of them only traverses them
    with raised_thresholds():
        project = build_project((task.path for task in tasks), merged, cache_dir, jobs)
        in_project = [task for task, config in zip(tasks, configs, strict=True) if config.project]
        contexts = iter(project.place([task.path for task in in_project], jobs))
        placed = [
            dataclasses.replace(task, project=next(contexts)) if config.project else task
            for task, config in zip(tasks, configs, strict=True)
        ]
    save_project(project, cache_dir)
    return project, placed


def _run(args: argparse.Namespace, plugins: Sequence[object]) -> int:
    from zerograd_guard.lint.plugins.manager import load as load_plugins
    from zerograd_guard.lint.runner import run_tasks

    contributions = load_plugins(plugins, entry_points=not args.no_plugins)
    rules = _known_rules(contributions)
    if args.explain:
        return _explain(args.explain, rules)
    for option in ("select", "extend_select", "ignore"):
        expand(getattr(args, option) or (), sorted(rules), f"--{option.replace('_', '-')}")
    paths = args.paths or ([STDIN] if args.stdin_filename else ["."])
    _check_combinations(args, paths)
    args.fix = args.fix or args.fix_only
    fixed_config = load_config_file(Path(args.config)) if args.config else None
    resolver = ConfigResolver(fixed=fixed_config, extend_exclude=tuple(args.extend_exclude or ()))
    reads_stdin = paths == [STDIN]
    cache_dir: Path | None = None
    if not args.no_cache and not reads_stdin:
        cache_dir = Path(args.cache_dir) if args.cache_dir else _cache_dir(resolver, paths)
    run = RunSettings(
        fix=args.fix,
        diff=args.diff,
        unsafe_fixes=args.unsafe_fixes,
        cache_dir=cache_dir,
        fast_path=not (args.no_fast_path or os.environ.get(NO_FAST_PATH_ENV, "") not in ("", "0")),
    )
    planner = _Planner(args, rules, contributions, run)
    if args.show_settings:
        return _show_settings(Path(args.show_settings), resolver, planner, cache_dir)
    project = None
    if reads_stdin:
        found = Discovered(files=[], missing=[])
        tasks = [_stdin_task(args, planner, resolver)]
    else:
        found = discover(paths, resolver, args.force_exclude, args.respect_gitignore)
        if args.show_files:
            sys.stdout.write(render_files(found.files, _display))
            return EXIT_CLEAN
        configs = [resolver.for_path(path, is_dir=False) for path in found.files]
        tasks = [
            planner.task(path, config) for path, config in zip(found.files, configs, strict=True)
        ]
        if not args.no_project and any(config.project for config in configs):
            project, tasks = _in_project(tasks, configs, cache_dir, args.jobs or default_jobs())
    if not args.quiet:
        for warning in dict.fromkeys(resolver.warnings):
            sys.stderr.write(f"{warning}\n")
        if not tasks and not found.missing:
            sys.stderr.write("warning: no Python files found under the given paths\n")
    results = run_tasks(tasks, args.jobs or default_jobs(), project)
    for raw in found.missing:
        sys.stderr.write(f"{printable(raw)}: error: no such file or directory\n")
    for folder, cause in found.errors:
        sys.stderr.write(f"{printable(_display(Path(folder)))}: error: {cause}\n")
    for result in results:
        shown = printable(result.path)
        for where, message in result.warnings:
            sys.stderr.write(f"{shown}:{where}: warning: {message}\n")
        for where, message in result.part_errors:
            sys.stderr.write(f"{shown}:{where}: error: {message}\n")
        if result.error:
            sys.stderr.write(f"{error_line(shown, result.error)}\n")
    if args.add_noqa:
        return _add_noqa(results, tasks)
    if args.diff:
        has_findings = any(result.diff for result in results)
    else:
        has_findings = any(result.reported for result in results)
    stdin_text = None
    if reads_stdin and args.fix and not args.diff:
        # Editors and pipelines read the fixed source from stdout; the report goes to stderr.
        task, result = tasks[0], results[0]
        fixed = result.fixed_source if result.fixed_source is not None else task.source
        sys.stdout.buffer.write(fixed or b"")
        sys.stdout.flush()
        report_stream: TextIO = sys.stderr
    elif reads_stdin:
        stdin_text = (tasks[0].source or b"").decode("utf-8", "replace")
        report_stream = sys.stdout
    else:
        report_stream = sys.stdout
    try:
        with _output(args.output_file, report_stream) as out:
            _report(args, results, planner, len(found.missing) + len(found.errors), out, stdin_text)
    except BrokenPipeError:
        # Output piped into a command that stopped reading (``| head``): the verdict
        # stands; point stdout at devnull so the interpreter's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as exc:
        raise UsageError(
            f"{args.output_file}: error: cannot write: {exc.strerror or exc}"
        ) from None
    if (
        found.missing
        or found.errors
        or any(result.error or result.part_errors for result in results)
    ):
        return EXIT_ERROR
    if args.exit_non_zero_on_fix and any(result.fixes_applied for result in results):
        return EXIT_FINDINGS
    if args.fix_only:
        return EXIT_CLEAN
    if has_findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


@contextlib.contextmanager
def _output(path: str | None, default: TextIO) -> Iterator[TextIO]:
    """``-o PATH``: the report goes to that file (created, or replaced) instead."""
    if path is None:
        yield default
        return
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as handle:
        yield handle


def _show_settings(
    path: Path, resolver: ConfigResolver, planner: _Planner, cache_dir: Path | None
) -> int:
    config = resolver.for_path(path, is_dir=False)
    task = planner.task(path, config)
    selected = [rule.code for rule in task.settings.rules]
    disabled = sorted(code for code in task.settings.disabled if code in selected)
    sys.stdout.write(render_settings(path, config, selected, disabled, cache_dir))
    return EXIT_CLEAN


def _add_noqa(results: list[FileResult], tasks: list[FileTask]) -> int:
    from zerograd_guard.lint.add_noqa import add_noqa
    from zerograd_guard.lint.sourcefile import decode_python, read_bytes, write_atomic

    by_display = {task.display: task for task in tasks}
    added = skipped = 0
    for result in results:
        task = by_display.get(result.path)
        if task is None or not result.reported:
            continue
        if task.path.suffix == ".ipynb" or task.source is not None:
            skipped += len({item.line for item in result.reported})
            continue
        source = decode_python(read_bytes(task.path))
        edit = add_noqa(source.text, result.reported)
        if edit.text != source.text:
            write_atomic(task.path, source.encode(edit.text))
        added, skipped = added + edit.added, skipped + edit.skipped
    noun = "comment" if added == 1 else "comments"
    sys.stderr.write(f"Added {added} noqa {noun}.\n")
    if skipped:
        sys.stderr.write(f"{skipped} reported lines could not take a noqa comment.\n")
    if any(result.error for result in results):
        return EXIT_ERROR
    return EXIT_CLEAN


def main(argv: Sequence[str] | None = None, *, plugins: Sequence[object] = ()) -> int:
    """Run zerograd-lint; ``plugins`` registers extra plugin objects in-process."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in SUBCOMMANDS:
        return _subcommand(words[0], words[1:], plugins)
    try:
        args = build_parser().parse_args(words)
    except SystemExit as exc:  # --help, --version, or a usage error argparse printed
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    try:
        return _run(args, plugins)
    except (UsageError, ConfigError, SelectionError, PluginError) as exc:
        sys.stderr.write(f"{exc}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return EXIT_ERROR
    except BrokenPipeError:  # e.g. ``--explain ZG101 | head``; findings are handled in _run
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLEAN
    except Exception as exc:  # a bug of ours: one line and exit 2, never read as "findings"
        detail = " ".join(str(exc).split())
        sys.stderr.write(f"zerograd-lint: internal error: {type(exc).__name__}: {detail}\n")
        return EXIT_ERROR


def _subcommand(name: str, argv: list[str], plugins: Sequence[object]) -> int:
    """``zerograd-lint rules [--output-format json]`` and ``zerograd-lint server``.

    (To lint a folder called ``rules`` or ``server``, write ``./rules``.)"""
    if name == "server":
        from zerograd_guard.lint.server.cli import main as server_main

        return server_main(argv)
    parser = argparse.ArgumentParser(prog="zerograd-lint rules", description="list every rule")
    parser.add_argument(
        "--output-format", "--format", dest="format", choices=("text", "json"), default="text"
    )
    parser.add_argument("--no-plugins", action="store_true", help="built-in rules only")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    from zerograd_guard.lint.plugins.manager import load as load_plugins

    try:
        rules = _known_rules(load_plugins(plugins, entry_points=not args.no_plugins))
    except (UsageError, PluginError) as exc:
        sys.stderr.write(f"{exc}\n")
        return EXIT_ERROR
    sys.stdout.write(render_rules(list(rules.values()), as_json=args.format == "json"))
    return EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
