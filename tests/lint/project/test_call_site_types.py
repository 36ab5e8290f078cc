"""A parameter's class read from what every caller passes (``project.call_sites``).

MAE's, ConvNeXt's and BEiT's layout: ``main.py`` builds ``loss_scaler = NativeScaler()``
(a class of ``util/misc.py`` whose ``__call__`` runs the backward and the step) and hands
it to ``engine.train_one_epoch``, whose loop only calls ``loss_scaler(loss, optimizer)``.
"""

from __future__ import annotations

from project_helpers import codes, tree

SCALER = """\
    import torch


    class NativeScalerWithGradNormCount:
        def __init__(self):
            self._scaler = torch.cuda.amp.GradScaler()

        def __call__(self, loss, optimizer, parameters=None, update_grad=True):
            self._scaler.scale(loss).backward()
            if update_grad:
                self._scaler.unscale_(optimizer)
                self._scaler.step(optimizer)
                self._scaler.update()
    """
ENGINE = """\
    def train_one_epoch(model, data_loader, optimizer, loss_scaler, accum_iter=1):
        optimizer.zero_grad()
        for step, (samples, targets) in enumerate(data_loader):
            loss = model(samples, targets) / accum_iter
            loss_scaler(loss, optimizer, parameters=model.parameters(),
                        update_grad=(step + 1) % accum_iter == 0)
            if (step + 1) % accum_iter == 0:
                optimizer.zero_grad()
    """
BUGGY_ENGINE = ENGINE.replace(
    "            if (step + 1) % accum_iter == 0:\n                optimizer.zero_grad()\n", ""
)
MAIN = """\
    import torch

    from engine import train_one_epoch
    from util.misc import NativeScalerWithGradNormCount as NativeScaler


    def main(args, model, loader):
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
        loss_scaler = NativeScaler()
        for epoch in range(args.epochs):
            train_one_epoch(model, loader, optimizer, loss_scaler, accum_iter=args.accum)
    """


def _files(engine: str = BUGGY_ENGINE, main: str = MAIN) -> dict[str, str]:
    return {"util/__init__.py": "", "util/misc.py": SCALER, "engine.py": engine, "main.py": main}


def test_the_scaler_every_caller_passes_runs_the_step_without_a_clear(findings):
    found = findings(files=_files())
    assert codes(found) == [("engine.py", 5, "ZG101")]
    assert "util/misc.py:9 (in `NativeScalerWithGradNormCount.__call__`" in found[0][3]


def test_the_loop_that_clears_after_the_scaler_steps_is_correct(findings):
    assert findings(files=_files(engine=ENGINE)) == []


def test_a_caller_passing_it_by_keyword_or_built_in_place(findings):
    by_keyword = MAIN.replace(
        "optimizer, loss_scaler, accum_iter", "optimizer, loss_scaler=loss_scaler, accum_iter"
    )
    assert codes(findings(files=_files(main=by_keyword))) == [("engine.py", 5, "ZG101")]
    in_place = MAIN.replace(
        "optimizer, loss_scaler, accum_iter", "optimizer, NativeScaler(), accum_iter"
    )
    assert codes(findings(files=_files(main=in_place))) == [("engine.py", 5, "ZG101")]


def test_through_the_module_and_from_its_own_module(findings):
    through_module = MAIN.replace("from engine import train_one_epoch", "import engine").replace(
        "            train_one_epoch(", "            engine.train_one_epoch("
    )
    assert codes(findings(files=_files(main=through_module))) == [("engine.py", 5, "ZG101")]


def test_the_scaler_built_in_the_callers_own_module(findings, tmp_path):
    main = (
        SCALER
        + """
    from engine import train_one_epoch


    def main(args, model, loader, optimizer):
        loss_scaler = NativeScalerWithGradNormCount()
        for epoch in range(args.epochs):
            train_one_epoch(model, loader, optimizer, loss_scaler)
    """
    )
    tree(tmp_path, {"engine.py": BUGGY_ENGINE, "main.py": main})
    assert codes(findings()) == [("engine.py", 5, "ZG101")]


