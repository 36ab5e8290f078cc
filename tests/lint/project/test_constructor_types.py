"""An attribute's class read from what every constructor call passes
(``project.call_sites`` for ``Cls.__init__``).

OfflineRL-Kit's layout: ``run_sac.py`` builds the optimizers and a ``SACPolicy`` (whose
``learn()`` clears, backpropagates and steps) and hands the policy to
``MFPolicyTrainer(policy=policy, ...)`` of another module, whose loop only calls
``self.policy.learn(batch)``. Nothing in the trainer's module says what the policy is.
"""

from __future__ import annotations

from project_helpers import codes, tree

POLICY = """\
    import torch


    class SACPolicy(torch.nn.Module):
        def __init__(self, critic, critic_optim):
            super().__init__()
            self.critic = critic
            self.critic_optim = critic_optim

        def learn(self, batch):
            obs, target = batch
            loss = ((self.critic(obs) - target) ** 2).mean()
            self.critic_optim.zero_grad()
            loss.backward()
            self.critic_optim.step()
            return loss.item()
    """
BUGGY_POLICY = POLICY.replace("            self.critic_optim.zero_grad()\n", "")
TRAINER = """\
    class MFPolicyTrainer:
        def __init__(self, policy, buffer, epochs):
            self.policy = policy
            self.buffer = buffer
            self._epoch = epochs

        def train(self):
            for e in range(self._epoch):
                for it in range(1000):
                    batch = self.buffer.sample()
                    self.policy.learn(batch)
    """
RUN = """\
    import torch
    from policy import SACPolicy
    from trainer import MFPolicyTrainer


    def train(buffer):
        critic = torch.nn.Linear(4, 1)
        critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
        policy = SACPolicy(critic, critic_optim)
        policy_trainer = MFPolicyTrainer(policy=policy, buffer=buffer, epochs=10)
        policy_trainer.train()
    """


def _files(policy: str = BUGGY_POLICY, trainer: str = TRAINER, run: str = RUN) -> dict[str, str]:
    return {"policy.py": policy, "trainer.py": trainer, "run.py": run}


def test_the_policy_every_constructor_call_passes_steps_without_a_clear(findings):
    found = findings(files=_files())
    assert codes(found) == [("trainer.py", 11, "ZG101")]
    assert "(in `SACPolicy.learn`, called at line 11)" in found[0][3]


def test_the_policy_that_clears_before_its_backward_is_correct(findings):
    assert findings(files=_files(policy=POLICY)) == []


def test_passed_by_position_or_built_in_place(findings):
    by_position = RUN.replace("policy=policy, buffer=buffer, epochs=10", "policy, buffer, 10")
    assert codes(findings(files=_files(run=by_position))) == [("trainer.py", 11, "ZG101")]
    in_place = RUN.replace("policy=policy,", "policy=SACPolicy(critic, critic_optim),")
    assert codes(findings(files=_files(run=in_place))) == [("trainer.py", 11, "ZG101")]


def test_built_in_the_trainers_own_module(findings):
    trainer = (
        "    from policy import SACPolicy\n\n\n"
        + TRAINER
        + "\n\n    def main(critic, critic_optim, buffer):\n"
        + "        MFPolicyTrainer(SACPolicy(critic, critic_optim), buffer, 3).train()\n"
    )
    found = findings(files={"policy.py": BUGGY_POLICY, "trainer.py": trainer})
    assert codes(found) == [("trainer.py", 14, "ZG101")]


UNKNOWN_CALLERS = {
    "a name the caller receives": RUN.replace("policy=policy,", "policy=buffer.policy,"),
    "the argument left to a default": RUN.replace("policy=policy, ", ""),
    "the class handed on as a value": RUN.replace(
        "policy_trainer = MFPolicyTrainer(",
        "make = MFPolicyTrainer\n        policy_trainer = make(",
    ),
}


def test_a_subclass_is_another_configuration_the_known_calls_stand_beside(findings):
    # a subclass of the trainer (built nowhere in the run, or handing the base a value
    # of its own) is another configuration, as an unknown call's argument is: the
    # configuration the known calls build is judged
    for subclass in (
        "class OwnTrainer(MFPolicyTrainer):\n        pass\n",
        "class OwnTrainer(MFPolicyTrainer):\n"
        "        def __init__(self, buffer):\n"
        "            super().__init__(make_policy(), buffer, 3)\n",
    ):
        run = RUN + "\n\n    " + subclass
        assert codes(findings(files=_files(run=run))) == [("trainer.py", 11, "ZG101")], subclass


