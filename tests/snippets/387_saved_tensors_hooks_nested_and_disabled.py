# Saved-tensor hooks: the innermost pair packs (nested contexts), unpack runs at backward and at each _saved_* read,
# save_on_cpu, disable_saved_tensors_hooks and its message, and a hook's value read back through grad_fn._saved_self.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)


def tagged(tag):
    def pack(x):
        print("pack", tag, x)
        return (tag, x)

    def unpack(packed):
        print("unpack", packed[0])
        return packed[1]
    return pack, unpack


with torch.autograd.graph.saved_tensors_hooks(*tagged("outer")):
    with torch.autograd.graph.saved_tensors_hooks(*tagged("inner")):
        y = a * b
    z = a.exp()
print(y.grad_fn._saved_self, y.grad_fn._saved_self is a)
print(z.grad_fn._saved_result)
(y.sum() + z.sum()).backward()
print(a.grad, b.grad)
with torch.autograd.graph.save_on_cpu():
    w = (a * a).sum()
w.backward()
print(a.grad)
with torch.autograd.graph.disable_saved_tensors_hooks("hooks are off in this block"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
    v = (a * 3).sum()
v.backward()
print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 2, lambda x: x / 2):
    y = torch.pow(a, 3)
print(y.grad_fn._saved_self, y.grad_fn._saved_exponent)
y.sum().backward()
print(a.grad)
