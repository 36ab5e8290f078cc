from fastai.callback.core import Callback
class C(Callback):
    def after_backward(self):
        for p in self.learn.model.parameters():
            (p.  # x
             grad) = None
