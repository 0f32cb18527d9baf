# eval() of a string holding one expression, as the saved-tensors-hooks tutorial unpacks a tensor from its repr: in the
# caller's scope, with Python's SyntaxError and NameError.
import torch
x = torch.tensor([1.5, 2.0], requires_grad=True)
s = repr(x)
y = eval("torch." + s)
print(y, y.requires_grad, y is x)
def f(a):
    b = 3
    return eval("a * b + 1")
print(f(2), eval("[i * i for i in range(4)]"), eval("  1 + 2"))
try:
    eval("1 +")
except SyntaxError as e:
    print("SyntaxError", e)
try:
    eval("undefined_name + 1")
except NameError as e:
    print("NameError", e)
