"""Project mode on real multi-file training code (``real_world_projects/``, one folder
per repository): every ``# expect:`` mark is reported and nothing else; bugs injected
into one file are found through the other file or the framework that runs it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from zerograd_guard.lint.cli import main

CORPUS = Path(__file__).parent / "real_world_projects"
PROJECTS = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())
_EXPECT = re.compile(r"#\s*expect:\s*(ZG\d{3}(?:\s*,\s*ZG\d{3})*)")

# (project, file, text replaced, replacement) -> the findings that must appear, each as
# (file, reported line, code); the line is named by text it contains, or, indented, by
# the whole line (where the same statement appears at two depths)
MUTANTS = {
    # Lightning runs the base task's training_step per batch; it hands the batch to the
    # _training_step each model's task overrides (in the base's module and another)
    ("singing_vocoders", "training/base_task_gan.py", "        opt_g.zero_grad()\n", ""): {
        ("training/base_task_gan.py", "self.manual_backward(Gloss)", "ZG101"),
    },
    (
        "singing_vocoders",
        "training/nsf_HiFigan_task.py",
        "        opt_g.zero_grad()  # clean generator grad\n",
        "",
    ): {
        ("training/nsf_HiFigan_task.py", "self.manual_backward(Gloss)", "ZG101"),
    },
    (
        "singing_vocoders",
        "training/nsf_HiFigan_task.py",
        "        opt_d.zero_grad()  # clean discriminator grad\n",
        "",
    ): {
        ("training/nsf_HiFigan_task.py", "self.manual_backward(Dloss)", "ZG101"),
    },
    # the AWP helper's own clear runs only under the AWP flag: without the loop's clear
    # the loop's backward adds onto what its last step applied
    ("feedback_ell_awp", "train.py", "                optimizer.zero_grad()\n", ""): {
        ("train.py", "scaler.scale(loss).backward()", "ZG101"),
    },
    ("detr", "engine.py", "        optimizer.zero_grad()\n", ""): {
        ("engine.py", "losses.backward()", "ZG101"),
    },
    ("ignite_dcgan", "dcgan.py", "        netG.zero_grad()\n", ""): {
        ("dcgan.py", "errG.backward()", "ZG101"),
    },
    ("torchvision_detection", "engine.py", "        optimizer.zero_grad()\n", ""): {
        ("engine.py", "scaler.scale(losses).backward()", "ZG101"),
        ("engine.py", "            losses.backward()", "ZG101"),
    },
    # the generator's loss runs through the discriminator (VQGanVAE.forward in the other
    # module): without the discriminator's clear, that backward leaks into its step
    (
        "muse_maskgit",
        "muse_maskgit_pytorch/trainers.py",
        "            self.discr_optim.zero_grad()\n",
        "",
    ): {
        (
            "muse_maskgit_pytorch/trainers.py",
            "            self.accelerator.backward(loss / self.grad_accum_every)",
            "ZG101",
        ),
        (
            "muse_maskgit_pytorch/trainers.py",
            "                self.accelerator.backward(loss / self.grad_accum_every)",
            "ZG101",
        ),
    },
    # mmengine runs train_step once per iteration: update_params clears, a bare
    # backward and step do not
    (
        "mmagic_gan",
        "mmagic/models/base_models/base_gan.py",
        "        loss, log_vars = self._get_disc_loss(data_dict_)\n\n"
        "        optimizer_wrapper.update_params(loss)\n",
        "        loss, log_vars = self._get_disc_loss(data_dict_)\n\n"
        "        optimizer_wrapper.backward(loss)\n        optimizer_wrapper.step()\n",
    ): {
        ("mmagic/models/base_models/base_gan.py", "optimizer_wrapper.backward(loss)", "ZG101"),
    },
    # train(args, loader, generator, discriminator, g_optim, d_optim, ...) clears with
    # module clears; its one caller builds each optimizer over the module it passes
    # beside it, so generator.zero_grad() does not clear d_optim
    (
        "stylegan2",
        "train.py",
        "        discriminator.zero_grad()\n        d_loss.backward()\n",
        "        d_loss.backward()\n",
    ): {
        ("train.py", "        d_loss.backward()", "ZG101"),
    },
    (
        "stylegan2",
        "train.py",
        "        generator.zero_grad()\n        g_loss.backward()\n",
        "        g_loss.backward()\n",
    ): {
        ("train.py", "        g_loss.backward()", "ZG101"),
    },
    # main.py builds TD3.TD3, OurDDPG.DDPG or DDPG.DDPG in the arms of one ``if`` and
    # calls ``policy.train`` once per step: every class the branches build is judged
    ("td3", "DDPG.py", "\t\tself.critic_optimizer.zero_grad()\n", ""): {
        ("main.py", "policy.train(replay_buffer, args.batch_size)", "ZG101"),
    },
    ("td3", "OurDDPG.py", "\t\tself.actor_optimizer.zero_grad()\n", ""): {
        ("main.py", "policy.train(replay_buffer, args.batch_size)", "ZG101"),
    },
    ("td3", "TD3.py", "\t\tself.critic_optimizer.zero_grad()\n", ""): {
        ("main.py", "policy.train(replay_buffer, args.batch_size)", "ZG101"),
    },
    # main.py hands the scaler it builds (utils.NativeScalerWithGradNormCount: backward
    # and step in its __call__) to engine.train_one_epoch, whose AMP branch only calls it
    (
        "convnext",
        "engine.py",
        "            if (data_iter_step + 1) % update_freq == 0:\n"
        "                optimizer.zero_grad()\n",
        "            if (data_iter_step + 1) % update_freq == 0:\n",
    ): {
        ("engine.py", "grad_norm = loss_scaler(loss, optimizer", "ZG101"),
    },
    # train_one_epoch's loop clears after ``if not need_update: continue``; the scaler
    # (timm.utils.NativeScaler, passed by main) steps under its ``need_update``
    (
        "timm_train",
        "train.py",
        "        num_updates += 1\n        optimizer.zero_grad()\n",
        "        num_updates += 1\n",
    ): {
        ("train.py", "                loss_scaler(", "ZG101"),
        ("train.py", "                _loss.backward(create_graph=second_order)", "ZG101"),
    },
    # train tests ``if train_config.use_fp16:`` in its loop and hands train_config only
    # to functions of the run that read it (profile, evaluation, the checkpoint savers)
    (
        "llama_recipes",
        "src/llama_cookbook/utils/train_utils.py",
        "                            scaler.update()\n"
        "                            optimizer.zero_grad()\n",
        "                            scaler.update()\n",
    ): {
        ("src/llama_cookbook/utils/train_utils.py", "scaler.scale(loss).backward()", "ZG101"),
    },
    (
        "llama_recipes",
        "src/llama_cookbook/utils/train_utils.py",
        "                            optimizer.step()\n"
        "                            optimizer.zero_grad()\n",
        "                            optimizer.step()\n",
    ): {
        (
            "src/llama_cookbook/utils/train_utils.py",
            "                        loss.backward()",
            "ZG101",
        ),
    },
    # every agent inherits the helper from another module and calls it from a learning
    # method its episode loop calls; without the helper's clear, each such call is found
    (
        "p_christ_rl",
        "agents/Base_Agent.py",
        "        optimizer.zero_grad() #reset gradients to 0\n",
        "",
    ): {
        ("agents/DQN_agents/DQN.py", "step(self.q_network_optimizer", "ZG101"),
        # one finding per backward: the actor's call (the message names its optimizer)
        ("agents/actor_critic_agents/DDPG.py", "step(self.actor_optimizer", "ZG101"),
        ("agents/actor_critic_agents/SAC.py", "step(self.actor_optimizer", "ZG101"),
    },
}


def _names(line_text: str, line: str) -> bool:
    return line.rstrip() == line_text if line_text.startswith(" ") else line_text in line


def _lint(root: Path, monkeypatch, capsys) -> set[tuple[str, int, str]]:
    monkeypatch.chdir(root)
    capsys.readouterr()
    code = main(["--no-cache", "-j", "1", "--format", "json", "."])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    return {(item["path"], item["line"], item["code"]) for item in json.loads(captured.out)}


def _expected(root: Path) -> set[tuple[str, int, str]]:
    found = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = _EXPECT.search(line)
            if match:
                relative = path.relative_to(root).as_posix()
                found.update((relative, number, code.strip()) for code in match[1].split(","))
    return found


def test_every_project_has_a_source_header():
    for path in CORPUS.rglob("*.py"):
        assert path.read_text().startswith("# SOURCE: "), path


@pytest.mark.parametrize("project", PROJECTS)
def test_project_matches_its_marks(project, tmp_path, monkeypatch, capsys):
    root = tmp_path / project
    shutil.copytree(CORPUS / project, root)
    assert _lint(root, monkeypatch, capsys) == _expected(root)


@pytest.mark.parametrize("mutant", sorted(MUTANTS), ids=lambda m: f"{m[0]}-{m[1]}")
def test_injected_bug_is_found(mutant, tmp_path, monkeypatch, capsys):
    project, file, replaced, replacement = mutant
    root = tmp_path / project
    shutil.copytree(CORPUS / project, root)
    text = (root / file).read_text()
    assert text.count(replaced) == 1
    (root / file).write_text(text.replace(replaced, replacement))
    expected = set()
    for reported_file, line_text, code in MUTANTS[mutant]:
        lines = (root / reported_file).read_text().splitlines()
        found = [number for number, line in enumerate(lines, 1) if _names(line_text, line)]
        assert len(found) == 1, (reported_file, line_text)
        expected.add((reported_file, found[0], code))
    assert _lint(root, monkeypatch, capsys) == expected
