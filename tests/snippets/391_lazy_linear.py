# nn.LazyLinear: nothing drawn until the first call, which initialises it as a Linear and makes it one.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.LazyLinear(3)
n = nn.LazyLinear(2, bias=False, dtype=torch.float64)
print(m, n)
print(m.weight, m.bias, type(m.weight), type(m) == nn.LazyLinear, isinstance(m, nn.Linear))
print(torch.rand(2))  # the generator is untouched by the lazy layers
x = torch.randn(2, 4, 5, requires_grad=True)
y = m(x)
print(m, type(m) == nn.Linear, type(m) == nn.LazyLinear, isinstance(m, nn.LazyLinear), m.in_features)
print(type(m.weight), m.weight, m.bias)
y.sum().backward()
print(x.grad.sum(), m.weight.grad, m.bias.grad)
print(n(torch.ones(1, 3, dtype=torch.float64)), n)
p = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
q = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
p(torch.randn(3, 2))
print(q.load_state_dict(p.state_dict()))
print(q, q[0].weight.shape)
print(q(torch.ones(1, 2)), p(torch.ones(1, 2)), q)
print([name for name, _ in q.named_parameters()])
