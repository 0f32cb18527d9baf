import torch

a = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], requires_grad=True)
b = torch.tensor([1.5, -2.0, 3.25, 0.125, -0.75, 2.0, 1.0], requires_grad=True)
v = a.vdot(b)
print(v, v.grad_fn, torch.vdot(a, b).item() == torch.dot(a, b).item())
v.backward()
print(a.grad, b.grad)
print(torch.vdot(torch.arange(5.0, dtype=torch.float64), torch.ones(5, dtype=torch.float64)))
for bad in (lambda: a.vdot(torch.ones(2, 7)), lambda: a.vdot(torch.ones(3))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
