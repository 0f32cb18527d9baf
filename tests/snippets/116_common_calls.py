# len/float/int/bool of tensors, one-argument torch.where, numpy's axis=/keepdims= names, empty, logspace,
# in-place activations (relu_, sigmoid_, exp_, abs_) and the error when an in-place op overwrites a saved output.
import torch
x = torch.tensor([[1.0, -2.0, 3.0], [0.0, 5.0, -6.0]])
print(len(x), float(x[0, 0]), int(x[1, 1]), bool(x[0, 0]))
print(torch.where(x > 0))
print(x.sum(axis=1), x.sum(dim=0, keepdims=True), torch.mean(x, axis=0), x.max(axis=1).values, x.argmax(axis=1), x.std(axis=0))
print(torch.empty(2, 3).shape, torch.logspace(0, 2, 3), torch.logspace(-1, 1, 5, base=2))
y = x.clone().requires_grad_()
z = y * 1
z.relu_(); print(z)
w = y * 2
w.sigmoid_(); w.exp_(); w.abs_(); print(w)
(z.sum() + w.sum()).backward(); print(y.grad)
