optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1)

for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.first_step(zero_grad=True)
    criterion(model(x), y).backward()
    optimizer.second_step(zero_grad=True)
