# torch.save / torch.load keep the run's files in memory: a checkpoint dict (state_dicts, numbers), tensors that
# require grad (a non-leaf comes back a leaf), a Parameter, load_state_dict with strict=False; then a load of a
# name never saved is refused (tests/run/test_func_transforms.py).
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.ones(1, 3)).sum().backward()
opt.step()
torch.save({'epoch': 3, 'model_state_dict': model.state_dict(), 'optimizer_state_dict': opt.state_dict(), 'loss': 0.5}, "ckpt.tar")
ck = torch.load("ckpt.tar", weights_only=True)
m2 = nn.Linear(3, 2)
print(m2.load_state_dict(ck['model_state_dict']))
o2 = torch.optim.SGD(m2.parameters(), lr=0.5)
o2.load_state_dict(ck['optimizer_state_dict'])
print(ck['epoch'], ck['loss'], o2)
print(m2.weight, list(ck.keys()))
w = torch.ones(2, requires_grad=True)
torch.save([w, w * 2, nn.Parameter(torch.zeros(1))], "t.pt")
print(torch.load("t.pt"))
print(m2.load_state_dict({'weight': torch.zeros(2, 3)}, strict=False))
