"""Step functions and helpers in other modules, judged with the loop that calls them."""

from __future__ import annotations

import textwrap

from project_helpers import codes

STEPS = """\
    def train_step(model, batch, optimizer):
        loss = model(batch)
        loss.backward()
        optimizer.step()
    """
LOOP = """\
    import torch
    from trainer.steps import train_step

    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch in loader:
        train_step(model, batch, opt)
    """


def test_step_function_without_clear_is_judged_at_the_callers_loop(findings):
    found = findings(files={"trainer/__init__.py": "", "trainer/steps.py": STEPS, "train.py": LOOP})
    assert codes(found) == [("train.py", 7, "ZG101")]
    message = found[0][3]
    assert "the backward() at trainer/steps.py:3 (in `train_step`, called at line 7)" in message
    assert "`opt` already applied at trainer/steps.py:4" in message


def test_caller_that_clears_before_the_call_makes_it_correct(findings):
    loop = LOOP.replace("    train_step(model", "    opt.zero_grad()\n        train_step(model")
    files = {"trainer/__init__.py": "", "trainer/steps.py": STEPS, "train.py": loop}
    assert findings(files=files) == []


def test_step_function_that_clears_is_correct(findings):
    steps = STEPS.replace("    loss = model", "    optimizer.zero_grad()\n        loss = model")
    files = {"trainer/__init__.py": "", "trainer/steps.py": steps, "train.py": LOOP}
    assert findings(files=files) == []


def test_per_file_mode_sees_no_other_module(findings):
    files = {"trainer/__init__.py": "", "trainer/steps.py": STEPS, "train.py": LOOP}
    assert findings("--no-project", files=files) == []


def test_project_false_in_the_config_keeps_per_file_mode(findings):
    files = {
        "pyproject.toml": "[tool.zerograd-guard]\nproject = false\n",
        "trainer/__init__.py": "",
        "trainer/steps.py": STEPS,
        "train.py": LOOP,
    }
    assert findings(files=files) == []


HELPERS = """\
    def update(optimizer, scheduler):
        optimizer.step()
        scheduler.step()
    """
HELPER_LOOP = """\
    import torch
    from utils import update

    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        update(opt, sched)
    """


def test_helper_that_is_handed_the_optimizer_is_no_longer_unknown(findings):
    # per file: "update might clear", so the loop is not judged; its body is known here
    found = findings(files={"utils.py": HELPERS, "train.py": HELPER_LOOP})
    assert codes(found) == [("train.py", 7, "ZG101")]
    assert findings("--no-project") == []


def test_helper_that_clears_after_its_step(findings):
    helpers = HELPERS.replace(
        "    scheduler.step()", "    scheduler.step()\n        optimizer.zero_grad()"
    )
    assert findings(files={"utils.py": helpers, "train.py": HELPER_LOOP}) == []


def test_helper_that_clears_between_backward_and_step_is_zg102_at_the_call(findings):
    helpers = HELPERS.replace(
        "    optimizer.step()", "    optimizer.zero_grad()\n        optimizer.step()"
    )
    found = findings(files={"utils.py": helpers, "train.py": HELPER_LOOP})
    assert codes(found) == [("train.py", 8, "ZG102")]
    assert "the clear at utils.py:2 (in `update`, called at line 8)" in found[0][3]


def test_a_bug_inside_the_other_module_is_reported_there_only(findings):
    # the helper's own loop is judged in its own file; the importer does not repeat it
    helpers = """\
        def fit(model, loader, optimizer):
            for x in loader:
                model(x).backward()
                optimizer.step()
        """
    loop = """\
        import torch
        from helpers import fit

        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(3):
            fit(model, loader, opt)
        """
    found = findings(files={"helpers.py": helpers, "train.py": loop})
    assert codes(found) == [("helpers.py", 3, "ZG101")]


def test_no_fix_edits_another_module(findings, tmp_path):
    files = {"trainer/__init__.py": "", "trainer/steps.py": STEPS, "train.py": LOOP}
    found = findings("--fix", files=files)
    assert codes(found) == [("train.py", 7, "ZG101")]
    assert (tmp_path / "trainer/steps.py").read_text() == textwrap.dedent(STEPS)
    assert (tmp_path / "train.py").read_text() == textwrap.dedent(LOOP)


WRAPPER = """\
    from trainer.steps import train_step


    def run_batch(model, batch, optimizer):
        return train_step(model, batch, optimizer)
    """


