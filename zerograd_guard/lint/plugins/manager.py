"""Loading plugins and merging what they contribute."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pluggy

from zerograd_guard.lint.options import (
    DEFAULT_OPTIONS,
    AnalysisOptions,
    HookedIteration,
    IterationFunction,
)
from zerograd_guard.lint.plugins import ENTRY_POINT_GROUP, PROJECT_NAME, hookspecs
from zerograd_guard.lint.plugins.frameworks import BUILTIN_PLUGINS

if TYPE_CHECKING:
    from zerograd_guard.lint.rules.base import Rule


class PluginError(Exception):
    """A plugin that failed to load or returned nonsense; ``str()`` is one line."""


@dataclass(frozen=True)
class Contributions:
    backward_calls: frozenset[str] = frozenset()
    clear_calls: frozenset[str] = frozenset()
    step_calls: frozenset[str] = frozenset()
    managed_engines: frozenset[str] = frozenset()
    iteration_functions: frozenset[IterationFunction] = frozenset()
    hooked_iterations: frozenset[HookedIteration] = frozenset()
    rules: tuple[type[Rule], ...] = ()
    # Which plugins (distribution==version, or in-process class) contributed: part of
    # the cache key, so upgrading a plugin re-analyses.
    plugin_key: str = ""

    def merged_into(self, options: AnalysisOptions) -> AnalysisOptions:
        return dataclasses.replace(
            options,
            extra_backward_calls=options.extra_backward_calls | self.backward_calls,
            extra_clear_calls=options.extra_clear_calls | self.clear_calls,
            extra_step_calls=options.extra_step_calls | self.step_calls,
            managed_engines=options.managed_engines | self.managed_engines,
            iteration_functions=options.iteration_functions | self.iteration_functions,
            hooked_iterations=options.hooked_iterations | self.hooked_iterations,
        )


def _names(results: Iterable[Iterable[str] | None], hook: str) -> frozenset[str]:
    names: set[str] = set()
    for result in results:
        for name in result or ():
            if not isinstance(name, str) or not name.isidentifier():
                raise PluginError(f"error: plugin hook {hook} returned {name!r}, not a name")
            names.add(name)
    return frozenset(names)


def _specs(results: Iterable[Iterable[object] | None], kind: type, hook: str) -> frozenset:
    found = set()
    for result in results:
        for spec in result or ():
            if not isinstance(spec, kind):
                raise PluginError(
                    f"error: plugin hook {hook} returned {spec!r}, not an {kind.__name__}"
                )
            found.add(spec)
    return frozenset(found)


def _rules(results: Iterable[Iterable[type[Rule]] | None]) -> tuple[type[Rule], ...]:
    from zerograd_guard.lint.rules.base import Rule

    rules: list[type[Rule]] = []
    for result in results:
        for rule in result or ():
            if not (isinstance(rule, type) and issubclass(rule, Rule)):
                raise PluginError(f"error: plugin rule {rule!r} is not a Rule subclass")
            rules.append(rule)
    return tuple(rules)


def _plugin_key(manager: pluggy.PluginManager, extra_plugins: Iterable[object]) -> str:
    installed = {
        f"{dist.project_name}=={dist.version}" for _, dist in manager.list_plugin_distinfo()
    }
    in_process = {
        f"{type(plugin).__module__}.{type(plugin).__qualname__}" for plugin in extra_plugins
    }
    return ",".join(sorted(installed | in_process))


def load(extra_plugins: Iterable[object] = (), entry_points: bool = True) -> Contributions:
    """Load entry-point plugins plus ``extra_plugins`` and collect their contributions."""
    manager = pluggy.PluginManager(PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    try:
        for plugin in BUILTIN_PLUGINS:
            manager.register(plugin)
        if entry_points:
            manager.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        for plugin in extra_plugins:
            manager.register(plugin)
        hook = manager.hook
        return Contributions(
            backward_calls=_names(hook.zerograd_guard_backward_calls(), "backward_calls"),
            clear_calls=_names(hook.zerograd_guard_clear_calls(), "clear_calls"),
            step_calls=_names(hook.zerograd_guard_step_calls(), "step_calls"),
            managed_engines=_names(hook.zerograd_guard_managed_engines(), "managed_engines"),
            iteration_functions=_specs(
                hook.zerograd_guard_iteration_functions(), IterationFunction, "iteration_functions"
            ),
            hooked_iterations=_specs(
                hook.zerograd_guard_hooked_iterations(), HookedIteration, "hooked_iterations"
            ),
            rules=_rules(hook.zerograd_guard_rules()),
            plugin_key=_plugin_key(manager, extra_plugins),
        )
    except PluginError:
        raise
    except Exception as exc:
        detail = " ".join(str(exc).split())
        raise PluginError(f"error: a plugin failed: {type(exc).__name__}: {detail}") from None


def builtin_options() -> AnalysisOptions:
    """The default options with the built-in plugins' contributions merged in (ignite's
    ``Engine``, ``Trainer`` subclasses, ...) and no installed plugin: what the command
    line analyses with on a machine without third-party plugins."""
    return load(entry_points=False).merged_into(DEFAULT_OPTIONS)
