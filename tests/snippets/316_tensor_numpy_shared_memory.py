# .numpy() shares memory with the tensor, torch.from_numpy with the array; torch.tensor(ndarray) copies
import numpy as np
import torch

t = torch.ones(3)
a = t.numpy()
print(a, type(a), a.dtype)
t.add_(1)
print(a)
a[0] = 10
print(t)
t.mul_(2)
print(a)

n = np.arange(4.0)
f = torch.from_numpy(n)
print(f, f.dtype)
n[1] = -1
print(f)
f.add_(100)
print(n)
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)), torch.from_numpy(np.array([True, False])))
print(torch.from_numpy(np.ones((2, 2), dtype=np.float32)))

copied = torch.tensor(n)
n[0] = 555
print(copied, copied.dtype, torch.tensor(np.float32(1.5)), torch.tensor(np.array([1, 2])))
shared = torch.as_tensor(n)
n[2] = 7
print(shared, torch.as_tensor(n, dtype=torch.float32), torch.as_tensor([1.0, 2.0]))
d = torch.tensor([1.0, 2.0], requires_grad=True)
print(d.detach().numpy(), (d * 2).detach().numpy())
view = torch.arange(6.0).reshape(2, 3)
m = view.numpy()
view[0, 0] = 9
print(m, view.T.numpy(), view[1].numpy())
print(torch.from_numpy(np.zeros((2, 3)).T).shape)
