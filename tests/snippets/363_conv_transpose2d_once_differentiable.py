# F.conv_transpose2d (stride, padding, output_padding, groups, dilation; float64 and float32, batched and not) and its
# gradients, the conv_transpose2d of a conv2d input gradient, and a custom Function's backward under
# @once_differentiable (it runs without grad), as the conv-bn fusion tutorial uses them.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 3, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, 3, 2, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
y = F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 0), output_padding=(1, 0), groups=2, dilation=(1, 2))
print(y.shape, y.grad_fn)
print(y[1, :, :2])
y.backward(torch.randn(y.shape, dtype=torch.float64))
print(x.grad[0, 1], w.grad[1], b.grad)
xs = torch.randn(3, 4, 4, requires_grad=True)
ws = torch.randn(3, 2, 3, 3, requires_grad=True)
z = F.conv_transpose2d(xs, ws)
z.sum().backward()
print(z.shape, z[0, :2], xs.grad[0, :2], ws.grad[0, 0])
g = torch.randn(10, 5, 5, 5, dtype=torch.float64)
X = torch.rand(10, 3, 7, 7, dtype=torch.float64)
W = torch.rand(5, 3, 3, 3, dtype=torch.float64)
print(torch.allclose(F.conv_transpose2d(g, W), torch.autograd.grad(F.conv2d(X.requires_grad_(), W), X, g)[0]))
from torch.autograd.function import once_differentiable


class Conv2D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, weight):
        ctx.save_for_backward(X, weight)
        return F.conv2d(X, weight)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        X, weight = ctx.saved_tensors
        print("grad enabled in backward:", torch.is_grad_enabled())
        grad_input = F.conv2d(X.transpose(0, 1), grad_out.transpose(0, 1)).transpose(0, 1)
        grad_X = F.conv_transpose2d(grad_out, weight)
        return grad_X, grad_input


Xc = torch.randn(2, 3, 5, 5, requires_grad=True)
Wc = torch.randn(4, 3, 3, 3, requires_grad=True)
Conv2D.apply(Xc, Wc).sum().backward()
print(Xc.grad[1, 2], Wc.grad[3, 0])
print(Xc.grad.requires_grad, Wc.grad.grad_fn)
