import torch

# a view made before its base required grad, not read since an in-place op gave the base a history, is a leaf
# to torch (it regenerates a view's grad_fn when the view is read): modifying it in place is refused
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.zeros(3)
v = b[1:]
b.add_(x)
print(v)  # read: torch regenerates its history, so this one may be modified
v.mul_(2)
print(b)
c = torch.zeros(3)
w = c[1:]
c.add_(x)
w.mul_(2)
