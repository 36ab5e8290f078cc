# A step whose parameters are then restored (`net.set_params(old_weights)`,
# `model.load_state_dict(saved)`, `vector_to_parameters(old, model.parameters())`) was a
# lookahead: the gradients it applied are applied again from the restored weights on
# purpose, with the next backward's added (mammoth's HAL: the anchor loss's step at the
# original weights), also with `strict=True`. A loop that steps twice without a clear and
# restores nothing still applies stale gradients, and so does one that only syncs a target
# network from the model's current values (`target.load_state_dict(model.state_dict(),
# strict=True)`, TradeMaster: not a restore).
import torch
from torch.nn.utils import vector_to_parameters


class Hal:
    def observe(self, inputs, labels):
        old_weights = self.net.get_params().detach().clone()
        self.opt.zero_grad()
        self.loss(self.net(inputs), labels).backward()
        self.opt.step()
        with torch.no_grad():
            pred_anchors = self.net(self.anchors)
        self.net.set_params(old_weights)
        pred_anchors -= self.net(self.anchors)
        (pred_anchors**2).mean().backward()
        self.opt.step()


def lookahead_restored_from_a_state_dict(model, optimizer, loader, anchors):
    for x in loader:
        saved = {k: v.clone() for k, v in model.state_dict().items()}
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        model.load_state_dict(saved)
        model(anchors).sum().backward()
        optimizer.step()


def lookahead_restored_from_a_vector(model, optimizer, loader, anchors, old):
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        vector_to_parameters(old, model.parameters())
        model(anchors).sum().backward()
        optimizer.step()


def two_steps_nothing_restored(model, optimizer, loader, anchors):
    for x in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        model(anchors).sum().backward()  # expect: ZG101
        optimizer.step()


def lookahead_restored_strictly(model, optimizer, loader, anchors):
    for x in loader:
        saved = {k: v.clone() for k, v in model.state_dict().items()}
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()
        model.load_state_dict(saved, strict=True)
        model(anchors).sum().backward()
        optimizer.step()


def target_synced_strictly(model, target, optimizer, loader):
    for x in loader:
        model(x).mean().backward()  # expect: ZG101
        optimizer.step()
        target.load_state_dict(model.state_dict(), strict=True)

