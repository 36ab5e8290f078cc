def k():
    opt.step()
def fit(b):
    model(b).backward()
    opt.zero_grad()
    k()
class B:
    def hook(self):
        pass
model.weight.grad = g
self.hook()
k()
