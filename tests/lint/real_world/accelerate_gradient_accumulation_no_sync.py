# Source: huggingface/accelerate examples/by_feature/gradient_accumulation.py @ 06e0d75bd4884b2a598e5406a8f786b7a2999b83 (Apache-2.0). Excerpt: dataloader construction, evaluation and argparse trimmed; accumulation written by hand with accelerator.no_sync, step and clear together on the sync micro-batch.
import argparse
import os

import torch
from torch.optim import AdamW
from torch.utils.data import DataLoader

import evaluate
from accelerate import Accelerator, DistributedType
from datasets import load_dataset
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup, set_seed


MAX_GPU_BATCH_SIZE = 16
EVAL_BATCH_SIZE = 32


def training_function(config, args):
    # Initialize accelerator
    accelerator = Accelerator(cpu=args.cpu, mixed_precision=args.mixed_precision)
    lr = config["lr"]
    num_epochs = int(config["num_epochs"])
    correct_bias = config["correct_bias"]
    seed = int(config["seed"])
    batch_size = int(config["batch_size"])
    # New Code #
    gradient_accumulation_steps = int(args.gradient_accumulation_steps)

    set_seed(seed)
    train_dataloader, eval_dataloader = get_dataloaders(accelerator, batch_size)
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", return_dict=True)
    model = model.to(accelerator.device)

    # Instantiate optimizer
    optimizer = AdamW(params=model.parameters(), lr=lr, capturable=correct_bias)

    # Instantiate scheduler
    lr_scheduler = get_linear_schedule_with_warmup(
        optimizer=optimizer,
        num_warmup_steps=100,
        num_training_steps=(len(train_dataloader) * num_epochs) // gradient_accumulation_steps,
    )

    model, optimizer, train_dataloader, eval_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader, lr_scheduler
    )

    # Now we train the model
    for epoch in range(num_epochs):
        model.train()
        for step, batch in enumerate(train_dataloader):
            batch.to(accelerator.device)
            # New code #
            # We use the new `no_sync` context manager to prevent gradient averaging
            # until we want to at the proper step if we happen to be in a distributed setup
            # otherwise it does nothing
            if step % gradient_accumulation_steps != 0:
                # Accumulate gradients locally
                with accelerator.no_sync(model):
                    output = model(**batch)
                    loss = output.loss / gradient_accumulation_steps
                    accelerator.backward(loss)
            else:
                # Sync gradients and step
                output = model(**batch)
                loss = output.loss / gradient_accumulation_steps
                accelerator.backward(loss)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()

        model.eval()
        for step, batch in enumerate(eval_dataloader):
            batch.to(accelerator.device)
            with torch.no_grad():
                outputs = model(**batch)


def main():
    parser = argparse.ArgumentParser(description="Simple example of training script.")
    args = parser.parse_args()
    config = {"lr": 2e-5, "num_epochs": 3, "correct_bias": True, "seed": 42, "batch_size": 16}
    training_function(config, args)


if __name__ == "__main__":
    main()
