# Every optimizer gradcli provides, a few float32 steps each on the same small problem, printed with all
# digits (so each update must be PyTorch's to the last bit), and print(optimizer).
import torch

torch.manual_seed(0)
x = torch.randn(16, 3)
y = x @ torch.tensor([1.5, -2.0, 0.5]) + 0.3


def train(make_optimizer, steps=5):
    torch.manual_seed(1)
    model = torch.nn.Linear(3, 1)
    optimizer = make_optimizer(model.parameters())
    for step in range(steps):
        optimizer.zero_grad()
        loss = ((model(x).squeeze(1) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
    print(optimizer)
    print(loss.item(), model.weight.tolist(), model.bias.tolist())


def make_1(p):
    return torch.optim.SGD(p, lr=0.1)


train(make_1)

def make_2(p):
    return torch.optim.SGD(p, lr=0.05, momentum=0.9)


train(make_2)

def make_3(p):
    return torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)


train(make_3)

def make_4(p):
    return torch.optim.SGD(p, lr=0.05, momentum=0.5, dampening=0.1, maximize=False)


train(make_4)

def make_5(p):
    return torch.optim.Adam(p, lr=0.1)


train(make_5)

def make_6(p):
    return torch.optim.Adam(p, lr=0.1, weight_decay=0.1, amsgrad=True)


train(make_6)

def make_7(p):
    return torch.optim.AdamW(p, lr=0.1)


train(make_7)

def make_8(p):
    return torch.optim.AdamW(p, lr=0.1, betas=(0.8, 0.99), weight_decay=0.5)


train(make_8)

def make_9(p):
    return torch.optim.RMSprop(p, lr=0.01)


train(make_9)

def make_10(p):
    return torch.optim.RMSprop(p, lr=0.01, momentum=0.9, centered=True, weight_decay=0.01)


train(make_10)

def make_11(p):
    return torch.optim.Adagrad(p, lr=0.1)


train(make_11)

def make_12(p):
    return torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5)


train(make_12)


model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD([{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}], lr=0.01)
print(optimizer)
print([group["lr"] for group in optimizer.param_groups])
