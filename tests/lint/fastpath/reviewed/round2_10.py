from fastai.callback.core import Callback
def k():
    opt.step()
def fit(b):
    model(b).backward()
    opt.zero_grad()
    k()
class C(Callback):
    def after_backward(self):
        k()