def test_none_where_the_function_never_calls_it(findings):
    # timm's train.py: ``loss_scaler = None``, then the class under ``if``; a caller
    # passing ``None`` runs none of the function's calls on it
    maybe = MAIN.replace(
        "        loss_scaler = NativeScaler()\n",
        "        loss_scaler = None\n"
        "        if args.amp:\n"
        "            loss_scaler = NativeScaler()\n",
    )
    assert codes(findings(files=_files(main=maybe))) == [("engine.py", 5, "ZG101")]
    plain = (
        MAIN
        + """
    def finetune(model, loader, optimizer):
        train_one_epoch(model, loader, optimizer, None)
    """
    )
    assert codes(findings(files=_files(main=plain))) == [("engine.py", 5, "ZG101")]


AGENT = """\
    import torch


    class Agent:
        def __init__(self, net):
            self.net = net
            self.optimizer = torch.optim.Adam(net.parameters())

        def update(self, batch):
            loss = self.net(batch).mean()
            loss.backward()
            self.optimizer.step()
    """
RUNNER = """\
    def run(agent, env, episodes):
        for episode in range(episodes):
            agent.update(env.sample())
    """
AGENT_MAIN = """\
    from agent import Agent
    from runner import run


    def main(net, env):
        run(Agent(net), env, 10)
    """


def test_a_method_of_the_instance_every_caller_passes(findings):
    found = findings(files={"agent.py": AGENT, "runner.py": RUNNER, "main.py": AGENT_MAIN})
    assert codes(found) == [("runner.py", 3, "ZG101")]
    assert "(in `Agent.update`, called at line 3)" in found[0][3]


def test_a_method_of_an_instance_moved_to_its_device(findings):
    # GMvandeVen/continual-learning: ``model = define.define_classifier(...).to(device)``;
    # GEM and DeepDG: ``Net(...).cuda()``. ``to`` / ``cuda`` / ``train`` return the module.
    for moved in ("Agent(net).to(device)", "Agent(net).cuda().train()"):
        main = AGENT_MAIN.replace("def main(net, env):", "def main(net, env, device):")
        assigned = f"agent = {moved}\n        run(agent, env, 10)"
        main = main.replace("run(Agent(net), env, 10)", assigned)
        found = findings(files={"agent.py": AGENT, "runner.py": RUNNER, "main.py": main})
        assert codes(found) == [("runner.py", 3, "ZG101")], moved
        inline = AGENT_MAIN.replace("run(Agent(net), env, 10)", f"run({moved}, env, 10)")
        found = findings(files={"agent.py": AGENT, "runner.py": RUNNER, "main.py": inline})
        assert codes(found) == [("runner.py", 3, "ZG101")], moved


def test_a_method_of_an_instance_whose_class_is_annotated(findings):
    runner = "    from agent import Agent\n\n\n" + RUNNER.replace("agent, env", "agent: Agent, env")
    main = AGENT_MAIN.replace("run(Agent(net), env, 10)", "run(make_agent(net), env, 10)")
    found = findings(files={"agent.py": AGENT, "runner.py": runner, "main.py": main})
    assert codes(found) == [("runner.py", 6, "ZG101")]


def test_the_fast_path_keeps_a_function_its_callers_pass_such_an_instance(findings):
    # a file long enough to be split: ``run`` holds no backward, no optimizer and no
    # import; only what its callers pass makes it matter
    padding = "".join(
        f"\n\n    def pad_{i}(x):\n        return x + {i}  # long enough to split\n"
        for i in range(400)
    )
    probe = "\n\n    def probe(model, x):\n        model(x).sum().backward()\n"
    files = {"agent.py": AGENT, "runner.py": RUNNER + probe + padding, "main.py": AGENT_MAIN}
    fast = findings(files=files)
    assert fast == findings("--no-fast-path") == [fast[0]]
    assert codes(fast) == [("runner.py", 3, "ZG101")]


def test_a_class_whose_only_backward_is_its_backward_method_adds_nothing(findings):
    # a tensor, an Accelerator, an engine: ``x.backward(loss)`` is known by its name
    engine = AGENT.replace("def update(self, batch):", "def backward(self, batch):")
    runner = RUNNER.replace("agent.update(", "agent.backward(")
    main = AGENT_MAIN
    assert findings(files={"agent.py": engine, "runner.py": runner, "main.py": main}) == []


def test_a_caller_passing_another_class_leaves_the_scaler_callers_configuration(findings):
    # each call runs one configuration: main's (the scaler, no clear) is a bug whatever
    # finetune passes; a class without a backward adds no configuration to judge
    other = (
        MAIN
        + """
    class OtherScaler:
        def __call__(self, loss, optimizer):
            pass


    def finetune(model, loader, optimizer):
        train_one_epoch(model, loader, optimizer, OtherScaler())
    """
    )
    assert codes(findings(files=_files(main=other))) == [("engine.py", 5, "ZG101")]


