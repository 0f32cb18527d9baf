# F.pixel_shuffle / pixel_unshuffle / channel_shuffle and their modules (values, grads, double backward, errors), F's in-place activations
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 8, 2, 4, requires_grad=True)
for y in (F.pixel_shuffle(x, 2), F.pixel_unshuffle(x, 2), F.channel_shuffle(x, 2), nn.ChannelShuffle(4)(x), nn.PixelShuffle(2)(x)):
    print(y, y.shape)
    g = torch.randn(y.shape)
    gx, = torch.autograd.grad(y, x, g)
    print(gx)
print(nn.PixelShuffle(3), nn.PixelUnshuffle(2), nn.ChannelShuffle(2))
x = torch.randn(8, 2, 3, dtype=torch.float64, requires_grad=True)
y = F.pixel_shuffle(x * x, 2)
gx, = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)
print(gx.grad_fn, torch.autograd.grad(gx.sum(), x)[0])
for f in [lambda: F.pixel_shuffle(torch.randn(2,3), 2), lambda: F.pixel_shuffle(x, 3), lambda: F.pixel_shuffle(x, 0), lambda: F.pixel_unshuffle(x, 4),lambda: F.pixel_unshuffle(x, 0), lambda: F.channel_shuffle(x, 3), lambda: F.channel_shuffle(x, 0), lambda: F.channel_shuffle(torch.randn(8), 2), lambda: F.pixel_unshuffle(torch.randn(3,3),1), lambda: F.pixel_unshuffle(torch.randn(1,4,3),2)]:
    try: f()
    except Exception as e: print(type(e).__name__, e)
a = torch.randn(5, requires_grad=True)
for fn, args in ((F.relu_, ()), (F.elu_, (0.5,)), (F.leaky_relu_, (0.2,)), (F.hardtanh_, (-0.5, 0.5)), (F.threshold_, (0.1, 20.0)), (F.celu_, (2.0,)), (F.selu_, ())):
    b = a * 2
    c = fn(b, *args)
    print(c is b, c, b._version)
    c.sum().backward()
    print(a.grad)
    a.grad = None
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True) * 1
print(F.threshold(b, 0.0, 3.0, inplace=True), b.grad_fn)
