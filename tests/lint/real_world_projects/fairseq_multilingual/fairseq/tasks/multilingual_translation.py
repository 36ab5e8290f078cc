# SOURCE: facebookresearch/fairseq@003179f31ecdf7c667ed1fd0b751f1c6e9a71134 fairseq/tasks/multilingual_translation.py (MIT; arguments, dictionaries, datasets and inference trimmed)
from collections import OrderedDict
import logging
import contextlib
import torch

from . import register_task, LegacyFairseqTask

logger = logging.getLogger(__name__)


@register_task('multilingual_translation')
class MultilingualTranslationTask(LegacyFairseqTask):
    """A task for training multiple translation models simultaneously.

    We iterate round-robin over batches from multiple language pairs, ordered
    according to the `--lang-pairs` argument.
    """

    def __init__(self, args, dicts, training):
        super().__init__(args)
        self.dicts = dicts
        self.training = training
        self.lang_pairs = args.lang_pairs
        self.eval_lang_pairs = self.lang_pairs
        self.model_lang_pairs = self.lang_pairs

    def train_step(self, sample, model, criterion, optimizer, update_num, ignore_grad=False):
        model.train()
        from collections import defaultdict
        agg_loss, agg_sample_size, agg_logging_output = 0., 0., defaultdict(float)
        curr_lang_pairs = [
            lang_pair
            for lang_pair in self.model_lang_pairs
            if sample[lang_pair] is not None and len(sample[lang_pair]) != 0
        ]

        for idx, lang_pair in enumerate(curr_lang_pairs):
            def maybe_no_sync():
                if (
                    self.args.distributed_world_size > 1
                    and hasattr(model, 'no_sync')
                    and idx < len(curr_lang_pairs) - 1
                ):
                    return model.no_sync()
                else:
                    return contextlib.ExitStack()  # dummy contextmanager
            with maybe_no_sync():
                loss, sample_size, logging_output = criterion(model.models[lang_pair], sample[lang_pair])
                if ignore_grad:
                    loss *= 0
                optimizer.backward(loss)
            agg_loss += loss.detach().item()
            # TODO make summing of the sample sizes configurable
            agg_sample_size += sample_size
            for k in logging_output:
                agg_logging_output[k] += logging_output[k]
                agg_logging_output[f"{lang_pair}:{k}"] += logging_output[k]
        return agg_loss, agg_sample_size, agg_logging_output
