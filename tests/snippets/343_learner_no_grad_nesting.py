import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    a = w * 2
    with torch.enable_grad():
        b = w * 3
        with torch.no_grad():
            c = w * 4
    d = w * 5
print(a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    e = w + 1
print(e.requires_grad, b.grad_fn)
b.sum().backward()
print(w.grad)
with torch.no_grad():
    w -= 0.1 * w.grad
    w.grad.zero_()
print(w, w.grad, w.is_leaf)
