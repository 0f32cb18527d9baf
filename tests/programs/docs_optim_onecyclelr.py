# The example in the documentation of torch.optim.lr_scheduler.OneCycleLR (PyTorch 2.13's docstring, pytorch/pytorch
# torch/optim/lr_scheduler.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb), as a learner runs it: the docstring's lines unchanged (its xdoctest
# comment dropped), torch.manual_seed(0) added. Cut: torch.utils.data.DataLoader(...) (a list of 5 random batches
# instead). Added: the model and train_batch(...) the docstring assumes (one backward of nn.Linear(4, 1)'s MSE loss);
# print(epoch, scheduler.get_last_lr(), optimizer.param_groups[0]["momentum"]) each epoch, print(model.weight) at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Linear(4, 1)
data_loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
loss_fn = nn.MSELoss()


def train_batch(*args):
    optimizer.zero_grad()
    loss_fn(model(batch[0]), batch[1]).backward()


optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
scheduler = torch.optim.lr_scheduler.OneCycleLR(
    optimizer, max_lr=0.01, steps_per_epoch=len(data_loader), epochs=10
)
for epoch in range(10):
    for batch in data_loader:
        train_batch(...)
        optimizer.step()
        scheduler.step()
    print(epoch, scheduler.get_last_lr(), optimizer.param_groups[0]["momentum"])
print(model.weight)
