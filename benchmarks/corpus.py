"""The files the linter benchmark runs on.

* ``dense``: a deterministic directory of files that all contain training loops,
  generated from the project's own examples and analyzer test cases by renaming
  the names each file binds, wrapping the whole file in a function or a class
  method, and concatenating two files. Every variant is checked with ``compile()``.
* ``installed``: the ``.py`` files of the installed torch, transformers and
  lightning packages (found without importing them), all or a fixed random sample,
  copied into a temporary folder so every tool gets the same single path.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import io
import keyword
import random
import shutil
import textwrap
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DENSE_SOURCES = ("examples", "tests/lint/cases", "tests/lint/real_world")
INSTALLED_PACKAGES = ("torch", "transformers", "lightning")
REPOSITORY_PACKAGES = (*INSTALLED_PACKAGES, "accelerate")
TRANSFORMS = ("renamed", "in_function", "in_method", "combined")


@dataclass(frozen=True)
class Corpus:
    """A folder of files to lint; ``files`` are the paths inside it, sorted."""

    name: str
    folder: Path
    files: tuple[Path, ...]
    description: str
    total_bytes: int = field(init=False)

    def __post_init__(self) -> None:
        # Stored, not computed on demand: the folder is temporary.
        object.__setattr__(self, "total_bytes", sum(path.stat().st_size for path in self.files))

    def texts(self) -> list[str]:
        return [path.read_bytes().decode("utf-8", "replace") for path in self.files]


def dense_seeds() -> list[tuple[str, str]]:
    """(name, text) of every seed file that contains a backward call, sorted by name."""
    seeds = []
    for folder in DENSE_SOURCES:
        for path in sorted((ROOT / folder).glob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "backward" in text and _compiles(text):
                seeds.append((f"{folder}/{path.name}", text))
    return seeds


def _compiles(text: str) -> bool:
    try:
        compile(text, "<variant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _bound_names(text: str) -> set[str]:
    """Names the file itself binds (assignments, parameters, loop targets), minus
    imports and builtins: renaming them keeps the file meaning the same."""
    tree = ast.parse(text)
    bound: set[str] = set()
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return bound - imported - set(dir(builtins)) - set(keyword.kwlist) - {"self", "cls"}


def rename(text: str, suffix: str) -> str:
    """Append ``suffix`` to every bound name, except where it is an attribute (``x.name``)."""
    names = _bound_names(text)
    lines = text.splitlines(keepends=True)
    replacements: list[tuple[int, int, int]] = []
    previous = ""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NAME and token.string in names and previous != ".":
            replacements.append((token.start[0] - 1, token.start[1], len(token.string)))
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            previous = token.string
    for row, column, length in reversed(replacements):
        line = lines[row]
        lines[row] = line[: column + length] + suffix + line[column + length :]
    return "".join(lines)


def _without_future_imports(text: str) -> str:
    return "".join(
        line
        for line in text.splitlines(keepends=True)
        if not line.startswith("from __future__ import")
    )


def _wrap(text: str, header: str, depth: int) -> str:
    body = textwrap.indent(_without_future_imports(text), "    " * depth)
    return header + (body if body.strip() else "    " * depth + "pass\n")


def variant(index: int, seeds: list[tuple[str, str]]) -> str:
    """The ``index``-th generated file: seed ``index % len(seeds)``, names suffixed with
    ``_v{index}``; the transform cycles so each pass over the seeds gives a seed another one."""
    name, text = seeds[index % len(seeds)]
    kind = TRANSFORMS[(index + index // len(seeds)) % len(TRANSFORMS)]
    renamed = rename(text, f"_v{index}")
    if kind == "in_function":
        out = _wrap(renamed, f"def variant_{index}(model, loader):\n", 1)
    elif kind == "in_method":
        out = _wrap(renamed, f"class Variant{index}:\n    def run(self, model, loader):\n", 2)
    elif kind == "combined":
        other_name, other = seeds[(index * 7 + 3) % len(seeds)]
        out = renamed + "\n\n" + _without_future_imports(rename(other, f"_w{index}"))
        name = f"{name} + {other_name}"
    else:
        out = renamed
    if not _compiles(out):  # a transform that does not fit this seed: plain renaming
        kind, out = "renamed", renamed
    return f"# generated benchmark variant {index}: {kind} from {name}\n{out}"


def build_dense(folder: Path, count: int) -> Corpus:
    seeds = dense_seeds()
    if not seeds:
        raise RuntimeError("no seed files with training loops found under " + str(ROOT))
    files = []
    for index in range(count):
        path = folder / f"group_{index // 50:02d}" / f"variant_{index:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(variant(index, seeds), encoding="utf-8")
        files.append(path)
    description = (
        f"{count} generated files with training loops, from {len(seeds)} seed files "
        f"({', '.join(DENSE_SOURCES)}): renamed, wrapped in functions and methods, combined"
    )
    return Corpus("dense", folder, tuple(files), description)


def installed_files(
    packages: tuple[str, ...] = INSTALLED_PACKAGES,
) -> dict[str, tuple[Path, list[Path]]]:
    """Each installed package's folder and its ``.py`` files, sorted; packages not
    installed are left out. Found with ``find_spec`` so nothing is imported."""
    found: dict[str, tuple[Path, list[Path]]] = {}
    for package in packages:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        root = Path(next(iter(spec.submodule_search_locations)))
        found[package] = (root, sorted(root.rglob("*.py")))
    return found


def build_installed(
    folder: Path,
    sample: int | None,
    seed: int = 0,
    packages: tuple[str, ...] = INSTALLED_PACKAGES,
    name: str = "installed",
) -> Corpus:
    """Copy the installed packages' files (or a fixed random ``sample`` of them)."""
    by_package = installed_files(packages)
    pairs = [
        (path, Path(package) / path.relative_to(root))
        for package, (root, paths) in by_package.items()
        for path in paths
    ]
    total = len(pairs)
    sampled = sample is not None and sample < total
    if sampled:
        pairs = random.Random(seed).sample(pairs, sample)
    files = []
    for source, relative in sorted(pairs, key=lambda pair: pair[1]):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files.append(target)
    packages = ", ".join(by_package) or "none installed"
    if sampled:
        description = (
            f"random sample (seed {seed}) of {sample} of the {total} .py files of {packages}"
        )
    else:
        description = f"all {total} .py files of {packages}"
    return Corpus(name, folder, tuple(files), description)


def subset(corpus: Corpus, folder: Path, count: int, seed: int = 1) -> Corpus:
    """A fixed random ``count`` of ``corpus``'s files, copied into ``folder``."""
    chosen = sorted(random.Random(seed).sample(list(corpus.files), min(count, len(corpus.files))))
    files = []
    for source in chosen:
        target = folder / source.relative_to(corpus.folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        files.append(target)
    description = f"random sample (seed {seed}) of {len(files)} files of the {corpus.name} set"
    return Corpus(f"{corpus.name}-sample", folder, tuple(files), description)
