# The example in the documentation of torch.optim.lr_scheduler.LambdaLR (PyTorch 2.13's docstring, pytorch/pytorch
# torch/optim/lr_scheduler.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb), as a learner runs it: the docstring's lines unchanged (its xdoctest
# comment dropped), torch.manual_seed(0) added. Added: the model, optimizer, train(...) and validate(...) the docstring
# assumes (one SGD step of nn.Linear(4, 1) on fixed random data, lr=0.05 as its comment assumes); the optimizer has the two groups the docstring assumes (weight and bias), `opt` is the same optimizer; print(epoch, scheduler.get_last_lr()) in each loop; print(model.weight) at the end.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR

torch.manual_seed(0)

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
inputs = torch.randn(8, 4)
targets = torch.randn(8, 1)
loss_fn = nn.MSELoss()


def train(*args):
    optimizer.zero_grad()
    loss_fn(model(inputs), targets).backward()
    optimizer.step()


def validate(*args):
    with torch.no_grad():
        return loss_fn(model(inputs), targets)

optimizer = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias]}], lr=0.05)
opt = optimizer
# Assuming optimizer has two groups.
num_epochs = 100
lambda1 = lambda epoch: epoch // 30
lambda2 = lambda epoch: 0.95**epoch
scheduler = LambdaLR(optimizer, lr_lambda=[lambda1, lambda2])
for epoch in range(num_epochs):
    train(...)
    validate(...)
    scheduler.step()
    print(epoch, scheduler.get_last_lr())

# Alternatively, you can use a single lambda function for all groups.
scheduler = LambdaLR(opt, lr_lambda=lambda epoch: epoch // 30)
for epoch in range(num_epochs):
    train(...)
    validate(...)
    scheduler.step()
    print(epoch, scheduler.get_last_lr())
print(model.weight)
