import torch

def affine(x, w, b=0.0, *, scale=1.0):
    return scale * (x * w + b)

def loss_fn(pred, target):
    diff = pred - target
    return (diff * diff).mean()

x = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor(0.5, requires_grad=True)
loss = loss_fn(affine(x, w, scale=2.0), torch.tensor([1.0, 2.0, 3.0]))
loss.backward()
print(loss, w.grad)
print(affine(1.0, 2.0), affine(1.0, 2.0, 1.0), affine(b=3.0, w=1.0, x=1.0))
