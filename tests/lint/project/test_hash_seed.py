"""The output does not depend on the interpreter's hash seed (set and dict orders).

Found by session 22's image-restoration probe on knazeri/edge-connect's shape: two
backwards of another module's method reported at one call, and which one the message
named followed the order the flow check met them in (PYTHONHASHSEED 2 and 4 named the
discriminator's backward, whose loss is detached from the generator)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

MODELS = """\
    import torch
    import torch.nn as nn
    import torch.optim as optim


    class EdgeModel(nn.Module):
        def __init__(self):
            super().__init__()
            generator = nn.Linear(4, 4)
            discriminator = nn.Linear(4, 1)
            self.add_module("generator", generator)
            self.add_module("discriminator", discriminator)
            self.gen_optimizer = optim.Adam(params=generator.parameters())
            self.dis_optimizer = optim.Adam(params=discriminator.parameters())

        def process(self, images):
            self.dis_optimizer.zero_grad()
            outputs = self.generator(images)
            fake = self.discriminator(outputs.detach()).mean()
            dis_loss = self.discriminator(images).mean() - fake
            gen_loss = (outputs - images).abs().mean() - self.discriminator(outputs).mean()
            return outputs, gen_loss, dis_loss

        def update(self, gen_loss=None, dis_loss=None):
            if dis_loss is not None:
                dis_loss.backward()
            self.dis_optimizer.step()
            if gen_loss is not None:
                gen_loss.backward()
            self.gen_optimizer.step()
    """
LOOP = """\
    from .models import EdgeModel


    class EdgeConnect:
        def __init__(self, config):
            self.edge_model = EdgeModel()

        def train(self, loader):
            for images in loader:
                outputs, gen_loss, dis_loss = self.edge_model.process(images)
                self.edge_model.update(gen_loss, dis_loss)
    """


def test_the_message_is_the_same_under_every_hash_seed(tmp_path: Path) -> None:
    package = tmp_path / "src"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "models.py").write_text(textwrap.dedent(MODELS))
    (package / "edge_connect.py").write_text(textwrap.dedent(LOOP))
    outputs = set()
    for seed in ("0", "1", "2", "3", "4"):
        run = subprocess.run(
            [sys.executable, "-m", "zerograd_guard.lint", "src", "--no-cache", "-q"],
            cwd=tmp_path,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 1, run.stderr
        outputs.add(run.stdout)
    assert len(outputs) == 1, outputs
    (output,) = outputs
    assert "src/edge_connect.py:11:" in output and "ZG101" in output
    assert "the backward() at models.py:29" in output, output  # gen_loss.backward()
