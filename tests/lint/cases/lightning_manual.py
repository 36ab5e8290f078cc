import lightning as L


class ManualGAN(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        g_opt, d_opt = self.optimizers()
        g_loss = self.generator_loss(batch)
        g_opt.zero_grad()
        self.manual_backward(g_loss)
        g_opt.step()
        d_loss = self.discriminator_loss(batch)
        d_opt.zero_grad()
        self.manual_backward(d_loss)
        d_opt.step()


class ManualLeaky(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        loss = self.compute_loss(batch)
        self.manual_backward(loss)  # expect: ZG101
        opt.step()


class ManualAccumulation(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        loss = self.compute_loss(batch) / 4
        self.manual_backward(loss)
        if (batch_idx + 1) % 4 == 0:
            opt.step()
            opt.zero_grad()


class Automatic(L.LightningModule):
    def training_step(self, batch, batch_idx):
        loss = self.compute_loss(batch)
        return loss
