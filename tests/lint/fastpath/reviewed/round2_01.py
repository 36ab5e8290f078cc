class T:
    def run(self, data):
        for b in data:
            self.fix·up()
            self.model(b).backward()
            self.opt.step()
    def fix·up(self):
        self.model.zero_grad()
