# create_graph through nll_loss: its backward is a node of its own (NllLossBackwardBackward0, the 2-D kernel's
# NllLoss2DBackwardBackward0), the gradient requires grad, a second backward gives zeros, and differentiating
# the gradient with respect to a weighting of it goes through nll_loss again
import torch
import torch.nn.functional as F

x = torch.tensor([[0.2, -1.0, 0.5], [1.5, 0.3, -0.7], [0.0, 0.4, 2.0]], requires_grad=True)
t = torch.tensor([2, 0, 1])
w = torch.tensor([0.5, 2.0, 1.0])
for kwargs in [{}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": w}, {"weight": w, "reduction": "none"}]:
    out = F.nll_loss(x, t, **kwargs)
    go = torch.ones_like(out, requires_grad=True) * 1.5 if out.dim() else torch.tensor(1.5, requires_grad=True)
    g, = torch.autograd.grad(out, x, go, create_graph=True)
    print(kwargs, g, g.grad_fn.name())
    print("  ", torch.autograd.grad((g * torch.arange(9.0).reshape(3, 3)).sum(), [x, go], allow_unused=True))
img = torch.randn(2, 3, 2, 2, generator=torch.Generator().manual_seed(0), requires_grad=True)
tt = torch.tensor([[[0, 1], [2, 0]], [[1, 1], [0, 2]]])
g, = torch.autograd.grad(F.nll_loss(img, tt), img, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.sum(), img))
