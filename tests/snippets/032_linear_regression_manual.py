import torch

xs = torch.linspace(0, 1, 5)
ys = 2 * xs + 1
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(100):
    pred = w * xs + b
    loss = ((pred - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(f"w = {w.item():.3f}, b = {b.item():.3f}, loss = {loss.item():.6f}")
print(xs)
