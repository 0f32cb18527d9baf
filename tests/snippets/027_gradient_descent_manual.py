import torch

w = torch.tensor(0.0, requires_grad=True)
lr = 0.1
for step in range(5):
    loss = (w - 3.0) ** 2
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
    print(f"step {step}: w={w.item():.4f} loss={loss.item():.4f}")
print(w)
