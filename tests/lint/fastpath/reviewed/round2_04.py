def train(model, opt, data):
    for x in data:
        (model(x).backward)()
        opt.step()
