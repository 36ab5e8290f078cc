"""Lightning (``lightning`` package): automatic and manual optimization."""

from __future__ import annotations

import lightning as L
import torch

from .common import flat_parameters, regression_loader, tiny_mlp


class AutomaticModule(L.LightningModule):
    """Automatic optimization: Lightning clears, accumulates and steps.

    ``broken`` overrides ``optimizer_zero_grad`` with a no-op (a user hook that
    forgot to call ``optimizer.zero_grad()``).
    """

    def __init__(self, broken: bool = False) -> None:
        super().__init__()
        self.net = tiny_mlp()
        self.broken = broken

    def training_step(self, batch: list[torch.Tensor], batch_idx: int) -> torch.Tensor:
        inputs, targets = batch
        return torch.nn.functional.mse_loss(self.net(inputs), targets)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.05)

    def optimizer_zero_grad(
        self, epoch: int, batch_idx: int, optimizer: torch.optim.Optimizer
    ) -> None:
        if not self.broken:
            optimizer.zero_grad()


class ManualModule(AutomaticModule):
    """Manual optimization: ``self.optimizers()`` / ``manual_backward`` / ``step``.

    ``broken`` drops ``zero_grad``.
    """

    def __init__(self, broken: bool = False) -> None:
        super().__init__(broken)
        self.automatic_optimization = False

    def training_step(self, batch: list[torch.Tensor], batch_idx: int) -> torch.Tensor:
        optimizer = self.optimizers()
        inputs, targets = batch
        loss = torch.nn.functional.mse_loss(self.net(inputs), targets)
        if not self.broken:
            optimizer.zero_grad()
        self.manual_backward(loss)
        optimizer.step()
        return loss


class GANModule(L.LightningModule):
    """Two optimizers, manual optimization with ``toggle_optimizer`` (the Lightning GAN recipe)."""

    def __init__(self) -> None:
        super().__init__()
        self.automatic_optimization = False
        self.generator = tiny_mlp(seed=1)
        self.discriminator = torch.nn.Sequential(torch.nn.Linear(1, 4), torch.nn.Linear(4, 1))

    def training_step(self, batch: list[torch.Tensor], batch_idx: int) -> None:
        generator_optimizer, discriminator_optimizer = self.optimizers()
        inputs, targets = batch
        self.toggle_optimizer(discriminator_optimizer)
        fake = self.generator(inputs).detach()
        loss = self.discriminator(fake).mean() - self.discriminator(targets).mean()
        discriminator_optimizer.zero_grad()
        self.manual_backward(loss)
        discriminator_optimizer.step()
        self.untoggle_optimizer(discriminator_optimizer)
        self.toggle_optimizer(generator_optimizer)
        loss = -self.discriminator(self.generator(inputs)).mean()
        generator_optimizer.zero_grad()
        self.manual_backward(loss)
        generator_optimizer.step()
        self.untoggle_optimizer(generator_optimizer)

    def configure_optimizers(self) -> tuple[torch.optim.Optimizer, torch.optim.Optimizer]:
        return (
            torch.optim.Adam(self.generator.parameters()),
            torch.optim.Adam(self.discriminator.parameters()),
        )


def _fit(
    module: L.LightningModule,
    accumulate_grad_batches: int,
    optimizer_steps: int,
    batches: int | None = None,
    **trainer_options: object,
) -> None:
    trainer = L.Trainer(
        accelerator="cpu",
        devices=1,
        max_steps=optimizer_steps,
        max_epochs=1,
        accumulate_grad_batches=accumulate_grad_batches,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
        **trainer_options,
    )
    batches = batches if batches is not None else optimizer_steps * accumulate_grad_batches
    trainer.fit(module, regression_loader(batches))


def train_lightning_automatic(
    accumulate_grad_batches: int, optimizer_steps: int = 4, broken: bool = False
) -> torch.Tensor:
    """Automatic optimization for ``optimizer_steps`` steps; returns the trained weights."""
    module = AutomaticModule(broken)
    _fit(module, accumulate_grad_batches, optimizer_steps)
    return flat_parameters(module)


def train_lightning_bf16_clipped_partial_window() -> None:
    """bf16-mixed, gradient clipping, ``accumulate_grad_batches=3`` over 7 batches:
    two full windows and a last window of 1 that Lightning steps at the epoch end."""
    _fit(
        AutomaticModule(),
        accumulate_grad_batches=3,
        optimizer_steps=-1,
        batches=7,
        precision="bf16-mixed",
        gradient_clip_val=0.5,
    )


def train_lightning_gan(batches: int = 4) -> None:
    """Generator and discriminator steps on each of ``batches`` batches."""
    _fit(GANModule(), accumulate_grad_batches=1, optimizer_steps=-1, batches=batches)


def train_lightning_manual(optimizer_steps: int = 4, broken: bool = False) -> torch.Tensor:
    """Manual optimization, one step per batch; returns the trained weights."""
    module = ManualModule(broken)
    _fit(module, accumulate_grad_batches=1, optimizer_steps=optimizer_steps)
    return flat_parameters(module)
