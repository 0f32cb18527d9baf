# nn.Module subclasses: parameters and sub-modules registered on assignment, parameters()/named_parameters(),
# buffers, zero_grad, train()/eval(), other methods, extra_repr, printing, state_dict, and plain classes with
# class attributes, classmethods, staticmethods, inheritance and super().
import torch
import torch.nn as nn

torch.manual_seed(0)


class TwoLayerNet(nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = nn.Linear(D_in, H)
        self.linear2 = nn.Linear(H, D_out)
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("calls", torch.zeros(()))
        self.note = "plain attribute"

    def forward(self, x):
        self.calls += 1
        h_relu = self.linear1(x).clamp(min=0)
        return self.linear2(h_relu) * self.scale

    def count(self):
        return sum(p.numel() for p in self.parameters())


class Scaled(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.inner = nn.Sequential(nn.Linear(2, 2), nn.Tanh())

    def forward(self, x):
        return self.inner(x) * self.factor

    def extra_repr(self):
        return f"factor={self.factor}"


model = TwoLayerNet(4, 3, 2)
print(model)
print(model.count())
for name, param in model.named_parameters():
    print(name, param.shape, param.requires_grad)
print([name for name, _ in model.named_buffers()])
print(list(model.state_dict().keys()))
x = torch.randn(5, 4)
y = model(x)
print(y)
print(model.calls)
loss = y.pow(2).mean()
loss.backward()
print(model.linear1.weight.grad)
print(model.scale.grad)
model.zero_grad()
print(model.scale.grad)
print(model.training, model.linear1.training)
model.eval()
print(model.training, model.linear1.training)
print(model.train() is model, model.linear2.training)
print(model.note, isinstance(model, nn.Module), isinstance(model, TwoLayerNet))
print(isinstance(model.scale, nn.Parameter), isinstance(model.scale, torch.Tensor))
print(type(model.linear1))
print(model.linear1)
print(model.scale)

s = Scaled(0.5)
print(s)
print(len(list(s.parameters())), s.inner[0].weight.shape)
print(s(torch.ones(1, 2)))
print(len(list(s.modules())), [n for n, _ in s.named_children()])

layers = nn.ModuleList([nn.Linear(2, 2) for i in range(3)])
print(layers)
print(len(layers), len(list(layers.parameters())))


class Counter:
    created = 0

    def __init__(self, start=0):
        self.value = start
        Counter.created += 1

    def step(self, by=1):
        self.value += by
        return self

    @classmethod
    def make(cls, start):
        return cls(start)

    @staticmethod
    def describe(n):
        return f"counter at {n}"


class LoudCounter(Counter):
    def step(self, by=1):
        super().step(by * 10)
        return self


c = Counter.make(3).step().step(2)
print(c.value, Counter.created, Counter.describe(c.value))
loud = LoudCounter(1)
loud.step()
print(loud.value, Counter.created, isinstance(loud, Counter), isinstance(c, LoudCounter))
print(type(loud) == LoudCounter, type(c) == LoudCounter, type(loud))
print(Counter.describe, type(Counter.step))
