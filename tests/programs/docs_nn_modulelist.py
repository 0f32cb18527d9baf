# The example in the documentation of torch.nn.ModuleList (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/container.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: the module built, printed and run on torch.randn(2, 10), its output and a gradient printed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(10, 10) for i in range(10)])

    def forward(self, x):
        # ModuleList can act as an iterable, or be indexed using ints
        for i, l in enumerate(self.linears):
            x = self.linears[i // 2](x) + l(x)
        return x


model = MyModule()
print(model)
output = model(torch.randn(2, 10))
print(output)
output.sum().backward()
print(model.linears[9].bias.grad)
print(len(list(model.parameters())))
