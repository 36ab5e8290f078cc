def b0(s):
    g1(s)
def h(s):
    model.weight.grad = gr
    g2(s)
    k()
def g1(self):
    g2(self)
    self.x()
def g2(s):
    g1(s)
class X:
    def x(self):
        pass
def k():
    opt.step()
def fit(b):
    model(b).backward()
    opt.zero_grad()
    k()
