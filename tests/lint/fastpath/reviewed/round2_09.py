def fit(b):
    model(b).backward()
    opt.zero_grad()
    k()
def k():
    opt.step()
def m(self, g):
    self.hook()
    model.weight.grad = g
    k()
class B:
    def hook(self):
        pass
