class T:
    def b0(self):
        self.g1()
    def h(self, gr):
        self.model.weight.grad = gr
        self.g2()
        self.k()
    def g1(self):
        self.g2()
        self.log()
    def g2(self):
        self.g1()
    def k(self):
        self.opt.step()
    def fit(self, b):
        self.model(b).backward()
        self.opt.zero_grad()
        self.k()
class Logger:
    def log(self):
        pass
