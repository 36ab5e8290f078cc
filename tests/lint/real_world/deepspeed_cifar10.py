# Source: microsoft/DeepSpeedExamples training/cifar/cifar10_deepspeed.py @ 09e0d2ccc70a85af634ee55739b0cad22b9b7187 (Apache-2.0). Excerpt: argparse, dataset, network and evaluation trimmed. The DeepSpeed engine clears gradients inside model_engine.step(), so the loop has no zero_grad and is correct.
import argparse

import deepspeed
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as transforms
from deepspeed.accelerator import get_accelerator

args = add_argument()

net = Net()

parameters = filter(lambda p: p.requires_grad, net.parameters())
if args.moe_param_group:
    parameters = create_moe_param_groups(net)

# Initialize DeepSpeed to use the following features
# 1) Distributed model
# 2) Distributed data loader
# 3) DeepSpeed optimizer
model_engine, optimizer, trainloader, __ = deepspeed.initialize(
    args=args, model=net, model_parameters=parameters, training_data=trainset)

local_device = get_accelerator().device_name(model_engine.local_rank)
local_rank = model_engine.local_rank

bf16 = model_engine.bfloat16_enabled()
print(f'bf16={bf16}')

import torch.optim as optim

criterion = nn.CrossEntropyLoss()
#optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):  # loop over the dataset multiple times

    running_loss = 0.0
    for i, data in enumerate(trainloader):
        # get the inputs; data is a list of [inputs, labels]
        inputs, labels = data[0].to(local_device), data[1].to(local_device)
        if bf16:
            inputs = inputs.to(torch.bfloat16)
        outputs = model_engine(inputs)
        loss = criterion(outputs, labels)

        model_engine.backward(loss)
        model_engine.step()

        # print statistics
        running_loss += loss.item()
        if local_rank == 0 and i % args.log_interval == (
                args.log_interval -
                1):  # print every log_interval mini-batches
            print('[%d, %5d] loss: %.3f' %
                  (epoch + 1, i + 1, running_loss / args.log_interval))
            running_loss = 0.0

print('Finished Training')
