import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
w.data = w.data - 0.1 * w.grad
print(w)
w.data -= 0.1 * w.grad
print(w, w.grad)
