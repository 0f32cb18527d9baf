# The example in the documentation of torch.nn.ParameterList (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/container.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: the module built, printed and run on torch.randn(10, 3), its output and a gradient printed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.params = nn.ParameterList(
            [nn.Parameter(torch.randn(10, 10)) for i in range(10)]
        )

    def forward(self, x):
        # ParameterList can act as an iterable, or be indexed using ints
        for i, p in enumerate(self.params):
            x = self.params[i // 2].mm(x) + p.mm(x)
        return x


model = MyModule()
print(model)
output = model(torch.randn(10, 3))
print(output)
output.sum().backward()
print(model.params[9].grad[0])
print(len(list(model.parameters())))
