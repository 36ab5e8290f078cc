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
import sys
import weakref
from collections.abc import Iterable

import torch

from zerograd_guard.runtime.sites import is_user_code

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
        missing = {key: param for key, param in every.items() if key not in names}
        if missing:  # plain tensors, ``optim.Adam([W, b])``: the user's variable names
            names.update(user_variable_names(missing))
        for key, param in every.items():  # unnamed ones too: no rescan for them
            names.setdefault(key, _anonymous(param))
        with contextlib.suppress(TypeError):  # an optimizer-like object without weakrefs
            _cache[optimizer] = names
    return [names.get(id(param), _anonymous(param)) for param in wanted]


def user_variable_names(objects: dict[int, object]) -> dict[int, str]:
    """Names of local, then global, variables of the user's frames on the stack that
    hold these objects (by identity), else of an attribute of a local variable's object
    (``self.log_alpha``)."""
    found: dict[int, str] = {}
    frame = sys._getframe(1)
    while frame is not None and len(found) < len(objects):
        if is_user_code(frame.f_code):
            local_values = list(frame.f_locals.items())
            for scope in (local_values, list(frame.f_globals.items())):
                _name_holders(scope, "", objects, found)
            for name, value in local_values:
                try:
                    attributes = vars(value)
                except TypeError:  # no ``__dict__``
                    continue
                if type(attributes) is dict:
                    _name_holders(list(attributes.items()), name + ".", objects, found)
        frame = frame.f_back
    return found


def _name_holders(
    holders: list[tuple[str, object]],
    prefix: str,
    objects: dict[int, object],
    found: dict[int, str],
) -> None:
    for name, value in holders:
        key = id(value)
        if key in objects and key not in found and objects[key] is value:
            found[key] = prefix + name


def _names_from_optimizer(optimizer: torch.optim.Optimizer) -> dict[int, str]:
    names: dict[int, str] = {}
    for group in optimizer.param_groups:
        group_names = group.get("param_names")
        if group_names:
            names.update(zip((id(p) for p in group["params"]), group_names, strict=False))
    return names


WRAPPER_PREFIXES = ("_forward_module.", "module.", "_orig_mod.")  # Fabric, DDP, compile


def _names_from_modules(wanted: set[int]) -> dict[int, str]:
    """Names from the outermost module owning each parameter, wrapper prefixes
    stripped; prefixed with the owner's variable (or class) name when the parameters
    belong to several top-level modules (CycleGAN's four nets all have ``model.0.weight``)."""
    module_type = torch.nn.Module
    # type() rather than isinstance(): some lazy objects warn when __class__ is read.
    modules = [
        obj for obj in gc.get_objects() if issubclass(type(obj), module_type) and _initialised(obj)
    ]
    children: set[int] = set()
    for module in modules:
        children.update(id(child) for child in module.modules() if child is not module)
    best: dict[int, tuple[int, str, torch.nn.Module]] = {}
    for module in modules:
        if id(module) in children:
            continue
        named = [(name, p) for name, p in module.named_parameters() if id(p) in wanted]
        size = sum(1 for _ in module.parameters())
        for name, param in named:
            current = best.get(id(param))
            if current is None or size > current[0]:
                best[id(param)] = (size, _strip_wrappers(name), module)
    owners = {id(owner): owner for _, _, owner in best.values()}
    if len(owners) < 2:
        return {key: name for key, (_, name, _) in best.items()}
    labels = user_variable_names(dict(owners))
    return {
        key: f"{labels.get(id(owner), type(owner).__name__)}.{name}"
        for key, (_, name, owner) in best.items()
    }


def _strip_wrappers(name: str) -> str:
    stripped = True
    while stripped:
        stripped = False
        for prefix in WRAPPER_PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix) :]
                stripped = True
    return name


def _initialised(module: torch.nn.Module) -> bool:
    """False for a module whose constructor failed before ``nn.Module.__init__`` ran."""
    state = getattr(module, "__dict__", {})
    return "_modules" in state and "_parameters" in state


def _anonymous(param: torch.Tensor) -> str:
    return f"<unnamed {tuple(param.shape)}>"
