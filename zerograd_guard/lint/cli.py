"""``zerograd-lint``: the command line.

Exit codes: 0 no findings (or ``--exit-zero``), 1 findings (with ``--diff``:
fixes to apply), 2 a usage or configuration error, or a file that could not be
read or parsed. Every user error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from zerograd_guard._version import __version__
from zerograd_guard.lint.cache import DEFAULT_DIRNAME
from zerograd_guard.lint.config import Config, ConfigError, ConfigResolver, load_config_file
from zerograd_guard.lint.discovery import discover
from zerograd_guard.lint.formats import FORMATS
from zerograd_guard.lint.formats.paths import printable
from zerograd_guard.lint.options import AnalysisOptions
from zerograd_guard.lint.plugins.manager import Contributions, PluginError
from zerograd_guard.lint.runner import FileResult, FileSettings, FileTask, Reported, RunSettings
from zerograd_guard.lint.selection import SelectionError, expand, per_file_ignored, resolve

if TYPE_CHECKING:
    from zerograd_guard.lint.project.graph import Project
    from zerograd_guard.lint.rules.base import Rule

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


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
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (default: .)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
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
    parser.add_argument("--cache-dir", metavar="DIR", help="cache folder (default .zerograd_cache)")
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="parallel processes (default: number of cores)",
    )
    parser.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    parser.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    parser.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff; write nothing"
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


def _colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _report(
    args: argparse.Namespace, results: list[FileResult], planner: _Planner, missing: int
) -> None:
    """Print findings in the chosen format.

    ``missing``: paths named on the command line that do not exist (not checked).
    """
    from zerograd_guard.lint.formats import as_json, github, sarif, statistics, text

    items: list[Reported] = [item for result in results for item in result.reported]
    errors = [(result.path, result.error) for result in results if result.error]
    errors += [
        (result.path, f"{where}: {message}")
        for result in results
        for where, message in result.part_errors
    ]
    rules = planner.selected_rules()
    out = sys.stdout
    if args.diff:
        out.writelines(result.diff for result in results if result.diff)
        fixable = sum(result.fixes_applied for result in results)
        noun = "error" if fixable == 1 else "errors"
        sys.stderr.write(
            f"Would fix {fixable} {noun}.\n" if fixable else "No errors would be fixed.\n"
        )
        return
    names = {rule.code: rule.name for rule in rules}
    if args.format == "json":
        out.write(
            statistics.render_json(items, names) if args.statistics else as_json.render(items)
        )
    elif args.format == "sarif":
        out.write(sarif.render(items, rules, errors, sarif.source_root(Path.cwd())))
    elif args.format == "github":
        out.write(github.render(items, {rule.code: rule.level for rule in rules}))
    else:
        if args.statistics:
            out.write(statistics.render(items, names))
        else:
            out.write(text.render(items, _colour()))
        fixed = sum(result.fixes_applied for result in results)
        fixable = 0 if args.fix else sum(1 for i in items if i.fix is not None and i.fix.safe)
        unchecked = len({path for path, _ in errors}) + missing  # a notebook counts once
        out.write(text.summary(len(items), fixed, fixable, unchecked))


def _cache_dir(resolver: ConfigResolver, paths: Sequence[str]) -> Path:
    """``.zerograd_cache`` in the project root: the folder of the configuration that
    governs the working directory, else the one that governs every given path, else
    the working directory."""
    governing = resolver.for_path(Path.cwd(), is_dir=True)
    if governing.source is None:
        configs = [resolver.for_path(Path(path)) for path in paths]
        roots = {config.root for config in configs if config.source is not None}
        if len(roots) == 1 and all(config.source is not None for config in configs):
            return roots.pop() / DEFAULT_DIRNAME
    return governing.root / DEFAULT_DIRNAME


def _in_project(
    tasks: list[FileTask], configs: list[Config], cache_dir: Path | None
) -> tuple[Project, list[FileTask]]:
    """Index the run's files as one project; tasks of files whose configuration says
    ``project = false`` stay in per-file mode."""
    from zerograd_guard.lint.project.build import build_project

    options = [task.settings.options for task in tasks]
    merged = AnalysisOptions(
        extra_backward_calls=frozenset().union(*(o.extra_backward_calls for o in options)),
        extra_clear_calls=frozenset().union(*(o.extra_clear_calls for o in options)),
        extra_step_calls=frozenset().union(*(o.extra_step_calls for o in options)),
    )
    project = build_project((task.path for task in tasks), merged, cache_dir)
    placed = [
        dataclasses.replace(task, project=project.context(task.path)) if config.project else task
        for task, config in zip(tasks, configs, strict=True)
    ]
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
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"error: --statistics works with --format text or json, not {args.format}")
    fixed_config = load_config_file(Path(args.config)) if args.config else None
    resolver = ConfigResolver(fixed=fixed_config)
    paths = args.paths or ["."]
    cache_dir: Path | None = None
    if not args.no_cache:
        cache_dir = Path(args.cache_dir) if args.cache_dir else _cache_dir(resolver, paths)
    run = RunSettings(
        fix=args.fix, diff=args.diff, unsafe_fixes=args.unsafe_fixes, cache_dir=cache_dir
    )
    found = discover(paths, resolver, args.force_exclude)
    planner = _Planner(args, rules, contributions, run)
    configs = [resolver.for_path(path, is_dir=False) for path in found.files]
    tasks = [planner.task(path, config) for path, config in zip(found.files, configs, strict=True)]
    if not found.files and not found.missing:
        sys.stderr.write("warning: no Python files found under the given paths\n")
    project = None
    if not args.no_project and any(config.project for config in configs):
        project, tasks = _in_project(tasks, configs, cache_dir)
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
            sys.stderr.write(f"{shown}: error: {result.error}\n")
    if args.diff:
        has_findings = any(result.diff for result in results)
    else:
        has_findings = any(result.reported for result in results)
    try:
        _report(args, results, planner, len(found.missing) + len(found.errors))
    except BrokenPipeError:
        # Output piped into a command that stopped reading (``| head``): the verdict
        # stands; point stdout at devnull so the interpreter's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if (
        found.missing
        or found.errors
        or any(result.error or result.part_errors for result in results)
    ):
        return EXIT_ERROR
    if has_findings and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def main(argv: Sequence[str] | None = None, *, plugins: Sequence[object] = ()) -> int:
    """Run zerograd-lint; ``plugins`` registers extra plugin objects in-process."""
    try:
        args = build_parser().parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
