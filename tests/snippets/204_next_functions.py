import torch

x = torch.ones(2, requires_grad=True)
w = torch.tensor([3., 4.], requires_grad=True)
y = (x * w + 1).sum()
print(y.grad_fn, y.grad_fn.next_functions)
add = y.grad_fn.next_functions[0][0]
print(add.next_functions)
mul = add.next_functions[0][0]
print(mul.next_functions)
acc = mul.next_functions[0][0]
print(acc.variable is x, acc.next_functions, acc.name())
print(mul.next_functions[1][0].variable is w)
z = x.exp() * torch.tensor([1., 2.])
print(z.grad_fn.next_functions)
lin = torch.nn.Linear(2, 1)
out = lin(x.unsqueeze(0))
print(out.grad_fn, out.grad_fn.next_functions[0][0].variable is lin.bias)
