# torch's grad-mode decorators on functions and methods, with and without parentheses
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


@torch.no_grad()
def evaluate(t):
    return t * 2


@torch.no_grad
def evaluate_bare(t):
    return t * 3


@torch.enable_grad()
def train_step(t):
    return (t * t).sum()


@torch.inference_mode()
def infer(t):
    return t + 1


print(evaluate(x), evaluate(x).requires_grad)
print(evaluate_bare(x))
print(infer(x), infer(x).requires_grad)
with torch.no_grad():
    y = train_step(x)
print(y, torch.is_grad_enabled())
y.backward()
print(x.grad)
print(evaluate)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor([0.5, -1.0]))

    def forward(self, t):
        return (self.w * t).sum()

    @torch.no_grad()
    def predict(self, t):
        return self.forward(t)


m = Model()
print(m(x), m.predict(x), torch.is_grad_enabled())
with torch.inference_mode():
    z = x * 2
print(z, z.requires_grad)
with torch.no_grad(), torch.enable_grad():
    w = x * 2
print(w)
