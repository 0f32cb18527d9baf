# torch.autograd.Function subclasses: ctx, saved tensors, several inputs and outputs, non-tensor arguments,
# None gradients, needs_input_grad, mark_non_differentiable, the setup_context style, and grad_fn printing.
import torch
from torch.autograd import Function


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print("needs_input_grad:", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class ClampWithMask(Function):
    @staticmethod
    def forward(ctx, x):
        mask = (x > 0).float()
        ctx.mark_non_differentiable(mask)
        ctx.save_for_backward(mask)
        return x.clamp(min=0), mask

    @staticmethod
    def backward(ctx, grad_values, grad_mask):
        mask, = ctx.saved_tensors
        print("grad for the mask:", grad_mask)
        return grad_values * mask


class SplitTwo(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2, x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, g_double, g_square):
        x, = ctx.saved_tensors
        return g_double * 2 + g_square * 2 * x


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 4.0)
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)

inp = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
out = LinearFunction.apply(inp, w, b)
print(out)
out.pow(2).sum().backward()
print(inp.grad)
print(w.grad)
print(b.grad)

w2 = torch.tensor([[1.0, 1.0]])
out2 = LinearFunction.apply(inp.detach(), w2.requires_grad_())
out2.sum().backward()
print(w2.grad)

v = torch.tensor([3.0, -1.0, 2.0], requires_grad=True)
values, mask = ClampWithMask.apply(v)
print(values, mask)
print(mask.requires_grad, values.requires_grad)
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)

z = torch.tensor([1.5, -0.5], requires_grad=True)
d, s = SplitTwo.apply(z)
print(d, s)
(d + 3 * s).sum().backward()
print(z.grad)

with torch.no_grad():
    q = MulConstant.apply(x, 2.0)
print(q.requires_grad, q.grad_fn)
print(MulConstant.apply(torch.ones(2), 3.0))
