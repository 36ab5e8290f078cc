def k():
    opt.step()
def fit(data):
    for b in data:
        model(b).backward()
        opt.zero_grad()
        k()
class B:
    def hook(self):
        pass
def notify(self):
    self.hook()
model.weight.grad = g
notify(B())
k()
