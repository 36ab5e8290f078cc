# Source: wenet-e2e/wekws kws/utils/executor.py @ 24a0de00b84ef51bbad5b646877a47630f93510f (Apache-2.0), before the fix of issue https://github.com/wenet-e2e/wekws/issues/72 (PR https://github.com/wenet-e2e/wekws/pull/73 "add optimizer.zero_grad()"). Excerpt: licence header and cv() trimmed.
import logging

import torch
from torch.nn.utils import clip_grad_norm_

from kws.model.max_pooling import max_pooling_loss
from kws.model.max_pooling_RHE import max_pooling_RHE_binary_CE
from kws.model.ce import cross_entropy


criterion_dict = {'CE': cross_entropy, 
                  'max_pooling': max_pooling_loss,
                  'RHE': max_pooling_RHE_binary_CE}

class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, device, writer, args):
        ''' Train one epoch
        '''
        model.train()
        clip = args.get('grad_clip', 50.0)
        log_interval = args.get('log_interval', 10)
        epoch = args.get('epoch', 0)
        min_duration = args.get('min_duration', 0)
        criterion = criterion_dict[args.get('criterion', max_pooling_loss)]

        num_total_batch = 0
        total_loss = 0.0
        for batch_idx, batch in enumerate(data_loader):
            key, feats, target, feats_lengths = batch
            feats = feats.to(device)
            target = target.to(device)
            feats_lengths = feats_lengths.to(device)
            num_utts = feats_lengths.size(0)
            if num_utts == 0:
                continue
            logits = model(feats)
            loss, acc = criterion(logits, target, feats_lengths, min_duration)
            loss.backward()  # expect: ZG101
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            if batch_idx % log_interval == 0:
                logging.debug(
                    'TRAIN Batch {}/{} loss {:.8f} acc {:.8f}'.format(
                        epoch, batch_idx, loss.item(), acc))
