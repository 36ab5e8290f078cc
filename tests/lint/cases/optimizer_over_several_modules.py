"""An optimizer over several modules, a clear that covers only some of them (issue 13,
shape 4)."""

import itertools

import torch

encoder = Encoder()
decoder = Decoder()
actor = Actor()
critic = Critic()
optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), decoder.parameters()))
optimizer_list = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()))
optimizer_groups = torch.optim.Adam(
    [{"params": encoder.parameters()}, {"params": decoder.parameters(), "lr": 1e-4}]
)
ac_optimizer = torch.optim.Adam([*actor.parameters(), *critic.parameters()])
encoder_optimizer = torch.optim.Adam(encoder.parameters())
decoder_optimizer = torch.optim.Adam(decoder.parameters())


def encoder_cleared_only(loader):
    for x in loader:
        encoder.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()  # expect: ZG101
        optimizer.step()


def encoder_cleared_only_list(loader):
    for x in loader:
        encoder.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()  # expect: ZG101
        optimizer_list.step()


def encoder_cleared_only_param_groups(loader):
    for x in loader:
        encoder.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()  # expect: ZG101
        optimizer_groups.step()


def both_modules_cleared(loader):
    for x in loader:
        encoder.zero_grad()
        decoder.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()
        optimizer.step()


def optimizer_cleared(loader):
    for x in loader:
        optimizer.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()
        optimizer.step()


def subset_cleared_between_backward_and_step(env):
    for obs in env:
        ac_optimizer.zero_grad()
        loss = actor_loss(actor(obs)) + critic_loss(critic(obs))
        loss.backward()
        for p in actor.parameters():
            p.grad = None
        ac_optimizer.step()


def optimizers_of_each_module_cleared(loader):
    # infoGAN-style: the joint optimizer's parameters are the encoder's and the decoder's,
    # and the two optimizers over them clear all of them (pytorch-generative-model-collections)
    for x in loader:
        encoder_optimizer.zero_grad()
        decoder_optimizer.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()
        optimizer.step()


def optimizer_of_one_module_cleared(loader):
    for x in loader:
        encoder_optimizer.zero_grad()
        loss = criterion(decoder(encoder(x)), x)
        loss.backward()  # expect: ZG101
        optimizer.step()
