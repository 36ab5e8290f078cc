"""What a backward's loss reaches (``extract.parameter_sets``): the values a read sees,
and optimizers' parameters through a setup helper's returned tuple."""

from __future__ import annotations

import textwrap

from zerograd_guard.lint.analyze import parse_for_analysis
from zerograd_guard.lint.extract import build_model, resolve_module
from zerograd_guard.lint.extract.names import key_of
from zerograd_guard.lint.extract.resolve import returned_tuple
from zerograd_guard.lint.model.events import EventKind, Reach, events_of
from zerograd_guard.lint.options import DEFAULT_OPTIONS

# an optimizer with known parameters (a step resolves it): reaches are computed only then
HEADER = (
    "import torch\nnet = Net()\nopt = torch.optim.SGD(net.parameters())\n"
    "def _stepped():\n    opt.step()\n"
)


def _model(source: str):
    model = build_model(parse_for_analysis(HEADER + textwrap.dedent(source)), DEFAULT_OPTIONS)
    resolve_module(model, DEFAULT_OPTIONS)
    return model


def _reaches(source: str) -> list[Reach]:
    model = _model(source)
    return [
        event.reach
        for function in model.functions
        for event in events_of(function.body)
        if event.kind == EventKind.BACKWARD
    ]


def test_an_augmented_assignment_keeps_what_the_name_held() -> None:
    (reach,) = _reaches(
        """
        def train(loader):
            for x in loader:
                loss = net(x).sum()
                loss /= 2
                loss.backward()
        """
    )
    assert reach.complete
    assert "net" in reach.modules


def test_a_read_never_sees_the_other_arm_outside_loops() -> None:
    first, second = _reaches(
        """
        def step(flag):
            loss = net(batch).sum()
            if flag:
                loss = other(batch).sum()
                loss.backward()
            else:
                loss.backward()
        other = Other()
        """
    )
    assert first.complete and "other" in first.modules and "net" not in first.modules
    assert second.complete and "net" in second.modules and "other" not in second.modules


def test_a_global_keeps_the_other_arms_value() -> None:
    (_, second) = _reaches(
        """
        def step(flag):
            global loss
            if flag:
                loss = other(batch).sum()
                loss.backward()
            else:
                loss.backward()
        loss = net(batch).sum()
        other = Other()
        """
    )
    assert "other" in second.modules


def test_in_a_loop_the_other_arm_of_an_earlier_iteration_is_seen() -> None:
    (reach,) = _reaches(
        """
        def train(loader):
            loss = net(0).sum()
            for i, x in enumerate(loader):
                if i % 2:
                    loss = other(x).sum()
                else:
                    loss.backward()
        other = Other()
        """
    )
    assert {"net", "other"} <= reach.modules


def _function(source: str, name: str):
    return next(f for f in _model(source).functions if f.name == name)


def _names(elements):
    return [key_of(element) for element in elements]


def test_an_expression_counts_in_the_only_return_of_that_length() -> None:
    function = _function(
        """
        def setup(flag):
            if flag:
                return a, torch.optim.Adam(a.parameters())
            return a, b, c
        """,
        "setup",
    )
    assert _names(returned_tuple(function, 2)) == ["a", None]


def test_returned_names_of_the_assignments_length() -> None:
    function = _function(
        """
        def setup(flag):
            if flag:
                return a, b, c
            return a, b
        """,
        "setup",
    )
    assert _names(returned_tuple(function, 2)) == ["a", "b"]
    assert _names(returned_tuple(function, 3)) == ["a", "b", "c"]
    assert returned_tuple(function, 4) is None


def test_returns_naming_different_things_are_unknown() -> None:
    function = _function(
        """
        def setup(flag):
            if flag:
                return a, b
            return b, a
        """,
        "setup",
    )
    assert returned_tuple(function, 2) is None


def test_nested_functions_and_starred_elements() -> None:
    function = _function(
        """
        def setup(rest):
            def inner():
                return x, y
            return (a, *rest)
        """,
        "setup",
    )
    assert returned_tuple(function, 2) is None


def test_an_optimizer_over_a_module_not_returned_is_unknown() -> None:
    model = _model(
        """
        def build():
            g = G()
            d = D()
            opt_g = torch.optim.Adam(g.parameters())
            opt_d = torch.optim.Adam(d.parameters())
            return d, opt_g, opt_d

        def train():
            disc, gen_opt, disc_opt = build()
            gen_opt.step()
            disc_opt.step()
        """
    )
    assert model.ties["disc_opt"] == {"disc"}
    assert model.ties.get("gen_opt") is None


def test_an_optimizer_built_in_the_return_statement() -> None:
    model = _model(
        """
        def build():
            g = G()
            d = D()
            return g, d, torch.optim.Adam(g.parameters()), torch.optim.Adam(d.parameters())

        def train():
            gen, disc, gen_opt, disc_opt = build()
            gen_opt.step()
            disc_opt.step()
        """
    )
    assert model.ties["gen_opt"] == {"gen"}
    assert model.ties["disc_opt"] == {"disc"}


def test_a_global_module_counts_only_where_both_functions_read_the_global() -> None:
    model = _model(
        """
        gen = G()
        disc = D()

        def make():
            opt_g = torch.optim.Adam(gen.parameters())
            opt_d = torch.optim.Adam(disc.parameters())
            return opt_g, opt_d

        def train():
            go, do = make()
            go.step()
            do.step()

        def shadowed():
            disc = Other()
            go2, do2 = make()
            go2.step()
            do2.step()
        """
    )
    assert model.ties["do"] == {"disc"}
    assert model.ties["go2"] == {"gen"}
    assert model.ties.get("do2") is None  # ``disc`` here is another module


def test_a_later_with_binding_is_the_one_a_backward_reads() -> None:
    # fast_adversarial's train_fgsm.py: an FGSM step on the perturbation, then the
    # model's step, each under ``with amp.scale_loss(...) as scaled_loss``
    first, second = _reaches(
        """
        def train(loader, other):
            for x, y in loader:
                delta = torch.zeros_like(x).uniform_(-1, 1)
                delta.requires_grad = True
                with amp.scale_loss(other(x + delta).sum(), opt) as scaled_loss:
                    scaled_loss.backward()
                delta = delta.detach()
                with amp.scale_loss(net(x + delta).sum(), opt) as scaled_loss:
                    scaled_loss.backward()
                opt.step()
        """
    )
    assert "delta" in first.modules
    assert "delta" not in second.modules and "net" in second.modules
