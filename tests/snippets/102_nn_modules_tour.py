# Every torch.nn module gradcli provides: printed form, values, gradients, and Dropout's draws.
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(4, 3),
    nn.ReLU(),
    nn.Linear(3, 3),
    nn.Tanh(),
    nn.Identity(),
)
print(model)
print(model[0], model[-1], len(model))
print(model[0].weight)
print(model[0].bias)
x = torch.randn(2, 4)
h = model(x)
print(h)
print(nn.Sigmoid()(h))
print(nn.Softmax(dim=1)(h))
print(nn.LogSoftmax(dim=1)(h))
print(nn.Flatten()(torch.ones(2, 3, 4)).shape, nn.Flatten(0, 1)(torch.ones(2, 3, 4)).shape)

drop = nn.Dropout(p=0.25)
print(drop)
print(drop(torch.ones(2, 8)))
drop.eval()
print(drop(torch.ones(2, 8)))

target = torch.tensor([[0.5, -0.5, 0.0], [1.0, 0.0, -1.0]])
for loss_fn in [nn.MSELoss(), nn.MSELoss(reduction="sum"), nn.L1Loss(), nn.L1Loss(reduction="none")]:
    loss = loss_fn(h, target)
    print(loss_fn, loss)

labels = torch.tensor([2, 0])
ce = nn.CrossEntropyLoss()
loss = ce(h, labels)
print(ce, loss)
nll = nn.NLLLoss()
print(nll, nll(nn.LogSoftmax(dim=1)(h), labels))
probs = nn.Sigmoid()(h)
bce = nn.BCELoss()
print(bce, bce(probs, torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])))
bcel = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5]))
print(bcel, bcel(h, torch.tensor([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])))

loss.backward()
for name, p in model.named_parameters():
    print(name, p.grad)

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p, p.requires_grad, p.is_leaf)
q = nn.Parameter(torch.tensor([3.0]), requires_grad=False)
print(q)
print((p * 2).sum())
model.zero_grad()
print(model[0].weight.grad)
model.double()
print(model[0].weight.dtype)
print(model(x.double()).dtype)
