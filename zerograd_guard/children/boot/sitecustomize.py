"""zerograd-guard child bootstrap, on ``PYTHONPATH`` only while a guarded parent runs.

Python imports ``sitecustomize`` at start-up. When the parent asked for it
(``ZEROGRAD_GUARD_CHILD_MODE``), this one installs an import watcher (loaded by
path: nothing of zerograd_guard is imported yet) that guards the process once it
imports torch. Then it loads the ``sitecustomize`` it shadows (the next one on
``sys.path``), so existing setups keep working.
"""


def _watch_for_torch() -> None:
    import os

    if not os.environ.get("ZEROGRAD_GUARD_CHILD_MODE"):
        return
    import importlib.util
    import sys

    children = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location(
        "_zerograd_guard_boot_watcher", os.path.join(children, "watcher.py")
    )
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.TorchImportWatcher(_guard_this_process).install()


def _guard_this_process() -> None:
    import os
    import sys

    try:
        from zerograd_guard.children.child import guard_from_environment
    except ImportError:
        return  # not importable in this interpreter (another environment): unguarded
    try:
        guard_from_environment()
    except Exception as error:  # never break the child
        print(f"zerograd-guard: child bootstrap failed in {os.getpid()}: {error}", file=sys.stderr)


def _load_shadowed_sitecustomize() -> None:
    import importlib.machinery
    import importlib.util
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    others = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_watch_for_torch()
_load_shadowed_sitecustomize()