TWO_AGENTS = """    import torch


    class DDPGAgent:
        def __init__(self, net):
            self.critic = net
            self.critic_optimizer = torch.optim.Adam(net.parameters())

        def update(self, batch):
            loss = self.critic(batch).mean()
            loss.backward()
            self.critic_optimizer.step()


    class TD3Agent:
        def __init__(self, net):
            self.critic = net
            self.critic_optimizer = torch.optim.Adam(net.parameters())

        def update(self, batch):
            self.critic_optimizer.zero_grad()
            loss = self.critic(batch).mean()
            loss.backward()
            self.critic_optimizer.step()
    """
TWO_MAINS = {
    "ddpg_test.py": """    from agents import DDPGAgent
    from runner import run

    run(DDPGAgent(net), env, 10)
    """,
    "td3_test.py": """    from agents import TD3Agent
    from runner import run

    run(TD3Agent(net), env, 10)
    """,
}


def test_each_class_the_callers_pass_is_judged(findings):
    # cyoon1729/Policy-Gradient-Methods: one ``mini_batch_train(env, agent, ...)`` loop,
    # a script per agent class; the DDPG agent never clears its critic's optimizer
    files = {"agents.py": TWO_AGENTS, "runner.py": RUNNER, **TWO_MAINS}
    found = findings(files=files)
    assert codes(found) == [("runner.py", 3, "ZG101")]
    assert "DDPGAgent.update" in found[0][3]
    cleared = TWO_AGENTS.replace(
        "            loss = self.critic(batch).mean()\n            loss.backward()\n"
        "            self.critic_optimizer.step()\n\n\n    class TD3Agent",
        "            self.critic_optimizer.zero_grad()\n"
        "            loss = self.critic(batch).mean()\n            loss.backward()\n"
        "            self.critic_optimizer.step()\n\n\n    class TD3Agent",
    )
    assert cleared != TWO_AGENTS
    assert findings(files={"agents.py": cleared, "runner.py": RUNNER, **TWO_MAINS}) == []


# Calls whose argument is not known are other configurations: main's call still passes
# the scaler (continual-learning's ``train_cl(model, ...)``: main.py passes a classifier
# it builds, the notebook one it does not).
OTHER_UNKNOWN_CALLERS = {
    "a caller leaving it to its default": MAIN
    + """
    def finetune(model, loader, optimizer):
        train_one_epoch(model, loader, optimizer, accum_iter=2)
    """,
    "a caller passing *args": MAIN
    + """
    def finetune(args):
        train_one_epoch(*args)
    """,
    "a caller passing what a factory returns": MAIN
    + """
    def finetune(model, loader, optimizer):
        train_one_epoch(model, loader, optimizer, make_scaler())
    """,
}


def test_the_known_callers_configuration_is_judged_whatever_others_pass(findings, tmp_path):
    for why, main in OTHER_UNKNOWN_CALLERS.items():
        tree(tmp_path, _files(main=main))
        assert codes(findings()) == [("engine.py", 5, "ZG101")], why


# What stays unknown, and so silent: each differs from the flagged project in one place.
UNKNOWN_CALLERS = {
    "a caller passing **kwargs": MAIN.replace(
        "train_one_epoch(model, loader, optimizer, loss_scaler, accum_iter=args.accum)",
        "train_one_epoch(model, loader, optimizer, **{'loss_scaler': loss_scaler})",
    ),
    "the function handed on as a value": MAIN
    + """
    HOOKS = {"train": train_one_epoch}
    """,
    "a name bound twice": MAIN.replace(
        "        loss_scaler = NativeScaler()\n",
        "        loss_scaler = NativeScaler()\n"
        "        if args.plain:\n"
        "            loss_scaler = make()\n",
    ),
    "a name the caller receives": MAIN.replace(
        "def main(args, model, loader):", "def main(args, model, loader, loss_scaler):"
    ).replace("        loss_scaler = NativeScaler()\n", ""),
    "only ever None": MAIN.replace("loss_scaler = NativeScaler()", "loss_scaler = None"),
    "None or a call of something else": MAIN.replace(
        "        loss_scaler = NativeScaler()\n",
        "        loss_scaler = None\n        if args.amp:\n            loss_scaler = make()\n",
    ),
    "a name bound by a loop": MAIN.replace(
        "        loss_scaler = NativeScaler()\n",
        "        for loss_scaler in (NativeScaler(),):\n            pass\n",
    ),
}


