# The example in the documentation of torch.nn.ModuleDict (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/container.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: the module built, printed and run on torch.randn(1, 10, 7, 7) with each choice and activation, output sums printed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.choices = nn.ModuleDict(
            {"conv": nn.Conv2d(10, 10, 3), "pool": nn.MaxPool2d(3)}
        )
        self.activations = nn.ModuleDict(
            [["lrelu", nn.LeakyReLU()], ["prelu", nn.PReLU()]]
        )

    def forward(self, x, choice, act):
        x = self.choices[choice](x)
        x = self.activations[act](x)
        return x


model = MyModule()
print(model)
x = torch.randn(1, 10, 7, 7)
for choice in ["conv", "pool"]:
    for act in ["lrelu", "prelu"]:
        output = model(x, choice, act)
        print(choice, act, output.size(), output.sum())
print(list(model.choices.keys()))
