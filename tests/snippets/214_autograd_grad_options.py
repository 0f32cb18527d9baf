import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x ** 2
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True))
u = torch.ones(2, requires_grad=True)
print(torch.autograd.grad((x * 2).sum(), [x, u], materialize_grads=True))
print(torch.autograd.grad((x * 2).sum(), (x, u), None, None, False, True, True))
print(torch.autograd.grad(x.exp().sum(), x, only_inputs=False))
z = (x ** 3).sum()
g, = torch.autograd.grad(z, x, create_graph=True)
print(g, torch.autograd.grad(g, x, torch.eye(3), is_grads_batched=True))
torch.autograd.grad((x * 2).sum(), [x, u], allow_unused=False, materialize_grads=True)
