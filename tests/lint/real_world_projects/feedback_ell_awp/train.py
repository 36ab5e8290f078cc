# SOURCE: rohitsingh02/kaggle-feedback-english-language-learning-1st-place-solution@375579ae01f44ff7ebb06c402e401c02441a791f src_rohit/train.py (MIT; excerpt)
# The training loop of train_loop(), from the AWP set-up to the step (model, data and
# optimizer construction, logging and validation trimmed; the function wraps the
# excerpt). AWP's attack_backward perturbs the weights along their gradients, runs
# the adversarial backward after clearing the loop's own optimizer (self.optimizer is
# the optimizer handed to AWP) and restores the weights; the loop clears after each
# step. Correct: no finding (25 false ZG101s on this shape before session 24).
import torch
from awp import AWP


def train_loop(cfg, model, optimizer, scheduler, train_loader, collate, device):
    scaler = torch.cuda.amp.GradScaler(enabled=cfg.environment.mixed_precision)
    awp = AWP(model,
        optimizer,
        adv_lr=0.0001,
        adv_eps=0.001,
        start_epoch= 2, #(cfg.training.epochs * (total_steps // cfg.training.batch_size))/cfg.training.epochs,
        scaler=scaler
    )

    criterion = nn.SmoothL1Loss(reduction='mean') # RMSELoss(reduction="mean")
    best_score = np.inf

    step_val = 0
    for epoch in range(cfg.training.epochs):
        cfg.epoch = epoch
        start_time = time.time()
        
        model.train()
        losses = utils.AverageMeter()
        start = end = time.time()
        global_step = 0
        for step, data_dict in enumerate(train_loader):
            if step_val: step_val += 1
            inputs = collate(data_dict)
            inputs = cfg.CustomDataset.batch_to_device(inputs, device)
            batch_size = data_dict['target'].size(0)
            with torch.cuda.amp.autocast(enabled=cfg.environment.mixed_precision):
                output_dict = model(inputs)
                loss = output_dict["loss"]

            if hasattr(cfg, "awp") and cfg.awp.enable and epoch >= cfg.awp.start_epoch:
                awp.attack_backward(inputs, step_val)


            if cfg.training.grad_accumulation > 1:
                loss = loss / cfg.training.grad_accumulation
            losses.update(loss.item(), batch_size)
            scaler.scale(loss).backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.training.max_grad_norm)
            if (step + 1) % cfg.training.grad_accumulation == 0:
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
                global_step += 1
                if cfg.training.batch_scheduler:
                    scheduler.step()
