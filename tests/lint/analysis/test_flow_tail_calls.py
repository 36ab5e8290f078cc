"""A call in tail position (nothing after it observes gradients) is analysed without
the statuses of optimizers it cannot see (``FlowEngine._forget_unnamed``): earlier
training loops of a script or notebook no longer multiply the paths of its last call,
and nothing after a call that is not in tail position loses what it observes."""

from __future__ import annotations

import textwrap

import pytest

from zerograd_guard.lint.analyze import analyze_source
from zerograd_guard.lint.flow import engine as flow_engine

# A module-level SAC-style loop: three optimizers, each status varying with its flags.
EARLIER_LOOPS = textwrap.dedent(
    """\
    import torch

    if __name__ == "__main__":
        q_opt = torch.optim.Adam(qf.parameters())
        actor_opt = torch.optim.Adam(actor.parameters())
        alpha_opt = torch.optim.Adam([log_alpha])
        for step in range(total):
            if step > learning_starts:
                q_loss = qf(batch).mean()
                q_opt.zero_grad()
                q_loss.backward()
                q_opt.step()
                if step % policy_frequency == 0:
                    for _ in range(policy_frequency):
                        actor_loss = actor(batch).mean()
                        actor_opt.zero_grad()
                        actor_loss.backward()
                        actor_opt.step()
                        if autotune:
                            alpha_loss = log_alpha.exp().mean()
                            alpha_opt.zero_grad()
                            alpha_loss.backward()
                            alpha_opt.step()
    """
)

# accelerate's test_sync shape: nested loops around a helper that backpropagates; the
# DDP twin's optimizer is never cleared (ZG101).
LAST_CALL = textwrap.dedent(
    """\
    def step_model(model, batch, do_backward=True):
        loss = model(batch).mean()
        if not do_backward:
            loss.backward()
        else:
            accelerator.backward(loss)


    def check(model, ddp_model, opt, ddp_opt, loader):
        for iteration, batch in enumerate(loader):
            step_model(model, batch, False)
            with accelerator.accumulate(ddp_model):
                step_model(ddp_model, batch)
            for param, ddp_param in zip(model.parameters(), ddp_model.parameters()):
                if not param.requires_grad:
                    continue
            opt.step()
            ddp_opt.step()
            opt.zero_grad()


    def main():
        for split in [True, False]:
            for dispatch in [True, False]:
                model = Net()
                ddp_model = Net()
                opt = torch.optim.SGD(model.parameters())
                ddp_opt = torch.optim.SGD(ddp_model.parameters())
                check(model, ddp_model, opt, ddp_opt, loader)


    if __name__ == "__main__":
        main()
    """
)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the (event, path) pairs the flow check interprets."""
    counted = [0]
    event = flow_engine.FlowEngine.event

    def counting(self, statement, states, frame):  # type: ignore[no-untyped-def]
        counted[0] += len(states)
        return event(self, statement, states, frame)

    monkeypatch.setattr(flow_engine.FlowEngine, "event", counting)
    return counted


def findings(source: str) -> list[tuple[int, str]]:
    return sorted((finding.line, finding.code) for finding in analyze_source(source))


def shifted(found: list[tuple[int, str]], lines: int) -> list[tuple[int, str]]:
    return [(line + lines, code) for line, code in found]


def test_earlier_loops_do_not_multiply_the_paths_of_the_last_call(work: list[int]) -> None:
    alone = []
    for source in (EARLIER_LOOPS, LAST_CALL):
        work[0] = 0
        alone.append((findings(source), work[0]))
    work[0] = 0
    both = findings(EARLIER_LOOPS + "\n\n" + LAST_CALL)
    offset = EARLIER_LOOPS.count("\n") + 2
    assert both == alone[0][0] + shifted(alone[1][0], offset)
    assert alone[1][0], "the never-cleared DDP optimizer is found"
    # 1,062 against 342 + 212; before, 3,026 (each earlier path re-ran the nested loops)
    assert work[0] <= 3 * (alone[0][1] + alone[1][1])


LEAK_ACROSS_A_CALL = textwrap.dedent(
    """\
    import torch

    def other(model2, opt2):
        opt2.zero_grad()
        model2(x).sum().backward()
        opt2.step()

    def train(model, opt, model2, opt2):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
        {call}
        model(y).sum().backward()
        opt.step()
    """
)


@pytest.mark.parametrize(
    "call",
    [
        "other(model2, opt2)",
        "for _ in range(3):\n        other(model2, opt2)",
        "try:\n        other(model2, opt2)\n    finally:\n        pass",
        "if flag:\n        other(model2, opt2)\n        return",
    ],
)
def test_what_follows_a_call_still_sees_the_statuses_before_it(call: str) -> None:
    """``opt``'s second step applies the first backward's gradients again: the call
    between, whatever surrounds it, is not in tail position and forgets nothing."""
    without = findings(LEAK_ACROSS_A_CALL.format(call="pass"))
    assert (12, "ZG101") in without or any(code == "ZG101" for _, code in without)
    lines_added = call.count("\n")
    expected = [(line + lines_added if line > 12 else line, code) for line, code in without]
    assert findings(LEAK_ACROSS_A_CALL.format(call=call)) == expected


def test_a_call_at_the_end_of_a_loop_body_is_not_in_tail_position() -> None:
    """The next iteration follows the call: ``opt`` stepped before it is stepped again
    after the next backward with no clear (ZG101), seen through the call."""
    source = textwrap.dedent(
        """\
        import torch

        def log_other(model2, opt2):
            opt2.zero_grad()
            model2(x).sum().backward()
            opt2.step()

        def train(model, opt, model2, opt2, loader):
            for batch in loader:
                model(batch).sum().backward()
                opt.step()
                log_other(model2, opt2)
        """
    )
    assert (10, "ZG101") in findings(source)


def test_a_tail_call_sees_the_optimizers_it_is_handed() -> None:
    """The callee steps the caller's ``opt`` under its parameter's name: what ``opt``
    holds before the call (the gradients its last step applied) is not forgotten."""
    source = textwrap.dedent(
        """\
        import torch


        def finetune(model, optimizer, x):
            loss = model(x).sum()
            loss.backward()
            optimizer.step()


        model = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
        finetune(model, opt, x)
        """
    )
    assert findings(source) == [(6, "ZG101")]
