"""A loss started from a number and summed inside a loop (``loss = 0``, then ``loss +=
...`` per chunk) is a tensor only if the loop ran: its ``backward()`` after the loop
proves at least one iteration, so the path that skips the loop (and a clear in it)
never reaches the backward (FastCampus' character LSTM, truncated backpropagation with
the clear inside the chunk loop: a false ZG101 in session 26's probe B). A loss
started from a tensor proves nothing."""

import torch

rnn = torch.nn.RNN(4, 4, batch_first=True)
optimizer = torch.optim.Adam(rnn.parameters())


def char_rnn(data, epochs):
    for epoch in range(epochs):
        hidden, loss = torch.zeros(1, 1, 4), 0
        for chunk in data:
            optimizer.zero_grad()
            out, hidden = rnn(chunk, hidden)
            loss += out.pow(2).mean()
        loss.backward()
        optimizer.step()


def started_from_a_tensor(data, epochs):
    for epoch in range(epochs):
        hidden, loss = torch.zeros(1, 1, 4), torch.zeros(())
        for chunk in data:
            optimizer.zero_grad()
            out, hidden = rnn(chunk, hidden)
            loss += out.pow(2).mean()
        loss.backward()  # expect: ZG101
        optimizer.step()