def test_a_class_named_in_annotations_elsewhere_is_not_handed_on(findings):
    # rlkit's launcher_util: ``def run_experiment(algo: MetaRLAlgorithm)``, a type only,
    # does not hand the class to anything that could build it with other arguments
    report = """\
        from trainer import MFPolicyTrainer


        def report(trainer: MFPolicyTrainer) -> MFPolicyTrainer:
            epochs: MFPolicyTrainer = trainer
            return epochs
        """
    files = {**_files(), "report.py": report}
    assert codes(findings(files=files)) == [("trainer.py", 11, "ZG101")]


def test_whatever_the_constructor_calls_do_not_all_say_stays_unknown(findings, tmp_path):
    for why, run in UNKNOWN_CALLERS.items():
        tree(tmp_path, _files(run=run))
        assert findings() == [], why


def test_an_attribute_the_constructor_does_not_store_the_parameter_in_stays_unknown(findings):
    wrapped = TRAINER.replace("self.policy = policy", "self.policy = wrap(policy)")
    assert findings(files=_files(trainer=wrapped)) == []
    annotated = "    from policy import SACPolicy\n\n\n" + TRAINER.replace(
        "def __init__(self, policy,", "def __init__(self, policy: SACPolicy,"
    )
    unknown = UNKNOWN_CALLERS["a name the caller receives"]
    found = findings(files=_files(trainer=annotated, run=unknown))
    assert codes(found) == [("trainer.py", 14, "ZG101")]  # the annotation says it


BASE = """\
    class BasePolicy:
        def learn(self, batch):
            raise NotImplementedError
    """


def test_an_abstract_annotation_gives_way_to_the_classes_the_callers_pass(findings):
    # OfflineRL-Kit: ``policy: BasePolicy`` in the trainer, a concrete policy per script
    policy = BUGGY_POLICY.replace(
        "import torch\n", "import torch\n    from base import BasePolicy\n"
    )
    policy = policy.replace("class SACPolicy(torch.nn.Module):", "class SACPolicy(BasePolicy):")
    trainer = "    from base import BasePolicy\n\n\n" + TRAINER.replace(
        "def __init__(self, policy,", "def __init__(self, policy: BasePolicy,"
    )
    files = {**_files(policy=policy, trainer=trainer), "base.py": BASE}
    assert codes(findings(files=files)) == [("trainer.py", 14, "ZG101")]


def test_each_of_many_policy_classes_is_judged(findings, tmp_path):
    # one script per algorithm, each building its own policy class (six in OfflineRL-Kit);
    # only the last one forgets its clear
    files = {"trainer.py": TRAINER}
    for index in range(7):
        policy = (POLICY if index < 6 else BUGGY_POLICY).replace("SACPolicy", f"Policy{index}")
        files[f"policy{index}.py"] = policy
        files[f"run{index}.py"] = (
            RUN.replace("from policy import SACPolicy", "")
            .replace("SACPolicy", f"Policy{index}")
            .replace(
                "import torch\n", f"import torch\n    from policy{index} import Policy{index}\n"
            )
        )
    assert codes(findings(files=files)) == [("trainer.py", 11, "ZG101")]


def test_editing_the_caller_re_judges_the_trainer(findings, tmp_path):
    cache = f"--cache-dir={tmp_path / 'cache'}"
    unknown = UNKNOWN_CALLERS["a name the caller receives"]
    assert findings(cache, files=_files(run=unknown)) == []
    tree(tmp_path, {"run.py": RUN})  # trainer.py and policy.py unchanged
    assert codes(findings(cache)) == [("trainer.py", 11, "ZG101")]
    tree(tmp_path, {"run.py": unknown})
    assert findings(cache) == []


def test_the_fast_path_keeps_the_trainer_class(findings):
    # a file long enough to be split (its class too): the trainer holds no backward, no
    # optimizer and no import; only what its constructor's callers pass makes it matter
    padding = "".join(
        f"\n\n    def pad_{i}(x):\n        return x + {i}  # long enough to split\n"
        for i in range(400)
    )
    methods = "".join(
        f"\n        def helper_{i}(self, x):\n            return x * {i}  # long enough\n"
        for i in range(60)
    )
    probe = "\n\n    def probe(model, x):\n        model(x).sum().backward()\n"
    files = _files(trainer=TRAINER + methods + probe + padding)
    fast = findings(files=files)
    assert fast == findings("--no-fast-path") == [fast[0]]
    assert codes(fast) == [("trainer.py", 11, "ZG101")]


def test_parallel_output_is_serial_output(findings):
    serial = findings(files=_files())
    assert findings("-j", "2") == serial != []
