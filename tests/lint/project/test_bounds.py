"""Project shapes that could make the analysis run away: recursion between modules, a
call chain longer than the followed depth, calls fanning out at every level, ``*``
imports that form a cycle. Each finishes with a fixed answer (a run that did not
would hang the test, not pass it)."""

from __future__ import annotations

from project_helpers import codes


def test_mutual_recursion_across_modules_is_followed_once(findings):
    found = findings(
        files={
            "a.py": """\
                from b import g

                def f(model, opt, n):
                    loss = model(n)
                    loss.backward()
                    g(model, opt, n - 1)
                    opt.step()
                """,
            "b.py": """\
                from a import f

                def g(model, opt, n):
                    if n:
                        f(model, opt, n)
                    opt.zero_grad()
                """,
            "train.py": """\
                from a import f

                for x in data:
                    f(model, opt, x)
                """,
        }
    )
    # the clear in g runs between f's backward and its step, whatever the recursion does
    assert codes(found) == [("a.py", 7, "ZG102")]


def _chain(length: int) -> dict[str, str]:
    files = {"train.py": "from m0 import f0\n\nfor x in data:\n    f0(model, opt, x)\n"}
    for index in range(length):
        if index + 1 < length:
            body = f"from m{index + 1} import f{index + 1}\n\n"
            body += f"def f{index}(model, opt, x):\n    f{index + 1}(model, opt, x)\n"
        else:
            body = f"def f{index}(model, opt, x):\n    model(x).backward()\n    opt.step()\n"
        files[f"m{index}.py"] = body
    return files


def test_a_call_chain_beyond_the_followed_depth_stays_unknown(findings):
    # the step without a clear is forty calls away from the loop: further than calls
    # are followed (external.MAX_DEPTH), so the loop is not judged; the last module's
    # function has no caller loop close enough either
    assert findings(files=_chain(40)) == []


def test_a_short_chain_is_followed(findings):
    # loop -> f0 (a wrapper without any gradient marker of its own) -> f1, which steps
    found = findings(files=_chain(2))
    assert codes(found) == [("train.py", 4, "ZG101")]
    assert "m1.py:2 (in `f1`" in found[0][3]


def test_calls_fanning_out_at_every_level_finish(findings):
    files = {"train.py": "from n0 import h0\n\nfor x in data:\n    h0(model, opt, x)\n"}
    levels = 6
    for index in range(levels):
        if index + 1 < levels:
            calls = f"    h{index + 1}(model, opt, x)\n" * 8
            files[f"n{index}.py"] = (
                f"from n{index + 1} import h{index + 1}\n\n"
                f"def h{index}(model, opt, x):\n    model(x).backward()\n{calls}"
                "    opt.step()\n"
            )
        else:
            files[f"n{index}.py"] = (
                f"def h{index}(model, opt, x):\n    model(x).backward()\n    opt.zero_grad()\n"
            )
    found = findings(files=files)
    # h4 clears (through h5) between its backward and its step; so does h3 through h4
    assert codes(found) == [("n3.py", 5, "ZG102"), ("n4.py", 13, "ZG102")]


def test_star_imports_in_a_cycle_resolve_or_stay_unknown(findings):
    count = 12
    files = {"pkg/__init__.py": "".join(f"from .s{i} import *\n" for i in range(count))}
    for index in range(count):
        stars = "".join(f"from .s{other} import *\n" for other in range(count) if other != index)
        files[f"pkg/s{index}.py"] = (
            f"{stars}\ndef step{index}(model, opt, x):\n    model(x).backward()\n    opt.step()\n"
        )
    calls = "".join(
        f"    step{i}(model, opt, x)\n    missing{i}(model, opt)\n" for i in range(count)
    )
    files["train.py"] = f"from pkg import *\n\nfor x in data:\n{calls}"
    # every stepN is found through the cycle, and each missingN (defined nowhere) might
    # clear: the loop is not judged
    assert findings(files=files) == []


def test_star_imports_of_modules_outside_the_run_bind_nothing(findings, monkeypatch):
    # ``pkg`` star-imports seven submodules that are not linted: the names they bind are
    # unknown. Resolving ``pkg.m0.train_step`` must not retry every star with the rest
    # of the name appended (seven ways at each of a dozen hops: it never finished on
    # networkx's ``isomorphism`` package in the scale sample).
    from zerograd_guard.lint.project import graph

    resolve = graph.Project._resolve
    calls = []

    def counted(self, dotted, importer, hops):
        calls.append(dotted)
        assert len(calls) < 1_000, "resolution runs away"
        return resolve(self, dotted, importer, hops)

    monkeypatch.setattr(graph.Project, "_resolve", counted)
    stars = "".join(f"from pkg.m{index} import *\n" for index in range(7))
    files = {
        "pkg/__init__.py": f"{stars}\ndef reset(model):\n    model.zero_grad()\n",
        "train.py": (
            "from pkg.m0 import train_step\nimport pkg.m1\n\nfor x in data:\n"
            "    train_step(model, opt, x)\n    pkg.m1.other(model, opt)\n"
        ),
    }
    assert findings(files=files) == []
