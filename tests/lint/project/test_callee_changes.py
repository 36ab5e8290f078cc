"""What a function of the run does to a configuration it is handed (``project.summaries``).

llama-recipes' ``train`` tests ``if train_config.use_fp16:`` in its loop (that branch
clears after the step, the other does not) and hands ``train_config`` to ``profile``,
``evaluation`` and a checkpoint saver. A call handed the configuration may change the
flag, so the pairing was unproven and the missing clear silent; those functions only
read it, which project mode now reads from their text.
"""

from __future__ import annotations

from project_helpers import codes

TRAIN = """\
    import torch

    from checkpoint import save_model_checkpoint


    def evaluation(model, train_config, loader):
        total = 0.0
        for step, batch in enumerate(loader):
            if train_config.max_eval_step > 0 and step > train_config.max_eval_step:
                break
            total += model(batch).item()
        return total


    def train(model, loader, optimizer, k, train_config):
        scaler = torch.cuda.amp.GradScaler()
        for epoch in range(train_config.num_epochs):
            for step, batch in enumerate(loader):
                loss = model(batch) / k
                if train_config.use_fp16:
                    scaler.scale(loss).backward()
                    if (step + 1) % k == 0:
                        scaler.step(optimizer)
                        scaler.update()
                        optimizer.zero_grad()
                else:
                    loss.backward()
                    if (step + 1) % k == 0:
                        optimizer.step()
            evaluation(model, train_config, loader)
            save_model_checkpoint(model, optimizer, train_config, epoch=epoch)
    """
SAVER = """\
    import os

    import torch


    def save_model_checkpoint(model, optimizer, cfg, epoch=1):
        folder = os.path.join(cfg.output_dir, cfg.model_name.split("/")[-1])
        print(f"saving to {folder}", cfg)
        torch.save(model.state_dict(), os.path.join(folder, f"model-{epoch}.pt"))
    """


def test_callees_that_only_read_the_configuration_leave_the_flag_proven(findings):
    found = findings(files={"train_utils.py": TRAIN, "checkpoint.py": SAVER})
    assert codes(found) == [("train_utils.py", 27, "ZG101")]
    # per file, the saver is unknown and may change the flag
    assert findings("--no-project") == []


CHANGING_SAVERS = {
    "an attribute assigned": "cfg.use_fp16 = False",
    "the configuration handed to another call": "finalize(cfg)",
    "a method called on it": "cfg.update(epoch=epoch)",
    "the flag's value handed on": "finalize(cfg.use_fp16)",
    "the configuration stored": "REGISTRY.append(cfg)",
    "an alias of it": "other = cfg",
    "setattr": "setattr(cfg, 'use_fp16', False)",
}


def _saver(*lines: str) -> str:
    return SAVER.rstrip(" ") + "".join(f"        {line}\n" for line in lines)


def test_a_callee_that_may_change_the_flag_leaves_it_unproven(findings):
    for why, line in CHANGING_SAVERS.items():
        found = findings(files={"train_utils.py": TRAIN, "checkpoint.py": _saver(line)})
        assert found == [], why


def test_changing_another_attribute_leaves_the_flag_proven(findings):
    saver = _saver("cfg.last_epoch = epoch", "log(cfg.output_dir)")
    found = findings(files={"train_utils.py": TRAIN, "checkpoint.py": saver})
    assert codes(found) == [("train_utils.py", 27, "ZG101")]


def test_a_saver_that_parses_is_judged(findings):
    # the variants above differ from a flagged project in one line each
    found = findings(files={"train_utils.py": TRAIN, "checkpoint.py": _saver("pass")})
    assert codes(found) == [("train_utils.py", 27, "ZG101")]


def test_a_callee_outside_the_run_stays_unknown(findings):
    train = TRAIN.replace("from checkpoint import", "from somewhere_else import")
    assert findings(files={"train_utils.py": train, "checkpoint.py": SAVER}) == []
