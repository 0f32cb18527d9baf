# `with torch.device('cpu'):` (torch's default-device context manager; as binds the device), alone and beside no_grad().
import torch
with torch.device('cpu') as d:
    print(d, torch.zeros(1).device, torch.nn.Linear(2, 1).weight.device)
with torch.device("cpu"), torch.no_grad():
    print(torch.ones(2, requires_grad=True) * 2)
print(torch.is_grad_enabled())
