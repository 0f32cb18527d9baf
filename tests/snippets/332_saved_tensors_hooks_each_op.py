# torch.autograd.graph's saved-tensor hooks: which tensors each op saves, in which order they are packed and
# unpacked, save_on_cpu and disable_saved_tensors_hooks.
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3., 4.], requires_grad=True)
m = torch.ones(2, 2, requires_grad=True)
def pack(x):
    print("  pack", x)
    return x
def unpack(x):
    print("  unpack", x)
    return x
for name, f in [("mul", lambda: a * b), ("div", lambda: a / b), ("mul2", lambda: a * 2), ("mm", lambda: m @ m),
                ("pow", lambda: a ** b), ("exp", lambda: a.exp()), ("sub", lambda: a - b), ("sin", lambda: a.sin()),
                ("sum", lambda: a.sum()), ("matmul_mv", lambda: m @ a), ("pow2", lambda: a ** 2)]:
    print(name)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = f()
    print(" backward")
    y.sum().backward()

with torch.autograd.graph.save_on_cpu():
    y = (a * b).exp()
y.sum().backward()
print(a.grad, b.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            print("entered")
    except RuntimeError as e:
        print("RuntimeError:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 0, lambda x: x):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)
