"""What the project index says a definition may reach, and so what gets analysed.

A definition marked as touching gradients costs a parse wherever it is called, and a
file marked as a candidate costs a full analysis: on a tree the size of torch, marks
that spread through a docstring, a type hint or a whole imported module made project
mode 14x slower than per-file mode. Each test pins one way a mark must not spread, and
the one next to it that must (calling, deriving, a real marker).
"""

from __future__ import annotations

from pathlib import Path

from project_helpers import codes, tree

from zerograd_guard.lint.options import DEFAULT_OPTIONS
from zerograd_guard.lint.project.build import build_project
from zerograd_guard.lint.project.graph import MAX_DEPTH, Project


def _project(root: Path, files: dict[str, str]) -> Project:
    tree(root, files)
    return build_project(sorted(root.rglob("*.py")), DEFAULT_OPTIONS)


def _reaches(project: Project, root: Path, file: str, name: str, flag: str) -> bool:
    return project.reaches(project.entries[str(root / file)], name, flag)


def test_a_marker_in_a_docstring_or_comment_is_not_code(tmp_path):
    project = _project(
        tmp_path,
        {
            "helpers.py": '''\
                def documented(x):
                    """Call ``loss.backward()`` first, then ``optimizer.step()``."""
                    return x  # not x.grad

                def real(model):
                    model.zero_grad()
                ''',
        },
    )
    for flag in ("backward", "steps", "touches"):
        assert not _reaches(project, tmp_path, "helpers.py", "documented", flag)
    assert _reaches(project, tmp_path, "helpers.py", "real", "touches")


def test_reach_stops_where_the_analysis_stops_following_calls(tmp_path):
    files = {"m0.py": "from m1 import f1\n\ndef f0(model, x):\n    f1(model, x)\n"}
    files["m1.py"] = "from m2 import f2\n\ndef f1(model, x):\n    f2(model, x)\n"
    files["m2.py"] = "def f2(model, x):\n    model(x).backward()\n"
    project = _project(tmp_path, files)
    assert MAX_DEPTH == 2  # the chain below is one call longer than what is followed
    assert _reaches(project, tmp_path, "m2.py", "f2", "backward")
    assert _reaches(project, tmp_path, "m1.py", "f1", "backward")
    assert not _reaches(project, tmp_path, "m0.py", "f0", "backward")


_TENSOR_MODULE = {
    "tlib/__init__.py": "from tlib.core import Tensor, clear\n",
    "tlib/core.py": """\
        class Tensor:
            def backward(self):
                self.grad = None

        def clear(model):
            model.zero_grad()

        def unrelated(x):
            return x
        """,
}


def test_an_imported_module_refers_to_what_its_chains_name(tmp_path):
    project = _project(
        tmp_path,
        {
            **_TENSOR_MODULE,
            "user.py": """\
                import tlib

                def hinted(x: tlib.Tensor) -> tlib.Tensor:
                    return x

                def clears(model):
                    tlib.clear(model)
                """,
        },
    )
    assert not _reaches(project, tmp_path, "user.py", "hinted", "touches")
    assert _reaches(project, tmp_path, "user.py", "clears", "touches")


def test_naming_a_class_is_not_calling_it(tmp_path):
    project = _project(
        tmp_path,
        {
            **_TENSOR_MODULE,
            "user.py": """\
                from tlib import Tensor

                def checks(x):
                    return isinstance(x, Tensor)

                def builds(x):
                    return Tensor(x)

                class Derived(Tensor):
                    pass
                """,
        },
    )
    assert not _reaches(project, tmp_path, "user.py", "checks", "touches")
    assert _reaches(project, tmp_path, "user.py", "builds", "touches")
    assert _reaches(project, tmp_path, "user.py", "Derived", "touches")


_STEP_FUNCTION = {
    "steps.py": """\
        def run_batch(model, x):
            model(x).backward()
        """,
}


_CHECKPOINT_MODULE = {
    "ckpt.py": """\
        import torch


        class CheckpointFunction(torch.autograd.Function):
            @staticmethod
            def forward(ctx, run, *args):
                return run(*args)

            @staticmethod
            def backward(ctx, *grads):
                torch.autograd.backward(ctx.outputs, grads)


        class Trainer:
            def fit(self, loss):
                loss.backward()


        def checkpoint(run, *args):
            return CheckpointFunction.apply(run, *args)


        def fit_with(trainer_loss):
            return Trainer.fit(None, trainer_loss)
        """,
}


def test_reading_a_method_of_a_class_runs_that_method_only(tmp_path):
    # torch.utils.checkpoint: ``CheckpointFunction.apply(...)`` runs the autograd
    # Function's ``forward`` (its ``backward`` runs inside autograd): it reaches no
    # backward. On the installed torch and transformers this spread a backward to every
    # model that checkpoints, and project mode analysed four 50-100 KB files for it.
    project = _project(tmp_path, _CHECKPOINT_MODULE)
    assert not _reaches(project, tmp_path, "ckpt.py", "checkpoint", "backward")
    assert _reaches(project, tmp_path, "ckpt.py", "fit_with", "backward")


def test_a_module_a_docstring_names_runs_nothing(tmp_path):
    documented = '''\
        import steps

        def documented(x):
            """Like :func:`steps.run_batch`, without the backward."""
            return x

        def runs(model, x):
            steps.run_batch(model, x)
        '''
    project = _project(tmp_path, {**_STEP_FUNCTION, "user.py": documented})
    assert not _reaches(project, tmp_path, "user.py", "documented", "backward")
    assert _reaches(project, tmp_path, "user.py", "runs", "backward")


def test_a_loop_file_without_any_step_is_not_a_candidate(tmp_path):
    # every finding needs a step in the iteration: a loop that calls a backward in
    # another module and steps nowhere is not analysed
    project = _project(
        tmp_path,
        {
            **_STEP_FUNCTION,
            "probe.py": "from steps import run_batch\n\nfor x in data:\n    run_batch(model, x)\n",
            "train.py": "from steps import run_batch\n\nfor x in data:\n"
            "    run_batch(model, x)\n    opt.step()\n",
        },
    )
    probe = project.context(tmp_path / "probe.py")
    train = project.context(tmp_path / "train.py")
    assert probe is not None and not probe.candidate
    assert train is not None and train.candidate


def test_the_candidate_with_a_step_is_judged(findings):
    found = findings(
        files={
            **_STEP_FUNCTION,
            "train.py": "from steps import run_batch\n\nfor x in data:\n"
            "    run_batch(model, x)\n    opt.step()\n",
        }
    )
    assert codes(found) == [("train.py", 4, "ZG101")]
