# Source: gaozhihan/PreDiff scripts/vae/sevirlr/train_vae_sevirlr.py, the fix of https://github.com/gaozhihan/PreDiff/issues/32 (PR https://github.com/gaozhihan/PreDiff/pull/33 "Correct the timing of calling opt.zero_grad()") reconstructed as the issue describes it: the clears moved after the steps inside the accumulation condition (the fixed commit is not in the stored index). Excerpt as in the __buggy file.
import warnings
from collections import OrderedDict
import numpy as np
import torch
from torch.optim.lr_scheduler import LambdaLR, CosineAnnealingLR, SequentialLR
import torchmetrics
import lightning.pytorch as pl
from lightning.pytorch import Trainer, seed_everything, loggers as pl_loggers
from omegaconf import OmegaConf
import os
import argparse
from einops import rearrange

from prediff.taming import AutoencoderKL, LPIPSWithDiscriminator
from prediff.utils.optim import warmup_lambda


class VAESEVIRPLModule(pl.LightningModule):

    def __init__(self,
                 total_num_steps: int,
                 accumulate_grad_batches: int = 1,
                 oc_file: str = None,
                 save_dir: str = None):
        super(VAESEVIRPLModule, self).__init__()
        oc = self.get_base_config(oc_from_file=None)
        model_cfg = OmegaConf.to_object(oc.model)

        self.torch_nn_module = AutoencoderKL(
            down_block_types=model_cfg["down_block_types"],
            in_channels=model_cfg["in_channels"],
            latent_channels=model_cfg["latent_channels"],
            out_channels=model_cfg["out_channels"], )
        loss_cfg = model_cfg["loss"]
        self.loss = LPIPSWithDiscriminator(
            disc_start=loss_cfg["disc_start"],
            kl_weight=loss_cfg["kl_weight"],
            disc_weight=loss_cfg["disc_weight"],
            perceptual_weight=loss_cfg["perceptual_weight"],
            disc_in_channels=loss_cfg["disc_in_channels"],)

        self.total_num_steps = total_num_steps
        self.oc = oc
        self.batch_axis = oc.layout.layout.find("N")
        # optimization
        self.automatic_optimization = False
        self.accumulate_grad_batches = accumulate_grad_batches

    def configure_optimizers(self):
        optim_cfg = self.oc.optim
        lr = optim_cfg.lr
        betas = optim_cfg.betas
        opt_ae = torch.optim.Adam(list(self.torch_nn_module.encoder.parameters()) +
                                  list(self.torch_nn_module.decoder.parameters()) +
                                  list(self.torch_nn_module.quant_conv.parameters()) +
                                  list(self.torch_nn_module.post_quant_conv.parameters()),
                                  lr=lr, betas=betas)
        opt_disc = torch.optim.Adam(self.loss.discriminator.parameters(),
                                    lr=lr, betas=betas)

        warmup_iter = int(np.round(optim_cfg.warmup_percentage * self.total_num_steps))
        if optim_cfg.lr_scheduler_mode == 'none':
            return [{"optimizer": opt_ae}, {"optimizer": opt_disc}]
        else:
            lr_scheduler_ae = LambdaLR(opt_ae, lr_lambda=warmup_lambda(warmup_steps=warmup_iter))
            lr_scheduler_disc = LambdaLR(opt_disc, lr_lambda=warmup_lambda(warmup_steps=warmup_iter))
            return [
                {"optimizer": opt_ae, "lr_scheduler": {'scheduler': lr_scheduler_ae, 'interval': 'step'}},
                {"optimizer": opt_disc, "lr_scheduler": {'scheduler': lr_scheduler_disc, 'interval': 'step'}},
            ]

    def get_last_layer(self):
        return self.torch_nn_module.decoder.conv_out.weight

    def get_input(self, batch):
        target_bchw = rearrange(batch, "b 1 h w c -> b c h w").contiguous()
        mask = None
        return target_bchw, mask

    def forward(self, target_bchw, sample_posterior=True):
        pred_bchw, posterior =  self.torch_nn_module(
            sample=target_bchw,
            sample_posterior=sample_posterior,
            return_posterior=True)
        return pred_bchw, posterior

    def training_step(self, batch, batch_idx):
        g_opt, d_opt = self.optimizers()
        g_sch, d_sch = self.lr_schedulers()

        target_bchw, _ = self.get_input(batch=batch)
        pred_bchw, posterior = self(target_bchw)

        # train encoder+decoder+logvar
        aeloss, log_dict_ae = self.loss(target_bchw, pred_bchw, posterior, optimizer_idx=0, global_step=self.global_step,
                                        mask=None, last_layer=self.get_last_layer(), split="train")
        self.log("aeloss", aeloss, prog_bar=True, logger=True, on_step=True, on_epoch=True, sync_dist=False)
        self.manual_backward(aeloss)
        if (batch_idx + 1) % self.accumulate_grad_batches == 0:
            self.clip_gradients(g_opt, gradient_clip_val=self.oc.optim.gradient_clip_val, gradient_clip_algorithm="norm")
            g_opt.step()
            g_sch.step()
            g_opt.zero_grad()
        # train the discriminator
        discloss, log_dict_disc = self.loss(target_bchw, pred_bchw, posterior, optimizer_idx=1, global_step=self.global_step,
                                            mask=None, last_layer=self.get_last_layer(), split="train")
        self.log("discloss", discloss, prog_bar=True, logger=True, on_step=True, on_epoch=True, sync_dist=False)

        self.manual_backward(discloss)
        if (batch_idx + 1) % self.accumulate_grad_batches == 0:
            self.clip_gradients(d_opt, gradient_clip_val=self.oc.optim.gradient_clip_val, gradient_clip_algorithm="norm")
            d_opt.step()
            d_sch.step()
            d_opt.zero_grad()
