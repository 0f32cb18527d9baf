# The examples in the documentation of torch.nn's activation modules (PyTorch 2.13's docstrings,
# torch/nn/modules/activation.py, in the file's order), as a learner runs them one after another:
# torch.manual_seed(0) added, print(output) added after each. Cut: nn.MultiheadAttention's example (it uses
# embed_dim, num_heads, query, key and value without defining them); nn.RReLU's is docs_nn_rrelu.py.
import torch
import torch.nn as nn

torch.manual_seed(0)

# nn.Threshold
m = nn.Threshold(0, 0.5)
input = torch.arange(-3, 3)
output = m(input)
print(output)

# nn.ReLU
m = nn.ReLU()
input = torch.randn(2)
output = m(input)
m = nn.ReLU()
input = torch.randn(2).unsqueeze(0)
output = torch.cat((m(input), m(-input)))
print(output)

# nn.Hardtanh
m = nn.Hardtanh(-2, 2)
input = torch.randn(2)
output = m(input)
print(output)

# nn.ReLU6
m = nn.ReLU6()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Sigmoid
m = nn.Sigmoid()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Hardsigmoid
m = nn.Hardsigmoid()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Tanh
m = nn.Tanh()
input = torch.randn(2)
output = m(input)
print(output)

# nn.SiLU
m = nn.SiLU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Mish
m = nn.Mish()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Hardswish
m = nn.Hardswish()
input = torch.randn(2)
output = m(input)
print(output)

# nn.ELU
m = nn.ELU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.CELU
m = nn.CELU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.SELU
m = nn.SELU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.GLU
m = nn.GLU()
input = torch.randn(4, 2)
output = m(input)
print(output)

# nn.GELU
m = nn.GELU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Hardshrink
m = nn.Hardshrink()
input = torch.randn(2)
output = m(input)
print(output)

# nn.LeakyReLU
m = nn.LeakyReLU(0.1)
input = torch.randn(2)
output = m(input)
print(output)

# nn.LogSigmoid
m = nn.LogSigmoid()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Softplus
m = nn.Softplus()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Softshrink
m = nn.Softshrink()
input = torch.randn(2)
output = m(input)
print(output)

# nn.PReLU
m = nn.PReLU()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Softsign
m = nn.Softsign()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Tanhshrink
m = nn.Tanhshrink()
input = torch.randn(2)
output = m(input)
print(output)

# nn.Softmin
m = nn.Softmin(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)

# nn.Softmax
m = nn.Softmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)

# nn.Softmax2d
m = nn.Softmax2d()
# you softmax over the 2nd dimension
input = torch.randn(2, 3, 12, 13)
output = m(input)
print(output)

# nn.LogSoftmax
m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)
