# torch.nn's padding and distance layers: printed form, values, grad_fn and gradients, the circular check
import torch
import torch.nn as nn

torch.manual_seed(0)
layers = [nn.ZeroPad2d((1, 1, 2, 0)), nn.ConstantPad1d(2, 3.5), nn.ReflectionPad2d(1), nn.ReplicationPad1d((3, 1)),
          nn.CircularPad2d(1), nn.ZeroPad3d(1), nn.ConstantPad3d((1, 0, 1, 0, 1, 0), 2), nn.ReflectionPad1d((0, 2)),
          nn.ReplicationPad3d((1, 0, 0, 1, 1, 1)), nn.CircularPad1d((2, 1)), nn.ZeroPad1d((-1, 2))]
for m in layers:
    name = type(m).__name__
    shape = (1, 2, 3, 3) if "2d" in name else (1, 2, 3) if "1d" in name else (1, 1, 2, 2, 3)
    x = torch.randn(*shape, dtype=torch.float64 if "Replication" in name else torch.float32, requires_grad=True)
    y = m(x)
    print(m, y.shape, y.dtype, type(y.grad_fn).__name__)
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(x.grad)
print(nn.Sequential(nn.ReflectionPad1d(2), nn.CosineSimilarity(), nn.PairwiseDistance(p=1)))
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)
c = nn.CosineSimilarity(dim=1, eps=1e-6)(a, b)
d = nn.PairwiseDistance(keepdim=True)(a, b)
print(c, d)
(c.sum() + d.sum()).backward()
print(a.grad)
print(layers[1].padding, layers[1].value, layers[0].padding)
for bad in (lambda: nn.CircularPad1d(1)(torch.randn(3)), lambda: nn.ReflectionPad1d(3)(torch.randn(1, 3))):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
