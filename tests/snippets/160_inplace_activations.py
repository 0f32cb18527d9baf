# F.X(..., inplace=True) and nn.X(inplace=True) overwrite their input (a view too), as torch's
import torch
import torch.nn as nn
import torch.nn.functional as F


def act(name, h):
    if name == "relu":
        return F.relu(h, inplace=True)
    if name == "leaky_relu":
        return F.leaky_relu(h, 0.1, inplace=True)
    if name == "elu":
        return F.elu(h, inplace=True)
    if name == "selu":
        return F.selu(h, inplace=True)
    if name == "celu":
        return F.celu(h, 0.5, inplace=True)
    if name == "silu":
        return F.silu(h, inplace=True)
    if name == "mish":
        return F.mish(h, inplace=True)
    if name == "hardtanh":
        return F.hardtanh(h, inplace=True)
    if name == "relu6":
        return F.relu6(h, inplace=True)
    if name == "hardsigmoid":
        return F.hardsigmoid(h, inplace=True)
    if name == "hardswish":
        return F.hardswish(h, inplace=True)
    if name == "dropout":
        return F.dropout(h, 0.5, inplace=True)
    if name == "ReLU":
        return nn.ReLU(inplace=True)(h)
    if name == "LeakyReLU":
        return nn.LeakyReLU(0.2, inplace=True)(h)
    if name == "ELU":
        return nn.ELU(inplace=True)(h)
    if name == "SiLU":
        return nn.SiLU(inplace=True)(h)
    return F.dropout(h, 0.5, training=False, inplace=True)


torch.manual_seed(0)
x = torch.tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=True)
for name in ["relu", "leaky_relu", "elu", "selu", "celu", "silu", "mish", "hardtanh", "relu6", "hardsigmoid",
             "hardswish", "dropout", "ReLU", "LeakyReLU", "ELU", "SiLU", "eval dropout"]:
    h = x * 1
    y = act(name, h)
    print(name, y is h, y.grad_fn.name(), h)
    h = x * 1
    r = act(name, h[0])
    print(r, h)
    x.grad = None
    (h * h).sum().backward()
    print(x.grad)
print(nn.ReLU(inplace=True), nn.LeakyReLU(0.2, inplace=True))
