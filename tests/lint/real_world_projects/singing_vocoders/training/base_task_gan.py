# SOURCE: openvpi/SingingVocoders@4d0889c4c180c75ad3000cc565864656344f8190 training/base_task_gan.py (MIT; GanBaseTask: constructor, training step, optimizers; datasets, logging and validation trimmed)
from typing import Dict

import lightning.pytorch as pl
import torch.utils.data
from torchmetrics import MeanMetric, Metric


class GanBaseTask(pl.LightningModule):
    """
        Subclasses should define:
        1. *build_model*, *build_optimizer*, *build_scheduler*:
            how to build the model, the optimizer and the training scheduler;
        2. *_training_step*:
            one training step of the model;
    """

    def __init__(self, config: dict, *args, **kwargs):
        # dataset configs
        super().__init__(*args, **kwargs)
        self.dataset_cls = None
        self.config = config
        self.clip_grad_norm = self.config['clip_grad_norm']

        self.training_sampler = None
        self.model = None
        self.generator = None
        self.discriminator = None

        self.valid_losses: Dict[str, Metric] = {
            'total_loss': MeanMetric()
        }
        self.mix_loss = None

        self.automatic_optimization = False
        self.skip_immediate_validations = 0

        self.aux_step = self.config.get('aux_step')

    def build_model(self):
        raise NotImplementedError()

    def Gforward(self, sample, infer=False):
        raise NotImplementedError()

    def Dforward(self, Goutput):
        raise NotImplementedError()

    def _training_step(self, sample, batch_idx):
        """
        :return: total loss: torch.Tensor, loss_log: dict, other_log: dict

        """
        aux_only = False
        if self.aux_step is not None:
            if self.aux_step > self.global_step:
                aux_only = True

        log_diet = {}
        opt_g, opt_d = self.optimizers()
        Goutput = self.Gforward(sample=sample)
        if not aux_only:
            Dfake = self.Dforward(Goutput=Goutput['audio'].detach())
            Dtrue = self.Dforward(Goutput=sample['audio'])
            Dloss, Dlog = self.mix_loss.Dloss(Dfake=Dfake, Dtrue=Dtrue)
            log_diet.update(Dlog)
            opt_d.zero_grad()
            self.manual_backward(Dloss)
            if self.clip_grad_norm is not None:
                self.clip_gradients(opt_d, gradient_clip_val=self.clip_grad_norm, gradient_clip_algorithm="norm")
            opt_d.step()
            opt_d.zero_grad()
        if not aux_only:
            GDfake = self.Dforward(Goutput=Goutput['audio'])
            GDtrue = self.Dforward(Goutput=sample['audio'])
            GDloss, GDlog = self.mix_loss.GDloss(GDfake=GDfake,GDtrue=GDtrue)
            log_diet.update(GDlog)
        Auxloss, Auxlog = self.mix_loss.Auxloss(Goutput=Goutput, sample=sample)

        log_diet.update(Auxlog)
        if not aux_only:
            Gloss=GDloss + Auxloss
        else:
            Gloss=Auxloss

        opt_g.zero_grad()
        self.manual_backward(Gloss)
        if self.clip_grad_norm is not None:
            self.clip_gradients(opt_g, gradient_clip_val=self.clip_grad_norm, gradient_clip_algorithm="norm")
        opt_g.step()

        return log_diet

    def training_step(self, sample, batch_idx, ):  # todo
        log_outputs = self._training_step(sample, batch_idx)

        # logs to progress bar
        self.log_dict({'loss':sum(log_outputs.values())}, prog_bar=True, logger=False, on_step=True, on_epoch=False)
        # logs to tensorboard
        if self.global_step % self.config['log_interval'] == 0:
            tb_log = {f'training/{k}': v for k, v in log_outputs.items()}
            self.logger.log_metrics(tb_log, step=self.global_step)

    def build_optimizer(self, model, optimizer_args):
        return torch.optim.AdamW(model.parameters(), **optimizer_args)

    def configure_optimizers(self):
        optG = self.build_optimizer(self.generator, optimizer_args=self.config['generater_optimizer_args'])
        optD = self.build_optimizer(self.discriminator, optimizer_args=self.config['discriminate_optimizer_args'])

        return [optG, optD]
