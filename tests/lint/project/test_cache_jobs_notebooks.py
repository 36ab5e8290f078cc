"""Project mode with the cache, with ``-j N``, and with notebooks."""

from __future__ import annotations

import json

from project_helpers import codes, tree

FIXED_STEPS = """\
    def train_step(model, batch, optimizer):
        optimizer.zero_grad()
        model(batch).backward()
        optimizer.step()
    """
BUGGY_STEPS = FIXED_STEPS.replace("        optimizer.zero_grad()\n", "")
LOOP = """\
    import torch
    from utils import train_step

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch in loader:
        train_step(model, batch, opt)
    """


def test_editing_the_helper_re_judges_the_caller(findings, tmp_path):
    cache = f"--cache-dir={tmp_path / 'cache'}"
    assert findings(cache, files={"utils.py": FIXED_STEPS, "train.py": LOOP}) == []
    tree(tmp_path, {"utils.py": BUGGY_STEPS})  # train.py itself is unchanged
    assert codes(findings(cache)) == [("train.py", 6, "ZG101")]
    tree(tmp_path, {"utils.py": FIXED_STEPS})
    assert findings(cache) == []


def test_a_warm_run_answers_from_the_cache(findings, tmp_path, monkeypatch):
    cache = f"--cache-dir={tmp_path / 'cache'}"
    cold = findings(cache, files={"utils.py": BUGGY_STEPS, "train.py": LOOP})
    import zerograd_guard.lint.analyze as analyze

    def fail(*args, **kwargs):
        raise AssertionError("a warm run analysed a file")

    monkeypatch.setattr(analyze, "analyze_source", fail)
    assert findings(cache) == cold


def _project(count: int) -> dict[str, str]:
    files = {"pkg/__init__.py": "from .steps import train_step\n", "pkg/steps.py": BUGGY_STEPS}
    for index in range(count):
        loop = LOOP.replace("from utils import", "from pkg import")
        if index % 3 == 0:
            loop = loop.replace("    train_step(", "    opt.zero_grad()\n        train_step(")
        files[f"runs/run_{index}.py"] = loop
    return files


def test_parallel_output_is_identical_to_serial(findings):
    serial = findings("-j", "1", files=_project(12))
    parallel = findings("-j", "2")
    assert parallel == serial
    assert len(serial) == 8


def test_notebook_cells_are_one_program(findings):
    cells = [
        "import torch\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
        "def train_step(batch):\n    model(batch).backward()\n    opt.step()\n",
        "for batch in loader:\n    train_step(batch)\n",
    ]
    found = findings(files={"train.ipynb": _notebook(cells)})
    assert [(path, code) for path, _, code in codes(found)] == [("train.ipynb", "ZG101")]


def test_notebook_calls_a_module_of_the_project(findings):
    cells = [
        "import torch\nfrom utils import train_step\n",
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
        "for batch in loader:\n    train_step(model, batch, opt)\n",
    ]
    found = findings(files={"utils.py": BUGGY_STEPS, "train.ipynb": _notebook(cells)})
    assert [(path, code) for path, _, code in codes(found)] == [("train.ipynb", "ZG101")]
    assert "utils.py:2" in found[0][3]
    assert findings(files={"utils.py": FIXED_STEPS}) == []


