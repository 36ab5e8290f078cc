"""A trainer's method that calls the model it holds by the same method name
(``Trainer.pretrain`` running ``loss = self.model.pretrain(batch)``: RUCAIBox's
CIKM2020-S3Rec, a delegation common in wrappers) calls the model's method, not itself.
Duck typing (a method only one class of the file defines) read ``self.model`` as a
``Trainer``, so the call was a recursion the analysis gives up on (every gradient
unknown) and the missing clear was silent. An attribute of ``self`` is not taken for
an instance of ``self``'s own class by the name of a method.
"""

from torch.optim import Adam


class Trainer:
    def __init__(self, model, args):
        self.args = args
        self.model = model
        self.optim = Adam(self.model.parameters(), lr=args.lr)

    def pretrain(self, epoch, loader):
        for batch in loader:
            loss = self.model.pretrain(batch)
            loss.backward()  # expect: ZG101
            self.optim.step()

    def finetune(self, epoch, loader):
        for batch in loader:
            self.optim.zero_grad()
            loss = self.model.finetune(batch)
            loss.backward()
            self.optim.step()
