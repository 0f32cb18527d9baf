# create_graph through the 1- and inf-norms (their sgn is a node: the gradient requires grad, a second backward
# gives zeros), dist and pairwise_distance with p=1, and logsumexp of a 0-d tensor (grad * exp(x - result):
# nan at +-inf)
import math

import torch
import torch.nn.functional as F

x = torch.tensor([[1.5, -2.0, 0.0], [0.5, 3.0, -3.0]], requires_grad=True)
y = torch.tensor([[0.5, 1.0, 2.0], [-1.5, 0.25, 1.0]], requires_grad=True)
for name, f in [("vector_norm1", lambda: torch.linalg.vector_norm(x, 1, dim=1)),
                ("vector_norm_inf", lambda: torch.linalg.vector_norm(x, math.inf)),
                ("norm_p1", lambda: x.norm(p=1, dim=0)),
                ("matrix_norm1", lambda: torch.linalg.matrix_norm(x, 1)),
                ("matrix_norm_inf", lambda: torch.linalg.matrix_norm(x, -math.inf)),
                ("dist1", lambda: x.dist(y, 1)),
                ("pairwise1", lambda: F.pairwise_distance(x, y, p=1)),
                ("l1_loss", lambda: F.l1_loss(x, y))]:
    out = f()
    gx, gy = torch.autograd.grad(out.sum(), [x, y], create_graph=True, allow_unused=True)
    print(name, gx, gy)
    total = (gx * x).sum() + (0 if gy is None else (gy * y).sum())
    print("  second", torch.autograd.grad(total, [x, y], allow_unused=True))
for v in [math.inf, -math.inf, 2.0]:
    z = torch.tensor(v, requires_grad=True)
    out = torch.logsumexp(z, 0)
    g, = torch.autograd.grad(out, z, create_graph=True)
    print(out, g, torch.autograd.grad(g, z))
