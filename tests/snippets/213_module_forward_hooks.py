import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.fc(x))


def shapes(module, inputs, output):
    print(type(module), [tuple(i.shape) for i in inputs], tuple(output.shape))


def scale_input(module, inputs):
    print("pre", inputs)
    return inputs[0] * 10


def negate(module, inputs, output):
    return -output


net = Net()
h1 = net.fc.register_forward_hook(shapes)
h2 = net.register_forward_pre_hook(scale_input)
x = torch.ones(1, 2)
print(net(x))
h3 = net.act.register_forward_hook(negate)
print(net(x))
h2.remove()
h3.remove()
print(net(x))
h1.remove()
print(net(x), h1.id < h2.id)
