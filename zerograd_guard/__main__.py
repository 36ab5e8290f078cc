"""``zerograd-guard`` / ``python -m zerograd_guard``: the runtime guard's command line.

``zerograd-guard run [--max-steps N] [--warn] [--strict] [--accumulate K] [--report PATH]
script.py [args...]`` (or ``-m package.module [args...]``, as ``python -m``) runs a
training script under the guard and exits 1 on a
violation (with ``--strict`` also on a warning, or when no optimizer was watched), 2
on a usage error, otherwise with the script's own exit status. ``ZEROGRAD_GUARD=warn``
in the environment selects warn mode like ``--warn`` (other values: ``error``, ``1``,
``true``...; an unknown value is a usage error).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from zerograd_guard._version import __version__

ENV_MODE = "ZEROGRAD_GUARD"
# Accepted ``ZEROGRAD_GUARD`` values (the pytest plugin's ini spellings) and their mode.
ENV_VALUES = {
    **dict.fromkeys(("", "1", "true", "yes", "on", "error"), "error"),
    "warn": "warn",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zerograd-guard",
        description="Run PyTorch training under the zerograd-guard runtime guard.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = commands.add_parser(
        "run",
        help="run a training script with the guard active",
        description="Run an unmodified training script (as `python script.py` would) with the "
        "guard active; exit 1 if it finds a violation.",
    )
    run.add_argument(
        "--max-steps",
        type=_positive_int,
        metavar="N",
        help="stop the script cleanly after N optimizer steps",
    )
    run.add_argument(
        "--warn", action="store_true", help="report violations without failing (exit status)"
    )
    run.add_argument(
        "--strict",
        action="store_true",
        help="also exit 1 on warnings (a clear every micro-batch, an optimizer that stopped "
        "stepping) and when no optimizer was watched",
    )
    run.add_argument(
        "--accumulate",
        type=_positive_int,
        metavar="K",
        help="assert that every step consumes exactly K backward passes",
    )
    run.add_argument(
        "--library",
        action="append",
        default=[],
        metavar="MODULE",
        help="a module whose frames reports skip, like a training library's (an in-house "
        "trainer), so sites show your own lines; repeatable",
    )
    run.add_argument("--report", metavar="PATH", help="also write the report as JSON to PATH")
    run.add_argument(
        "-m",
        dest="module",
        nargs=argparse.REMAINDER,
        metavar="MODULE [ARGS]",
        help="run a library module as a script, as python -m does (a package runs its "
        "__main__); everything after the module name is its arguments",
    )
    run.add_argument("script", nargs="?", help="the Python script to run")
    script_args = run.add_argument(
        "args", nargs=argparse.REMAINDER, help="arguments passed to the script (optional)"
    )
    # argparse marks a REMAINDER positional required, so a missing script was reported
    # as "required: script, args"; the script's arguments may be absent.
    script_args.required = False
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zerograd-guard`` console script; returns the exit status."""
    parser = build_parser()
    options = parser.parse_args(argv)
    if options.module == []:
        parser.error("run -m needs a module name")
    if options.module is None and options.script is None:
        parser.error("run needs a script or -m MODULE")
    from zerograd_guard.run_script import (
        EXIT_USAGE,
        RunOutcome,
        UsageError,
        print_outcome,
        run_module,
        run_script,
        write_json_report,
    )

    env_value = os.environ.get(ENV_MODE, "").strip().lower()
    if env_value not in ENV_VALUES:
        print(
            f"zerograd-guard: error: {ENV_MODE}={os.environ[ENV_MODE]!r}: expected warn, "
            "error, 1 or true",
            file=sys.stderr,
        )
        return EXIT_USAGE
    warn = options.warn or ENV_VALUES[env_value] == "warn"

    def finish(outcome: RunOutcome) -> int:
        """Print (and write) the report; the run's exit status."""
        print_outcome(outcome, sys.stderr)
        sys.stderr.flush()
        if options.report:
            try:
                write_json_report(outcome, options.report)
            except OSError as error:
                print(
                    f"zerograd-guard: error: cannot write {options.report}: {error}",
                    file=sys.stderr,
                )
                return EXIT_USAGE
        return outcome.exit_status()

    try:
        if options.module is not None:
            run_target, target, target_args = run_module, options.module[0], options.module[1:]
        else:
            run_target, target, target_args = run_script, options.script, options.args
        outcome = run_target(
            target,
            target_args,
            mode="warn" if warn else "error",
            max_steps=options.max_steps,
            accumulate=options.accumulate,
            strict=options.strict,
            report_now=finish,
            library=options.library,
        )
    except UsageError as error:
        print(f"zerograd-guard: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return finish(outcome)


if __name__ == "__main__":
    sys.exit(main())
