"""Parameter names for reports, resolved only when a report is written.

The guard holds no references to models. On a report it asks the optimizer for
``param_names`` (torch >= 2.6 accepts named parameters), then scans live
``nn.Module`` objects and names each parameter from the outermost module owning it
(``model.0.weight`` for a wrapper holding ``self.model = nn.Sequential(...)``).
The scan runs once per optimizer, for all its parameters, and is cached (weakly keyed
by the optimizer): a run that keeps reporting does not rescan live objects each time.
"""

from __future__ import annotations

import contextlib
import gc
import weakref
from collections.abc import Iterable

import torch

_cache: weakref.WeakKeyDictionary[torch.optim.Optimizer, dict[int, str]] = (
    weakref.WeakKeyDictionary()
)


def parameter_names(params: Iterable[torch.Tensor], optimizer: torch.optim.Optimizer) -> list[str]:
    wanted = list(params)
    names = _cache.get(optimizer)
    if names is None or not all(id(param) in names for param in wanted):
        names = _names_from_optimizer(optimizer)
        every = {id(p): p for group in optimizer.param_groups for p in group["params"]}
        every.update((id(param), param) for param in wanted)
        if not every.keys() <= names.keys():
            names = {**_names_from_modules(set(every)), **names}
        for key, param in every.items():  # unnamed ones too: no rescan for them
            names.setdefault(key, _anonymous(param))
        with contextlib.suppress(TypeError):  # an optimizer-like object without weakrefs
            _cache[optimizer] = names
    return [names.get(id(param), _anonymous(param)) for param in wanted]


def _names_from_optimizer(optimizer: torch.optim.Optimizer) -> dict[int, str]:
    names: dict[int, str] = {}
    for group in optimizer.param_groups:
        group_names = group.get("param_names")
        if group_names:
            names.update(zip((id(p) for p in group["params"]), group_names, strict=False))
    return names


def _names_from_modules(wanted: set[int]) -> dict[int, str]:
    module_type = torch.nn.Module
    # type() rather than isinstance(): some lazy objects warn when __class__ is read.
    modules = [
        obj for obj in gc.get_objects() if issubclass(type(obj), module_type) and _initialised(obj)
    ]
    children: set[int] = set()
    for module in modules:
        children.update(id(child) for child in module.modules() if child is not module)
    best: dict[int, tuple[int, str]] = {}
    for module in modules:
        if id(module) in children:
            continue
        named = [(name, p) for name, p in module.named_parameters() if id(p) in wanted]
        size = sum(1 for _ in module.parameters())
        for name, param in named:
            current = best.get(id(param))
            if current is None or size > current[0]:
                best[id(param)] = (size, name)
    return {key: name for key, (_, name) in best.items()}


def _initialised(module: torch.nn.Module) -> bool:
    """False for a module whose constructor failed before ``nn.Module.__init__`` ran."""
    state = getattr(module, "__dict__", {})
    return "_modules" in state and "_parameters" in state


def _anonymous(param: torch.Tensor) -> str:
    return f"<unnamed {tuple(param.shape)}>"
