import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
t = x.take(torch.tensor([0, 5, 5, -1]))
print(t, t.grad_fn)
(t * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad)
print(torch.take(x.detach(), torch.tensor([[2, 3], [1, 0]])))
for bad in (lambda: x.take(torch.tensor([6])), lambda: x.take(torch.tensor([1.0]))):
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__ + ":", e)

v = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
d = v.diag_embed()
print(d, d.grad_fn)
print(v.diag_embed(1), torch.diag_embed(v.detach(), offset=-1))
b = torch.arange(6.0).reshape(2, 3).requires_grad_()
e = torch.diag_embed(b, dim1=0, dim2=2)
print(e.shape, e[:, 1])
(e * torch.arange(18.0).reshape(3, 2, 3)).sum().backward()
print(b.grad)
f = b.diagflat()
print(f.shape, f.grad_fn, f.grad_fn.next_functions[0][0].name())
g = v.diagflat(-1)
print(g)
(g ** 2).sum().backward()
print(v.grad)

u = torch.tensor([3, 1, 2, 3, 1, 1])
print(u.unique(), u.unique(return_counts=True), u.unique(return_inverse=True))
print(torch.tensor([[1, 2], [1, 2], [0, 5]]).unique(dim=0))
print(u.unique_consecutive(), u.unique_consecutive(return_inverse=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 3]]), dim=0, return_counts=True))

w = torch.tensor([[-1.0, 2.0], [3.0, -4.0]], requires_grad=True)
a = torch.tensor([0.25], requires_grad=True)
p = w.prelu(a)
print(p, p.grad_fn)
p.sum().backward()
print(w.grad, a.grad)

lr = 0.1
params = [torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0], requires_grad=True)]


def step(param):
    print("accumulated", param.grad)
    with torch.no_grad():
        param.sub_(lr * param.grad)
    param.grad = None


handles = [q.register_post_accumulate_grad_hook(step) for q in params]
loss = (params[0] ** 2).sum() + params[1].exp().sum()
loss.backward()
print(params, [q.grad for q in params])
handles[0].remove()
(params[0] * params[1]).sum().backward()
print(params[0].grad)
for bad in (lambda: (params[0] * 2).register_post_accumulate_grad_hook(step),
            lambda: torch.ones(2).register_post_accumulate_grad_hook(step)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
