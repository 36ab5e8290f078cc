# Source: modelscope/DiffSynth-Studio diffsynth/diffusion/runner.py @ 4ec4d9c20a737f608f298b35a120d46096e21713 (Apache-2.0), before PR https://github.com/modelscope/DiffSynth-Studio/pull/1404 (its title, translated: "fix the gradient accumulation problem caused by the wrong order of optimizer.zero_grad() in the training loop"), plus the launch from examples/flux/model_training/train.py at the same commit. Excerpt: launch_data_process_task trimmed; imports made absolute. Inside accelerator.accumulate(model) the prepared optimizer's zero_grad() runs for real on every sync micro-batch, and it runs before the backward: with gradient_accumulation_steps > 1 each real step sees only the last micro-batch's gradients.
import accelerate
import os, torch
from tqdm import tqdm
from accelerate import Accelerator
from diffsynth.diffusion.training_module import DiffusionTrainingModule
from diffsynth.diffusion.logger import ModelLogger


def launch_training_task(
    accelerator: Accelerator,
    dataset: torch.utils.data.Dataset,
    model: DiffusionTrainingModule,
    model_logger: ModelLogger,
    learning_rate: float = 1e-5,
    weight_decay: float = 1e-2,
    num_workers: int = 1,
    save_steps: int = None,
    num_epochs: int = 1,
    args = None,
):
    if args is not None:
        learning_rate = args.learning_rate
        weight_decay = args.weight_decay
        num_workers = args.dataset_num_workers
        save_steps = args.save_steps
        num_epochs = args.num_epochs
    
    optimizer = torch.optim.AdamW(model.trainable_modules(), lr=learning_rate, weight_decay=weight_decay)
    scheduler = torch.optim.lr_scheduler.ConstantLR(optimizer)
    dataloader = torch.utils.data.DataLoader(dataset, shuffle=True, collate_fn=lambda x: x[0], num_workers=num_workers)
    model.to(device=accelerator.device)
    model, optimizer, dataloader, scheduler = accelerator.prepare(model, optimizer, dataloader, scheduler)
    initialize_deepspeed_gradient_checkpointing(accelerator)
    for epoch_id in range(num_epochs):
        for data in tqdm(dataloader):
            with accelerator.accumulate(model):
                optimizer.zero_grad()  # expect: ZG103
                if dataset.load_from_cache:
                    loss = model({}, inputs=data)
                else:
                    loss = model(data)
                accelerator.backward(loss)
                optimizer.step()
                model_logger.on_step_end(accelerator, model, save_steps, loss=loss)
                scheduler.step()
        if save_steps is None:
            model_logger.on_epoch_end(accelerator, model, epoch_id)
    model_logger.on_training_end(accelerator, model, save_steps)


def initialize_deepspeed_gradient_checkpointing(accelerator: Accelerator):
    if getattr(accelerator.state, "deepspeed_plugin", None) is not None:
        ds_config = accelerator.state.deepspeed_plugin.deepspeed_config
        if "activation_checkpointing" in ds_config:
            import deepspeed
            act_config = ds_config["activation_checkpointing"]
            deepspeed.checkpointing.configure(
                mpu_=None, 
                partition_activations=act_config.get("partition_activations", False),
                checkpoint_in_cpu=act_config.get("cpu_checkpointing", False),
                contiguous_checkpointing=act_config.get("contiguous_memory_optimization", False)
            )
        else:
            print("Do not find activation_checkpointing config in deepspeed config, skip initializing deepspeed gradient checkpointing.")


# ---- examples/flux/model_training/train.py @ 4ec4d9c20a737f608f298b35a120d46096e21713: how the training task is launched (dataset, model and logger arguments trimmed) ----
if __name__ == "__main__":
    parser = flux_parser()
    args = parser.parse_args()
    accelerator = accelerate.Accelerator(
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        kwargs_handlers=[accelerate.DistributedDataParallelKwargs(find_unused_parameters=args.find_unused_parameters)],
    )
    dataset = UnifiedDataset(base_path=args.dataset_base_path, metadata_path=args.dataset_metadata_path)
    model = FluxTrainingModule(model_paths=args.model_paths, device=accelerator.device)
    model_logger = ModelLogger(args.output_path)
    launch_training_task(accelerator, dataset, model, model_logger, args=args)
