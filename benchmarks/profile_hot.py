"""Where the linter's time goes, for the targets the runner reports as missed.

    python benchmarks/profile_hot.py [--dense-files 300] [--top 25]

1. Analysis vs parse: cProfile over ``analyze_source`` on the generated dense set;
   prints libcst's parse share and the project's functions by cumulative time,
   each as a percentage of the parse time (the 1.25x target leaves 25% for them).
   cProfile slows pure-Python code more than libcst's native parser, so these
   shares overstate the analysis; the runner's un-profiled ratio is the figure.
2. Warm start-up: a warm ``zerograd-lint -j 1`` on the same set under
   ``-X importtime``; prints the biggest imports (a warm run never parses, so
   importing libcst is pure overhead there).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import pstats
import subprocess
import sys
import tempfile
from pathlib import Path

import corpus
from lint_bench import _lint_command


def profile_analysis(texts: list[str], top: int) -> None:
    from zerograd_guard.lint.analyze import analyze_source
    from zerograd_guard.lint.errors import AnalysisError

    for text in texts[:3]:  # imports and caches outside the profile
        analyze_source(text)
    profiler = cProfile.Profile()
    profiler.enable()
    for text in texts:
        with contextlib.suppress(AnalysisError):
            analyze_source(text)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    cumulative = {key: value[3] for key, value in stats.items()}
    parse = sum(t for key, t in cumulative.items() if _is(key, "entrypoints.py", "parse_module"))
    total = sum(t for key, t in cumulative.items() if _is(key, "analyze.py", "analyze_source"))
    print(f"analyze_source total {total:.2f} s (profiled), libcst.parse_module {parse:.2f} s")
    print(f"everything but the parse: {(total - parse) / parse:6.1%} of the parse time\n")
    ours = sorted(
        (
            (seconds, path, line, name)
            for (path, line, name), seconds in cumulative.items()
            if "zerograd_guard" in path and name not in ("analyze_source", "_parse")
        ),
        reverse=True,
    )
    print(f"{'% of parse':>10}  {'cum s':>7}  function")
    for seconds, path, line, name in ours[:top]:
        print(f"{seconds / parse:10.1%}  {seconds:7.3f}  {_short(path)}:{line} {name}")
    for key, value in stats.items():
        if _is(key, "module.py", "code_for_node"):
            print("\nlibcst code generation (Module.code_for_node) called from:")
            for (path, line, name), (_, calls, _, seconds) in sorted(
                value[4].items(), key=lambda item: -item[1][3]
            ):
                print(f"  {seconds:7.3f} s {calls:6} calls  {_short(path)}:{line} {name}")


def _is(key: tuple[str, int, str], filename: str, function: str) -> bool:
    return key[0].endswith(filename) and key[2] == function


def _short(path: str) -> str:
    return path.split("zerograd_guard/", 1)[-1]


def warm_imports(folder: Path, top: int) -> None:
    with tempfile.TemporaryDirectory() as cache:
        command = [*_lint_command(), "--exit-zero", "-j", "1", "--cache-dir", cache, str(folder)]
        subprocess.run(command, capture_output=True, check=False)  # populate the cache
        python = [sys.executable, "-X", "importtime", "-m", "zerograd_guard.lint", *command[1:]]
        done = subprocess.run(python, capture_output=True, text=True, check=False)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line.split("|"))
            if cumulative.isdigit():
                rows.append((int(cumulative), name))
    rows.sort(reverse=True)
    print("\nwarm -j 1 run, biggest imports (cumulative ms):")
    for micros, name in rows[:top]:
        print(f"  {micros / 1000:8.1f}  {name}")
    print("libcst imported on a warm run:", any(name == "libcst" for _, name in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense-files", type=int, default=300)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="zg-profile-") as scratch:
        dense = corpus.build_dense(Path(scratch) / "dense", args.dense_files)
        profile_analysis(dense.texts(), args.top)
        warm_imports(dense.folder, 12)


if __name__ == "__main__":
    main()
