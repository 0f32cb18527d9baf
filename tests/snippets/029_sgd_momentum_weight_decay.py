import torch

p = torch.tensor([2.0, -3.0, 0.5], requires_grad=True)
opt = torch.optim.SGD([p], lr=0.05, momentum=0.9, weight_decay=0.01)
for i in range(10):
    opt.zero_grad()
    loss = (p ** 2).sum()
    loss.backward()
    opt.step()
print(p)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
