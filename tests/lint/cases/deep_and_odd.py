optimizer = make_optimizer_for(model)
for batch in loader:
    f = lambda: model(batch).backward()
    f()
    optimizer.step()

match mode:
    case "train":
        for batch in loader:
            optimizer.zero_grad()
            model(batch).backward()
            optimizer.step()
    case _:
        pass
