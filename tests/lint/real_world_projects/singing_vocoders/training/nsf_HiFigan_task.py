# SOURCE: openvpi/SingingVocoders@4d0889c4c180c75ad3000cc565864656344f8190 training/nsf_HiFigan_task.py (MIT; the task's constructor, discriminator forward and training step; datasets, PC augmentation and validation trimmed)
import torch.nn.functional as F
import torch.utils.data

from training.base_task_gan import GanBaseTask


class nsf_HiFigan(GanBaseTask):
    def __init__(self, config):
        super().__init__(config)
        self.pc_aug = self.config.get('pc_aug', False)
        self.pc_aug_rate = self.config.get('pc_aug_rate', 0.5)
        self.logged_gt_wav = set()

    def Dforward(self, Goutput):
        msd_out, msd_feature = self.discriminator['msd'](Goutput)
        mpd_out, mpd_feature = self.discriminator['mpd'](Goutput)
        return (msd_out, msd_feature), (mpd_out, mpd_feature)

    def _training_step(self, sample, batch_idx):
        """
        :return: total loss: torch.Tensor, loss_log: dict, other_log: dict

        """

        log_dict = {}
        opt_g, opt_d = self.optimizers()

        # forward generator start
        Goutput = self.Gforward(sample=sample)
        audio_fake = Goutput['audio']
        # forward generator end

        # opt discriminator start
        Dfake = self.Dforward(Goutput=audio_fake.detach())  # y_g_hat =Goutput
        Dtrue = self.Dforward(Goutput=sample['audio'])  # y =sample['audio']
        Dloss, Dlog = self.mix_loss.Dloss(Dfake=Dfake, Dtrue=Dtrue)
        log_dict.update(Dlog)

        opt_d.zero_grad()  # clean discriminator grad
        self.manual_backward(Dloss)
        opt_d.step()
        # opt discriminator end

        # disable grad for discriminator's parameters
        d_trainable_params = [p for D in self.discriminator.values() for p in D.parameters() if p.requires_grad]
        for p in d_trainable_params:
            p.requires_grad = False

        # opt generator start
        GDfake = self.Dforward(Goutput=audio_fake)
        GDtrue = self.Dforward(Goutput=sample['audio'])
        GDloss, GDlog = self.mix_loss.GDloss(GDfake=GDfake, GDtrue=GDtrue)
        log_dict.update(GDlog)
        pc_wav_loss = 0
        spec_loss, Auxlog = self.mix_loss.Auxloss(Goutput=Goutput, sample=sample)
        Auxloss = spec_loss + pc_wav_loss
        log_dict.update(Auxlog)
        Gloss = GDloss + Auxloss

        opt_g.zero_grad()  # clean generator grad
        self.manual_backward(Gloss)
        opt_g.step()
        # opt generator end

        # enable grad for discriminator's parameters
        for p in d_trainable_params:
            p.requires_grad = True

        return log_dict
