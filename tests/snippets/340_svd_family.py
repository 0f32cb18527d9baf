# The SVD family as torch 2.13 computes it on the CPU: torch.svd, linalg.svd, svdvals, matrix norms through the
# singular values, pinv; the gradient of repeated singular values (nan), an in-place change of an output.
import torch

torch.manual_seed(0)
A = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
for o in (2, -2, 'nuc'):
    n = torch.linalg.norm(A, ord=o)
    n.backward()
    print(o, n.item(), A.grad.sum().item())
    A.grad = None
print(torch.norm(A, p='nuc').item())
print(torch.svd(A))
print(A.svd(some=False).V.shape, torch.linalg.svd(A).Vh.shape, torch.linalg.svdvals(A))
E = (2 * torch.eye(3, dtype=torch.float64)).requires_grad_()
U, S, V = torch.svd(E)
(U.sum() + S.sum()).backward()
print(E.grad)
B = torch.randn(2, 5, 4)
print(torch.linalg.svd(B, full_matrices=False).S)
x = torch.randn(3, 3, requires_grad=True)
u, s, vh = torch.linalg.svd(x)
u.mul_(2)
try:
    s.sum().backward()
except RuntimeError as e:
    print(e)
print(torch.linalg.pinv(torch.randn(3, 5)))
for args in [dict(p='nuc'), dict(p='abc')]:
    try:
        print(torch.norm(torch.ones(2, 2, 2), **args))
    except RuntimeError as e:
        print(e)
print(torch.norm(torch.ones(2, 3), p='nuc', dim=(1, 0)), torch.norm(torch.ones(2, 3), p='nuc', keepdim=True))
w, Q = torch.linalg.eigh(torch.tensor([[2., 1.], [1., 3.]]))
print(w, Q)
print(torch.svd(torch.zeros(0, 2), some=False), torch.svd(torch.ones(2, 3), compute_uv=False))
try:
    torch.linalg.svd(torch.tensor([[float('nan'), 1.], [1., 1.]]))
except RuntimeError as e:
    print(e)
