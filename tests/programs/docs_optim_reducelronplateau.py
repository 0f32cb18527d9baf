# The example in the documentation of torch.optim.lr_scheduler.ReduceLROnPlateau (PyTorch 2.13's docstring, pytorch/pytorch
# torch/optim/lr_scheduler.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb), as a learner runs it: the docstring's lines unchanged (its xdoctest
# comment dropped), torch.manual_seed(0) added. Added: the model, optimizer, train(...) and validate(...) the docstring
# assumes (one SGD step of nn.Linear(4, 1) on fixed random data, lr=0.05 as its comment assumes); the docstring's optimizer line replaces the scaffold's; print(epoch, val_loss, optimizer.param_groups[0]['lr']) in the loop, which runs 60 epochs instead of 10 (so the plateau is reached); print(model.weight) at the end.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

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

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = ReduceLROnPlateau(optimizer, "min")
for epoch in range(60):
    train(...)
    val_loss = validate(...)
    # Note that step should be called after validate()
    scheduler.step(val_loss)
    print(epoch, val_loss, optimizer.param_groups[0]['lr'])
print(model.weight)
