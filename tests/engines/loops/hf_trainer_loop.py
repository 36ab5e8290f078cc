"""Hugging Face ``transformers.Trainer`` on a tiny config-built BERT (no downloads)."""

from __future__ import annotations

import os
from pathlib import Path

import torch
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

from .common import flat_parameters

VOCAB = 32
SEQUENCE = 8


def tiny_bert() -> BertForSequenceClassification:
    """One layer, hidden size 16, randomly initialised from a config."""
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=VOCAB,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=SEQUENCE,
        num_labels=2,
    )
    return BertForSequenceClassification(config)


def fake_dataset(size: int) -> list[dict[str, torch.Tensor]]:
    generator = torch.Generator().manual_seed(0)
    return [
        {
            "input_ids": torch.randint(0, VOCAB, (SEQUENCE,), generator=generator),
            "labels": torch.tensor(index % 2),
        }
        for index in range(size)
    ]


def _disable(module_or_optimizer: object) -> None:
    """Replace an object's ``zero_grad`` with a no-op (the bug a test must catch)."""
    module_or_optimizer.zero_grad = lambda *args, **kwargs: None  # type: ignore[attr-defined]


class _ClearlessTrainer(Trainer):
    """A Trainer whose model and optimizer ``zero_grad`` do nothing."""

    def create_optimizer(self, model: torch.nn.Module | None = None) -> torch.optim.Optimizer:
        optimizer = super().create_optimizer(model)
        _disable(optimizer)
        _disable(self.model)
        return optimizer


def train_hf_trainer(
    output_dir: Path,
    gradient_accumulation_steps: int,
    optimizer_steps: int = 3,
    broken: bool = False,
) -> tuple[int, torch.Tensor]:
    """Train ``optimizer_steps`` steps; returns the global step and the trained weights."""
    batch_size = 2
    arguments = TrainingArguments(
        output_dir=os.fspath(output_dir),
        per_device_train_batch_size=batch_size,
        gradient_accumulation_steps=gradient_accumulation_steps,
        max_steps=optimizer_steps,
        learning_rate=1e-3,
        report_to="none",
        save_strategy="no",
        logging_strategy="no",
        disable_tqdm=True,
        use_cpu=True,
        dataloader_num_workers=0,
    )
    trainer_class = _ClearlessTrainer if broken else Trainer
    dataset = fake_dataset(batch_size * gradient_accumulation_steps * optimizer_steps)
    trainer = trainer_class(model=tiny_bert(), args=arguments, train_dataset=dataset)
    trainer.train()
    return trainer.state.global_step, flat_parameters(trainer.model)
