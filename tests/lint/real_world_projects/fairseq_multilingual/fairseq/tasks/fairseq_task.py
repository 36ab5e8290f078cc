# SOURCE: facebookresearch/fairseq@003179f31ecdf7c667ed1fd0b751f1c6e9a71134 fairseq/tasks/fairseq_task.py (MIT; datasets, generators and metrics trimmed)
import os
from argparse import Namespace

import torch


class FairseqTask(object):

    def train_step(
        self, sample, model, criterion, optimizer, update_num, ignore_grad=False
    ):
        """
        Do forward and backward, and return the loss as computed by *criterion*
        for the given *model* and *sample*.
        """
        model.train()
        model.set_num_updates(update_num)
        with torch.autograd.profiler.record_function("forward"):
            loss, sample_size, logging_output = criterion(model, sample)
        if ignore_grad:
            loss *= 0
        with torch.autograd.profiler.record_function("backward"):
            optimizer.backward(loss)
        return loss, sample_size, logging_output

    def valid_step(self, sample, model, criterion):
        model.eval()
        with torch.no_grad():
            loss, sample_size, logging_output = criterion(model, sample)
        return loss, sample_size, logging_output


class LegacyFairseqTask(FairseqTask):

    def __init__(self, args: Namespace):
        self.args = args
        self.datasets = {}
        self.dataset_to_epoch_iter = {}

    @classmethod
    def setup_task(cls, args: Namespace, **kwargs):
        return cls(args, **kwargs)

    def has_sharded_data(self, split):
        return (os.pathsep in getattr(self.args, 'data', ''))
