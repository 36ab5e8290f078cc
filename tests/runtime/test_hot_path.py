"""The per-step path of the guard: what a clean step leaves behind, and the site cache."""

from __future__ import annotations

import os

import pytest
import torch

from tests.runtime.conftest import batch, loss_of, make_model
from zerograd_guard.runtime import guard, report
from zerograd_guard.runtime.sites import capture_site


def test_clean_steps_are_counted_and_their_events_stay_bounded(monkeypatch, model, x):
    monkeypatch.setattr(report, "MAX_EVENTS", 5)
    opt = torch.optim.Adam(model.parameters())
    with guard() as session:
        for _ in range(8):
            opt.zero_grad()
            loss_of(model, x).backward()
            opt.step()
    assert session.report.steps_checked == 8
    assert [event.step for event in session.report.events] == [4, 5, 6, 7, 8]
    assert {(event.backward_passes, event.verdict) for event in session.report.events} == {
        (1, "ok")
    }
    assert not session.report.violations and not session.report.warnings


def test_site_cache_tells_apart_code_objects_with_equal_content():
    """Equal code objects compare (and hash) equal whatever their file: the internal /
    user classification must be cached per object, not per value."""
    source = "def call(function):\n    return function()\n"
    internal: dict[str, object] = {}
    user: dict[str, object] = {}
    torch_dir = os.path.dirname(torch.__file__)
    exec(compile(source, os.path.join(torch_dir, "_zg_fake.py"), "exec"), internal)
    exec(compile(source, "/elsewhere/user_helpers.py", "exec"), user)
    internal_call, user_call = internal["call"], user["call"]
    assert internal_call.__code__ == user_call.__code__  # the trap this test is about

    seen_from_internal = internal_call(lambda: capture_site(2))
    seen_from_user = user_call(lambda: capture_site(2))

    assert seen_from_internal is not None and seen_from_internal[0] is not internal_call.__code__
    assert seen_from_user == (user_call.__code__, 2)


def test_a_run_that_keeps_reporting_scans_live_objects_once(monkeypatch, model, x):
    """Naming scanned every live object at every finding (190 ms per step on a tiny
    model); now once per optimizer, and a warning given once is not built again."""
    from zerograd_guard.runtime import naming

    scans = []
    original = naming._names_from_modules
    monkeypatch.setattr(naming, "_names_from_modules", lambda w: scans.append(1) or original(w))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.warns(UserWarning), guard("warn") as session:
        for _ in range(6):
            loss_of(model, x).backward()  # never cleared: ZG101 at every step
            opt.step()
    assert len(session.report.violations) == 5
    assert session.report.violations[-1].parameters == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert len(scans) == 1


def _autograd_backward_in_helper(loss):
    torch.autograd.backward(loss)  # site: autograd helper


def _tensor_backward_in_helper(loss):
    loss.backward()  # site: tensor helper


def test_backward_lines_follow_the_call_path_as_it_changes_between_steps(model, x):
    """The backward line is looked for first where the previous step's was: a step that
    reaches ``backward`` another way (through a helper, ``torch.autograd.backward``, at
    the same stack depth as before) still names its own innermost user line."""
    import warnings

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    paths = ["tensor", "autograd helper", "tensor", "tensor helper", "autograd", "tensor"]
    paths += ["autograd helper", "autograd helper", "tensor helper", "tensor"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with guard("warn") as session:
            for path in paths:
                opt.zero_grad()
                loss = loss_of(model, x)
                if path == "tensor":
                    loss.backward()  # site: tensor
                elif path == "autograd":
                    torch.autograd.backward(loss)  # site: autograd
                elif path == "autograd helper":
                    _autograd_backward_in_helper(loss)
                else:
                    _tensor_backward_in_helper(loss)
                opt.zero_grad()  # discards the pass: ZG102 names its backward line
                opt.step()
    lines = _marked_lines()
    found = [finding.backward_sites for finding in session.report.violations]
    assert [[(code.co_filename, line) for code, line in sites] for sites in found] == [
        [(__file__, lines[path])] for path in paths
    ]


def _marked_lines() -> dict[str, int]:
    with open(__file__) as source:
        return {
            line.split("# site: ")[1].strip(): number
            for number, line in enumerate(source, start=1)
            if "# site: " in line and "split" not in line
        }


def test_a_module_listed_as_a_library_later_is_walked_out_of(model, x, tmp_path, monkeypatch):
    """``add_library_modules`` after some steps: the remembered backward frame may be
    in that module, and must not be reported once the module counts as a library's."""
    import sys
    import warnings

    from zerograd_guard.runtime import sites

    (tmp_path / "zg_inhouse_trainer.py").write_text(
        "def run_backward(loss):\n    loss.backward()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sites, "_INTERNAL_DIRS", sites._INTERNAL_DIRS)
    import zg_inhouse_trainer

    monkeypatch.delitem(sys.modules, "zg_inhouse_trainer")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with guard("warn") as session:
            for listed in (False, False, True, True):
                if listed:
                    assert sites.add_library_modules(["zg_inhouse_trainer"]) == []
                opt.zero_grad()
                zg_inhouse_trainer.run_backward(loss_of(model, x))  # site: trainer caller
                opt.zero_grad()
                opt.step()
                code, line = session.report.violations[-1].backward_sites[0]
                found.append((code.co_filename, line))
    trainer = str(tmp_path / "zg_inhouse_trainer.py")
    caller = (__file__, _marked_lines()["trainer caller"])
    assert found == [(trainer, 2), (trainer, 2), caller, caller]


def test_lines_of_a_long_script_and_of_two_calls_on_one_line(tmp_path):
    """Sites are taken as (code, instruction offset) and get their line only when a
    finding is built: the lines must be the calls' own, deep into a long script, and
    two backward calls on one line name that line once."""
    import warnings

    filler = "".join(f"unused_{i} = {i}\n" for i in range(300))
    script = filler + (
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for _ in range(3):\n"
        "    opt.zero_grad()  # line A\n"
        "    loss_of(model, x).backward(); loss_of(model, x).backward()  # line B\n"
        "    opt.zero_grad()  # line C\n"
        "    opt.step()\n"
    )
    path = tmp_path / "long_training_script.py"
    path.write_text(script)
    lines = {
        text.split("# line ")[1]: n
        for n, text in enumerate(script.splitlines(), 1)
        if "# line " in text
    }
    namespace = {"torch": torch, "model": make_model(), "x": batch(), "loss_of": loss_of}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with guard("warn") as session:
            exec(compile(script, str(path), "exec"), namespace)
    assert len(session.report.violations) == 3
    for finding in session.report.violations:
        assert finding.code == "ZG102"
        assert [(code.co_filename, line) for code, line in finding.backward_sites] == [
            (str(path), lines["B"])
        ]
        assert finding.clear_site is not None
        assert (finding.clear_site[0].co_filename, finding.clear_site[1]) == (str(path), lines["C"])
        assert "opt.zero_grad()  # line C" in finding.render()