def test_whatever_the_callers_do_not_all_say_stays_unknown(findings, tmp_path):
    for why, main in UNKNOWN_CALLERS.items():
        tree(tmp_path, _files(main=main))
        assert findings() == [], why


def test_editing_the_caller_re_judges_the_callee(findings, tmp_path):
    cache = f"--cache-dir={tmp_path / 'cache'}"
    unknown = UNKNOWN_CALLERS["a name the caller receives"]
    assert findings(cache, files=_files(main=unknown)) == []
    tree(tmp_path, {"main.py": MAIN})  # engine.py and util/misc.py unchanged
    assert codes(findings(cache)) == [("engine.py", 5, "ZG101")]
    tree(tmp_path, {"main.py": unknown})
    assert findings(cache) == []


def test_parallel_output_is_serial_output(findings):
    serial = findings(files=_files())
    assert findings("-j", "2") == serial != []


def test_a_looping_helper_the_caller_passes_other_arguments_is_no_candidate(tmp_path):
    # timm's ``train.py`` builds a scaler and also calls ``create_loader(dataset, ...)``:
    # that helper loops, but no call passes it the scaler, so it is not analysed
    from zerograd_guard.lint.options import DEFAULT_OPTIONS
    from zerograd_guard.lint.project.build import build_project

    loader = """\
        def create_loader(dataset, batch_size):
            batches = []
            for index in range(0, len(dataset), batch_size):
                batches.append(dataset[index : index + batch_size])
            return batches
        """
    main = MAIN.replace(
        "from engine import train_one_epoch",
        "from engine import train_one_epoch\n    from loader import create_loader",
    ).replace(
        "        loss_scaler = NativeScaler()\n",
        "        loss_scaler = NativeScaler()\n        loader = create_loader(loader, 8)\n",
    )
    tree(tmp_path, {**_files(main=main), "loader.py": loader})
    project = build_project(sorted(tmp_path.rglob("*.py")), DEFAULT_OPTIONS)
    assert project.context(tmp_path / "engine.py").candidate  # passed the scaler
    assert not project.context(tmp_path / "loader.py").candidate


def test_a_module_level_instance_used_inside_a_function(findings):
    # cyoon1729/Policy-Gradient-Methods' a2c_test.py: ``agent = A2CAgent(...)`` at module
    # level, the loop in ``def run()`` calls ``agent.update(...)``
    main = """\
    from agent import Agent

    agent = Agent(net)


    def run():
        for episode in range(10):
            agent.update(batch)


    run()
    """
    found = findings(files={"agent.py": AGENT, "main.py": main})
    assert codes(found) == [("main.py", 8, "ZG101")]
    cleared = AGENT.replace(
        "            loss = self.net(batch).mean()",
        "            self.optimizer.zero_grad()\n            loss = self.net(batch).mean()",
    )
    assert cleared != AGENT
    assert findings(files={"agent.py": cleared, "main.py": main}) == []
    # the instance assigned after the function's definition, under ``if __name__``
    later = """\
    from agent import Agent


    def run():
        for episode in range(10):
            agent.update(batch)


    if __name__ == "__main__":
        agent = Agent(net)
        run()
    """
    assert codes(findings(files={"agent.py": AGENT, "main.py": later})) == [("main.py", 6, "ZG101")]


def test_callers_importing_with_a_star(findings):
    # ShangtongZhang/DeepRL: ``examples.py`` gets the agents and ``run_steps`` through
    # ``from deep_rl import *``, a package re-exporting its modules with ``*``
    star_main = AGENT_MAIN.replace(
        "    from agent import Agent\n    from runner import run\n", "    from rl import *\n"
    )
    package = "    from .agent import *\n    from .runner import *\n"
    files = {
        "rl/__init__.py": package,
        "rl/agent.py": AGENT,
        "rl/runner.py": RUNNER,
        "main.py": star_main,
    }
    assert codes(findings(files=files)) == [("rl/runner.py", 3, "ZG101")]


def test_a_star_import_of_the_module_itself(findings):
    star_main = AGENT_MAIN.replace(
        "    from agent import Agent\n    from runner import run\n",
        "    from agent import *\n    from runner import *\n",
    )
    files = {"agent.py": AGENT, "runner.py": RUNNER, "main.py": star_main}
    assert codes(findings(files=files)) == [("runner.py", 3, "ZG101")]
