# SOURCE: lucidrains/muse-maskgit-pytorch@14648deb7b76b57a68a2858f639dcb469239a870 muse_maskgit_pytorch/vqgan_vae.py (MIT; the encoder/decoder, quantizer, discriminator layers and loss helpers trimmed)
import copy

import torch
import torch.nn.functional as F
from torch import nn
from einops import repeat


def exists(val):
    return val is not None


class VQGanVAE(nn.Module):
    def __init__(self, *, dim, channels=3, discr_layers=4, use_vgg_and_gan=True, use_hinge_loss=True):
        super().__init__()
        self.channels = channels
        self.use_vgg_and_gan = use_vgg_and_gan

        # gan related losses

        layer_mults = list(map(lambda t: 2**t, range(discr_layers)))
        layer_dims = [dim * mult for mult in layer_mults]
        dims = (dim, *layer_dims)

        self.discr = Discriminator(dims=dims, channels=channels)

        self.discr_loss = hinge_discr_loss if use_hinge_loss else bce_discr_loss
        self.gen_loss = hinge_gen_loss if use_hinge_loss else bce_gen_loss

    def encode(self, fmap):
        fmap = self.enc_dec.encode(fmap)
        fmap, indices, commit_loss = self.vq(fmap)
        return fmap, indices, commit_loss

    def decode(self, fmap):
        return self.enc_dec.decode(fmap)

    def forward(
        self,
        img,
        return_loss=False,
        return_discr_loss=False,
        return_recons=False,
        add_gradient_penalty=True,
    ):
        batch, channels, height, width, device = *img.shape, img.device

        fmap, indices, commit_loss = self.encode(img)

        fmap = self.decode(fmap)

        if not return_loss and not return_discr_loss:
            return fmap

        # whether to return discriminator loss

        if return_discr_loss:
            assert exists(self.discr), "discriminator must exist to train it"

            fmap.detach_()
            img.requires_grad_()

            fmap_discr_logits, img_discr_logits = map(self.discr, (fmap, img))

            discr_loss = self.discr_loss(fmap_discr_logits, img_discr_logits)

            if add_gradient_penalty:
                gp = gradient_penalty(img, img_discr_logits)
                loss = discr_loss + gp

            if return_recons:
                return loss, fmap

            return loss

        # reconstruction loss

        recon_loss = self.recon_loss_fn(fmap, img)

        # early return if training on grayscale

        if not self.use_vgg_and_gan:
            if return_recons:
                return recon_loss, fmap

            return recon_loss

        # perceptual loss

        img_vgg_feats = self.vgg(img)
        recon_vgg_feats = self.vgg(fmap)
        perceptual_loss = F.mse_loss(img_vgg_feats, recon_vgg_feats)

        # generator loss

        gen_loss = self.gen_loss(self.discr(fmap))

        # calculate adaptive weight

        last_dec_layer = self.enc_dec.last_dec_layer

        norm_grad_wrt_gen_loss = grad_layer_wrt_loss(gen_loss, last_dec_layer).norm(p=2)
        norm_grad_wrt_perceptual_loss = grad_layer_wrt_loss(
            perceptual_loss, last_dec_layer
        ).norm(p=2)

        adaptive_weight = safe_div(
            norm_grad_wrt_perceptual_loss, norm_grad_wrt_gen_loss
        )
        adaptive_weight.clamp_(max=1e4)

        loss = recon_loss + perceptual_loss + commit_loss + adaptive_weight * gen_loss

        if return_recons:
            return loss, fmap

        return loss
