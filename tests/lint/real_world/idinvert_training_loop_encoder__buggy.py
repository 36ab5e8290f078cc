# Source: Hsintien-Ng/idinvert_pytorch-reproduced training/training_loop_encoder.py @ 3726e67aa8c51bf6f3740ae3e0bbafca084c0ddf (licence: see repository). Excerpt: logging, tensorboard and validation snapshots trimmed. optimizer_D is never cleared (its discriminator also receives the encoder's adversarial gradients); https://github.com/Hsintien-Ng/idinvert_pytorch-reproduced/issues/1 "optimizer_D.zero_grad() missing?" - "You're right... I have fixed it."
from datasets.celebahq import CelebaHQ
from models.stylegan_generator import StyleGANGenerator
from models.stylegan_encoder import StyleGANEncoder
from models.perceptual_model import PerceptualModel
from models.stylegan_discriminator import StyleGANDiscriminator
from training.misc import EasyDict

import os
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision.utils as tvutils
import torch.autograd as autograd
from torch.utils.data import DataLoader


def div_loss_(D, real_x, fake_x, p=2, cuda=False):
    x_ = real_x.requires_grad_(True)
    y_ = D.net(x_)
    # cal f'(x)
    grad = autograd.grad(
        outputs=y_,
        inputs=x_,
        grad_outputs=torch.ones_like(y_),
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    div = (grad * grad).sum(dim=1, keepdim=True).sum(dim=2, keepdim=True).sum(dim=3, keepdim=True)
    div = torch.mean(div)
    return div

def GAN_loss(scores_out, real=True):
    if real:
        return torch.mean(F.softplus(-scores_out))
    else:
        return torch.mean(F.softplus(scores_out))

def training_loop(
        config,
        dataset_args         = {},
        E_lr_args            = EasyDict(),
        D_lr_args            = EasyDict(),
        opt_args             = EasyDict(),
        E_loss_args          = EasyDict(),
        D_loss_args          = EasyDict(),
        logger               = None,
        writer               = None,
        image_snapshot_ticks = 50,
        max_epoch            = 50
):
    # parse
    loss_pix_weight = E_loss_args.loss_pix_weight
    loss_feat_weight = E_loss_args.loss_feat_weight
    loss_adv_weight = E_loss_args.loss_adv_weight
    loss_real_weight = D_loss_args.loss_real_weight
    loss_fake_weight = D_loss_args.loss_fake_weight
    loss_gp_weight = D_loss_args.loss_gp_weight
    loss_ep_weight = D_loss_args.loss_ep_weight
    E_learning_rate = E_lr_args.learning_rate
    D_learning_rate = D_lr_args.learning_rate

    # construct dataloader
    train_dataset = CelebaHQ(dataset_args, train=True)
    train_dataloader = DataLoader(train_dataset, batch_size=config.train_batch_size, shuffle=True)

    # construct model
    G = StyleGANGenerator(config.model_name, logger, gpu_ids=config.gpu_ids)
    E = StyleGANEncoder(config.model_name, logger, gpu_ids=config.gpu_ids)
    F = PerceptualModel(min_val=G.min_val, max_val=G.max_val, gpu_ids=config.gpu_ids)
    D = StyleGANDiscriminator(config.model_name, logger, gpu_ids=config.gpu_ids)
    G.net.synthesis.eval()
    E.net.train()
    F.net.eval()
    D.net.train()
    encode_dim = [G.num_layers, G.w_space_dim]

    # optimizer
    optimizer_E = torch.optim.Adam(E.net.parameters(), lr=E_learning_rate, **opt_args)
    optimizer_D = torch.optim.Adam(D.net.parameters(), lr=D_learning_rate, **opt_args)
    lr_scheduler_E = torch.optim.lr_scheduler.ExponentialLR(optimizer=optimizer_E, gamma=E_lr_args.decay_rate)
    lr_scheduler_D = torch.optim.lr_scheduler.ExponentialLR(optimizer=optimizer_D, gamma=D_lr_args.decay_rate)

    global_step = 0
    for epoch in range(max_epoch):
        for step, items in enumerate(train_dataloader):
            E.net.train()
            x = items
            x = x.float().cuda()
            batch_size = x.shape[0]
            z = E.net(x).view(batch_size, *encode_dim)
            x_rec = G.net.synthesis(z)

            # ===============================
            #         optimizing D
            # ===============================

            x_real = D.net(x)
            x_fake = D.net(x_rec.detach())
            loss_real = GAN_loss(x_real, real=True)
            loss_fake = GAN_loss(x_fake, real=False)
            # gradient div
            loss_gp = div_loss_(D, x, x_rec.detach(), cuda=config.cuda)

            D_loss = loss_real_weight * loss_real + loss_fake_weight * loss_fake + loss_gp_weight * loss_gp + loss_ep_weight * (loss_real * loss_real)
            D_loss.backward()  # expect: ZG101
            optimizer_D.step()

            # ===============================
            #         optimizing G
            # ===============================
            # Reconstruction loss.
            loss_pix = torch.mean((x - x_rec) ** 2)

            # Perceptual loss.
            loss_feat = 0.
            if loss_feat_weight:
                x_feat = F.net(x)
                x_rec_feat = F.net(x_rec)
                loss_feat = torch.mean((x_feat - x_rec_feat) ** 2)

            # adversarial loss.
            loss_adv = 0.
            if loss_adv_weight:
                x_adv = D.net(x_rec)
                loss_adv = GAN_loss(x_adv, real=True)

            E_loss = loss_pix_weight * loss_pix + loss_feat_weight * loss_feat + loss_adv_weight * loss_adv
            optimizer_E.zero_grad()
            E_loss.backward()
            optimizer_E.step()

            global_step += 1
            if (global_step + 1) % E_lr_args.decay_step == 0:
                lr_scheduler_E.step()
            if (global_step + 1) % D_lr_args.decay_step == 0:
                lr_scheduler_D.step()

        save_filename = f'styleganinv_encoder_epoch_{epoch:03d}'
        save_filepath = os.path.join(config.save_models, save_filename)
        torch.save(E.net.module.state_dict(), save_filepath)
