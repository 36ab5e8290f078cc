# Source: yastrebksv/TennisCourtDetector base_trainer.py @ 582d2be1b93c81bb0800f48678d9d3fc749dbabd (licence: see repository), before the fix for https://github.com/yastrebksv/TennisCourtDetector/issues/7 ("Why there is no optimizer.zero_grad() in base_trainer.py?" - "You are right, thanks! I fixed it."). Complete file.
import torch.nn.functional as F
import numpy as np


def train(model, train_loader, optimizer, criterion, device, epoch, max_iters=1000):
    model.train()
    losses = []
    max_iters = min(max_iters, len(train_loader))

    for iter_id, batch in enumerate(train_loader):
        out = model(batch[0].float().to(device))
        gt_hm_hp = batch[1].float().to(device)
        loss = criterion(F.sigmoid(out), gt_hm_hp)

        loss.backward()  # expect: ZG101
        optimizer.step()
        print('train, epoch = {}, iter_id = {}/{}, loss = {}'.format(epoch, iter_id, max_iters, loss.item()))
        losses.append(loss.item())
        if iter_id > max_iters:
            break

    return np.mean(losses)
