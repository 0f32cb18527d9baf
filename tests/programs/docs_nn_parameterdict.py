# The example in the documentation of torch.nn.ParameterDict (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/container.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. Added: the module built, printed and run on torch.randn(10, 3) with each choice, outputs and a gradient printed.
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyModule(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.params = nn.ParameterDict(
            {
                "left": nn.Parameter(torch.randn(5, 10)),
                "right": nn.Parameter(torch.randn(5, 10)),
            }
        )

    def forward(self, x, choice):
        x = self.params[choice].mm(x)
        return x


model = MyModule()
print(model)
x = torch.randn(10, 3)
print(model(x, "left"))
model(x, "right").sum().backward()
print(model.params["right"].grad[0])
print(model.params["left"].grad)
