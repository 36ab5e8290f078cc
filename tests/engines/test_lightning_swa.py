"""Lightning's ``StochasticWeightAveraging``: a real bug the guard found, kept reported.

Its extra batch-norm epoch skips the backward pass but still calls ``optimizer.step()``,
re-applying the last gradients to the averaged weights (ZG102, repeated step).
"""

from __future__ import annotations

import warnings
from types import ModuleType

import lightning as L
import torch
from lightning.pytorch.callbacks import StochasticWeightAveraging

from .loops.common import FEATURES, regression_loader


class BatchNormModule(L.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(FEATURES, 8),
            torch.nn.BatchNorm1d(8),
            torch.nn.ReLU(),
            torch.nn.Linear(8, 1),
        )

    def training_step(self, batch: list[torch.Tensor], batch_idx: int) -> torch.Tensor:
        inputs, targets = batch
        return torch.nn.functional.mse_loss(self.net(inputs), targets)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.05)


def test_swa_batch_norm_epoch_step_is_reported(runtime: ModuleType) -> None:
    trainer = L.Trainer(
        accelerator="cpu",
        devices=1,
        max_epochs=2,
        callbacks=[StochasticWeightAveraging(swa_lrs=0.01, swa_epoch_start=1)],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        num_sanity_val_steps=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Lightning's own advice (num_workers, ...)
        with runtime.guard("warn") as session:
            trainer.fit(BatchNormModule(), regression_loader(3))
    codes = {finding.code for finding in session.report.violations}
    assert "ZG102" in codes, [finding.render() for finding in session.report.violations]
