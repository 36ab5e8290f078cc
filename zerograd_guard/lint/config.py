"""``[tool.zerograd-guard]`` configuration: find it, read it, validate it.

Each file is governed by the nearest ``pyproject.toml`` above it that has a
``[tool.zerograd-guard]`` table (files without the table are skipped, as ruff
does), unless ``--config`` names one file for everything. Relative patterns
(``exclude``, ``per-file-ignores``) are relative to the directory of the
``pyproject.toml`` that holds them.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from zerograd_guard.lint.config_names import misnamed_tables
from zerograd_guard.lint.options import AnalysisOptions

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

TABLE = "zerograd-guard"

# Keys whose value is a list of strings.
_LIST_KEYS = (
    "select",
    "extend-select",
    "ignore",
    "exclude",
    "extend-exclude",
    "extend-backward-calls",
    "extend-clear-calls",
    "extend-step-calls",
    "managed-engines",
)
_KNOWN_KEYS = (*_LIST_KEYS, "per-file-ignores", "cache-dir", "project")
# Keys whose strings are matched against a call's last name: validated as plugin names are.
_NAME_KEYS = (
    "extend-backward-calls",
    "extend-clear-calls",
    "extend-step-calls",
    "managed-engines",
)


class ConfigError(Exception):
    """A configuration file that cannot be used; ``str()`` is one line naming it."""


@dataclass(frozen=True)
class Config:
    """The settings of one ``[tool.zerograd-guard]`` table (or the defaults)."""

    root: Path
    source: Path | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    project: bool = True  # ``project = false``: analyse each file alone
    options: AnalysisOptions = field(default_factory=AnalysisOptions)
    cache_dir: Path | None = None  # ``cache-dir``, relative to ``root``


def _string_list(path: Path, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}: error: [tool.{TABLE}] {key} must be a list of strings")
    return tuple(value)


def parse_table(table: Any, path: Path) -> Config:
    """Validate one ``[tool.zerograd-guard]`` table and turn it into a ``Config``."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: error: [tool.{TABLE}] must be a table")
    unknown = sorted(set(table) - set(_KNOWN_KEYS))
    if unknown:
        known = ", ".join(_KNOWN_KEYS)
        raise ConfigError(
            f"{path}: error: unknown key {unknown[0]!r} in [tool.{TABLE}] (known keys: {known})"
        )
    lists = {key: _string_list(path, key, table[key]) for key in _LIST_KEYS if key in table}
    for key in _NAME_KEYS:
        for name in lists.get(key, ()):
            if not name.isidentifier():
                example = name.rsplit(".", 1)[-1].strip("()") or "clear"
                raise ConfigError(
                    f"{path}: error: [tool.{TABLE}] {key}: {name!r} is not a name "
                    f"(give the last part of the call, e.g. {example!r})"
                )
    per_file: list[tuple[str, tuple[str, ...]]] = []
    raw_per_file = table.get("per-file-ignores", {})
    if not isinstance(raw_per_file, dict):
        raise ConfigError(f"{path}: error: [tool.{TABLE}] per-file-ignores must be a table")
    for pattern, codes in raw_per_file.items():
        per_file.append((pattern, _string_list(path, f"per-file-ignores.{pattern!r}", codes)))
    cache_dir = table.get("cache-dir")
    if cache_dir is not None and not isinstance(cache_dir, str):
        raise ConfigError(f"{path}: error: [tool.{TABLE}] cache-dir must be a string")
    project = table.get("project", True)
    if not isinstance(project, bool):
        raise ConfigError(f"{path}: error: [tool.{TABLE}] project must be true or false")
    options = AnalysisOptions(
        extra_backward_calls=frozenset(lists.get("extend-backward-calls", ())),
        extra_clear_calls=frozenset(lists.get("extend-clear-calls", ())),
        extra_step_calls=frozenset(lists.get("extend-step-calls", ())),
        managed_engines=frozenset(lists.get("managed-engines", ())),
    )
    return Config(
        root=path.parent,
        source=path,
        select=lists.get("select"),
        extend_select=lists.get("extend-select", ()),
        ignore=lists.get("ignore", ()),
        exclude=lists.get("exclude", ()) + lists.get("extend-exclude", ()),
        per_file_ignores=tuple(per_file),
        project=project,
        options=options,
        cache_dir=path.parent / cache_dir if cache_dir else None,
    )


def read_pyproject(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: error: invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: error: cannot read: {exc}") from None


def load_config_file(path: Path) -> Config:
    """``--config PATH``: a pyproject.toml (its table) or a bare TOML file of the keys."""
    if not path.is_file():
        raise ConfigError(f"{path}: error: config file not found")
    data = read_pyproject(path)
    absolute = Path(os.path.abspath(path))
    if path.name == "pyproject.toml" or "tool" in data:
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{absolute}: error: [tool] must be a table")
        table = tool.get(TABLE, {})
    else:
        table = data
    return parse_table(table, absolute)


class ConfigResolver:
    """Finds the config governing each directory; memoised per directory."""

    def __init__(
        self,
        fixed: Config | None = None,
        default_root: Path | None = None,
        extend_exclude: tuple[str, ...] = (),
    ) -> None:
        self._extend_exclude = extend_exclude  # --extend-exclude, added to every config
        self._fixed = self._extended(fixed) if fixed is not None else None
        self._default = self._extended(
            Config(root=Path(os.path.abspath(default_root or Path.cwd())))
        )
        self._by_dir: dict[Path, Config] = {}
        self.warnings: list[str] = []  # one line each, e.g. a misnamed table

    def _extended(self, config: Config) -> Config:
        if not self._extend_exclude:
            return config
        return replace(config, exclude=config.exclude + self._extend_exclude)

    def for_path(self, path: Path, is_dir: bool | None = None) -> Config:
        """The config governing ``path`` (a file, or a folder when ``is_dir``)."""
        if self._fixed is not None:
            return self._fixed
        # abspath, not resolve(): no system call per file, and the nearest
        # pyproject.toml is looked for along the path the user gave.
        absolute = Path(os.path.abspath(path))
        if is_dir is None:
            is_dir = absolute.is_dir()
        return self._for_dir(absolute if is_dir else absolute.parent)

    def _for_dir(self, directory: Path) -> Config:
        cached = self._by_dir.get(directory)
        if cached is not None:
            return cached
        candidate = directory / "pyproject.toml"
        config: Config | None = None
        if candidate.is_file():
            data = read_pyproject(candidate)
            tool = data.get("tool", {})
            if isinstance(tool, dict) and TABLE in tool:
                config = self._extended(parse_table(tool[TABLE], candidate))
            elif isinstance(tool, dict):
                self.warnings.extend(misnamed_tables(tool, candidate))
        if config is None:
            parent = directory.parent
            config = self._default if parent == directory else self._for_dir(parent)
        self._by_dir[directory] = config
        return config