def test_wrapper_module_without_gradient_words_still_leads_to_the_step(findings):
    # ``wrapper.py`` has no backward, step or clear of its own: what makes the loop's
    # finding is only that it imports a module that steps (what any pruning of the
    # index to "modules that may touch gradients" must keep)
    loop = LOOP.replace("from trainer.steps import train_step", "from wrapper import run_batch")
    loop = loop.replace("train_step(model, batch, opt)", "run_batch(model, batch, opt)")
    files = {
        "trainer/__init__.py": "",
        "trainer/steps.py": STEPS,
        "wrapper.py": WRAPPER,
        "unrelated.py": "def log(message):\n    print(message)\n",
        "train.py": loop,
    }
    assert codes(findings(files=files)) == [("train.py", 7, "ZG101")]
    fixed = STEPS.replace("    loss = model", "    optimizer.zero_grad()\n        loss = model")
    assert findings(files={**files, "trainer/steps.py": fixed}) == []


UPDATE = """\
    def update(optimizer, loss):
        loss.backward()
        optimizer.step()
    """
TWO_CALLS = """\
    import torch
    from helpers import update


    def train(actor, critic, loader):
        actor_opt = torch.optim.Adam(actor.parameters())
        critic_opt = torch.optim.Adam(critic.parameters())
        for batch in loader:
            critic_opt.zero_grad()
            update(critic_opt, critic(batch).mean())
            update(actor_opt, actor(batch).mean())
    """


def test_a_helper_called_twice_is_reported_at_the_call_that_leaks(findings):
    # the critic's call is preceded by its clear; the actor's is not: the finding is at
    # the actor's call, and names it as the call both of its events ran under
    found = findings(files={"helpers.py": UPDATE, "train.py": TWO_CALLS})
    assert codes(found) == [("train.py", 11, "ZG101")]
    assert "`actor_opt`" in found[0][3]
    assert "called at line 10" not in found[0][3]


# toshikwa/sac-discrete.pytorch: the agent's learn() (which the loop's method calls)
# hands each loss to an imported helper that runs the backward and the step
UPDATE_PARAMS = """\
    def update_params(optim, loss, retain_graph=False):
        loss.backward(retain_graph=retain_graph)
        optim.step()
    """
AGENT = """\
    from torch.optim import Adam
    {import_line}


    class Agent:
        def __init__(self, net):
            self.net = net
            self.q1_optim = Adam(net.parameters())

        def run(self, loader):
            for batch in loader:
                self.learn(batch)

        def learn(self, batch):
            q1_loss = self.net(batch).mean()
            {call}(self.q1_optim, q1_loss)
    """


def test_an_imported_helper_called_from_a_method_the_loop_calls(findings):
    # (``import helpers`` then ``helpers.update_params(...)`` outside the loops is not
    # looked for: docs/project.md)
    agent = AGENT.format(import_line="from helpers import update_params", call="update_params")
    found = findings(files={"helpers.py": UPDATE_PARAMS, "agent.py": agent})
    assert codes(found) == [("agent.py", 16, "ZG101")]
    cleared = UPDATE_PARAMS.replace(
        "    loss.backward(", "    optim.zero_grad()\n        loss.backward("
    )
    assert findings(files={"helpers.py": cleared, "agent.py": agent}) == []


def test_a_parameter_named_like_an_imported_step_function_hides_it(findings):
    """``train(..., train_step)`` calls what its caller passes (a step that clears), not
    the imported ``train_step`` of the same name."""
    loop = """\
        import torch
        from trainer.steps import train_step

        def clearing_step(model, batch, optimizer):
            optimizer.zero_grad()
            model(batch).backward()
            optimizer.step()

        def train(model, loader, opt, train_step):
            for batch in loader:
                train_step(model, batch, opt)

        model = Net()
        train(model, loader, torch.optim.SGD(model.parameters(), lr=0.1), clearing_step)
        """
    files = {"trainer/__init__.py": "", "trainer/steps.py": STEPS, "train.py": loop}
    assert findings(files=files) == []


def test_a_loop_calling_a_backward_helper_of_another_module_is_judged(findings):
    """``batch_backward(loss)`` (wenet's train_utils): the file's own text holds the word
    ``backward`` but no backward call, so it is a candidate like any other file calling
    one elsewhere; the fast path skipped it as a file with a backward that has none."""
    utils = """\
        def batch_backward(loss):
            loss.backward()
        """
    executor = """\
        from pkg.utils import batch_backward

        def train(model, optimizer, loader):
            for batch in loader:
                batch_backward(model(batch))
                optimizer.step()
        """
    files = {"pkg/__init__.py": "", "pkg/utils.py": utils, "pkg/executor.py": executor}
    assert codes(findings(files=files)) == [("pkg/executor.py", 5, "ZG101")]
    assert codes(findings("--no-fast-path", files=files)) == [("pkg/executor.py", 5, "ZG101")]
