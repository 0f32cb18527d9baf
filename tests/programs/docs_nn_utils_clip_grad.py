# torch.nn.utils.clip_grad_norm_ and clip_grad_value_ as their docstrings describe them (PyTorch 2.13, pytorch/pytorch
# torch/nn/utils/clip_grad.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb; the docstrings have no example, so this is the usage they document:
# gradients computed, then clipped in place, the total norm returned), with the SGD docstring's training step
# (torch/optim/sgd.py) around it; torch.manual_seed(0) added.
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
input = torch.randn(16, 10)
target = torch.randn(16, 3)
loss_fn = nn.MSELoss()

optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
optimizer.zero_grad()
loss_fn(model(input), target).backward()
total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
print(total_norm)
print(model[2].bias.grad)
optimizer.step()

optimizer.zero_grad()
loss_fn(model(input), target).backward()
print(nn.utils.clip_grad_norm_(model.parameters(), 1.0, norm_type=1.0))
print(nn.utils.clip_grad_norm_(model.parameters(), 0.01, norm_type="inf"))
print(nn.utils.clip_grad_norm_(model.parameters(), 0.01, norm_type=3))
print(model[0].weight.grad[0])
optimizer.step()

optimizer.zero_grad()
loss_fn(model(input), target).backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[2].weight.grad)
optimizer.step()
print(model[2].weight)