def _notebook(sources: list[str]) -> str:
    cells = [
        {
            "cell_type": "code",
            "metadata": {},
            "source": source.splitlines(keepends=True),
            "execution_count": None,
            "outputs": [],
        }
        for source in sources
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_index_of_unchanged_files_is_reused_and_of_edited_files_rebuilt(
    findings, tmp_path, monkeypatch
):
    import zerograd_guard.lint.project.build as build

    cache = f"--cache-dir={tmp_path / 'cache'}"
    findings(cache, files={"utils.py": FIXED_STEPS, "train.py": LOOP})
    indexed: list[str] = []
    original = build.index_source

    def counting(text, path, *args, **kwargs):
        indexed.append(path.rsplit("/", 1)[-1])
        return original(text, path, *args, **kwargs)

    monkeypatch.setattr(build, "index_source", counting)
    tree(tmp_path, {"utils.py": BUGGY_STEPS})
    assert codes(findings(cache)) == [("train.py", 6, "ZG101")]
    assert indexed == ["utils.py"]


def test_the_cached_index_round_trips_every_field(tmp_path):
    from zerograd_guard.lint.project import index_cache
    from zerograd_guard.lint.project.index import index_source

    text = "import torch\nfrom a import f\n\nclass C:\n    def m(self):\n        x.backward()\n"
    text += "\nfor b in loader:\n    f(b)\n    c.m()\n"
    entry = index_source(text, str(tmp_path / "m.py"), ("m",), "digest", False, backward=True)
    index_cache.save(tmp_path, (), [entry])
    assert index_cache.load(tmp_path, ()) == {entry.path: entry}


def test_contexts_are_reused_only_while_no_file_changed(findings, tmp_path, monkeypatch):
    # a task's context (cache key, candidate) depends on every file of the project: a
    # warm run over unchanged files takes them from the index cache; any edit recomputes
    from zerograd_guard.lint.project.graph import Project

    cache = f"--cache-dir={tmp_path / 'cache'}"
    files = {"utils.py": FIXED_STEPS, "train.py": LOOP.replace("train_step(model", "step(model")}
    files["train.py"] = files["train.py"].replace("import train_step", "import train_step as step")
    assert findings(cache, files=files) == []
    computed: list[str] = []
    original = Project._context

    def counting(self, entry):
        computed.append(entry.path.rsplit("/", 1)[-1])
        return original(self, entry)

    monkeypatch.setattr(Project, "_context", counting)
    assert findings(cache) == []
    assert computed == []
    tree(tmp_path, {"utils.py": BUGGY_STEPS})
    # train.py has no backward of its own: it is judged because it is a candidate again
    assert codes(findings(cache)) == [("train.py", 6, "ZG101")]
    assert sorted(computed) == ["train.py", "utils.py"]


def test_the_index_built_in_workers_is_the_index_built_here(tmp_path, monkeypatch):
    from zerograd_guard.lint import forked
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.project import build

    files = {f"pkg/m{index}.py": FIXED_STEPS for index in range(12)}
    files.update({"pkg/__init__.py": "from .m0 import train_step\n", "train.py": LOOP})
    tree(tmp_path, files)
    paths = sorted(tmp_path.rglob("*.py"))
    here = build.build_project(paths, DEFAULT_OPTIONS)
    monkeypatch.setattr(forked, "MIN_ITEMS", 1)
    pools = []

    class CountedPool(forked.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(forked, "ProcessPoolExecutor", CountedPool)
    workers = build.build_project(paths, DEFAULT_OPTIONS, jobs=2)
    assert pools == [1]  # the workers did build it
    assert list(workers.entries.values()) == list(here.entries.values())


def test_a_run_without_a_cache_computes_no_cache_keys(tmp_path):
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.project import build

    tree(tmp_path, {"utils.py": BUGGY_STEPS, "train.py": LOOP})
    paths = sorted(tmp_path.rglob("*.py"))
    uncached = build.build_project(paths, DEFAULT_OPTIONS)
    cached = build.build_project(paths, DEFAULT_OPTIONS, tmp_path / "cache")
    for path in paths:
        assert uncached.context(path).key == ""  # nothing would read it
        assert uncached.context(path).candidate == cached.context(path).candidate
    assert cached.context(tmp_path / "utils.py").key  # a file with a backward is keyed
    assert cached.context(tmp_path / "train.py").key  # and so is a candidate


def test_contexts_placed_in_workers_are_the_contexts_computed_here(tmp_path, monkeypatch):
    from zerograd_guard.lint import forked
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.project import build

    files = {f"pkg/m{index}.py": FIXED_STEPS for index in range(12)}
    files.update({"pkg/__init__.py": "from .m0 import train_step\n", "train.py": LOOP})
    files["utils.py"] = BUGGY_STEPS
    tree(tmp_path, files)
    paths = sorted(tmp_path.rglob("*.py"))
    here = build.build_project(paths, DEFAULT_OPTIONS, tmp_path / "cache")
    expected = [here.context(path) for path in paths]
    assert any(context.candidate for context in expected)
    monkeypatch.setattr(forked, "MIN_ITEMS", 1)
    workers = build.build_project(paths, DEFAULT_OPTIONS, tmp_path / "other-cache")
    assert workers.place(paths, jobs=2) == expected
    assert workers.contexts == here.contexts and workers.unsaved
