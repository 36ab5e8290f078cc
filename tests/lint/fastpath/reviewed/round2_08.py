class A:
    def fit(self, b):
        self.model(b).backward()
        self.opt.zero_grad()
        self.k()
    def k(self):
        self.opt.step()
    def m(self, g):
        self.hook()
        self.model.weight.grad = g
        self.k()
class B:
    def hook(self):
        pass
