import torch

# x[key] = v writes into x itself where the key selects all of it, into a view of x otherwise; a 0-d value
# (a number too) fills, a value of the region's shape is copied, any other is expanded then copied
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
for key in ["...", ":", "0:2, :", "None", "0", ":, 1"]:
    for value in ["7.0", "w", "row", "block"]:
        h = x * 1
        v = {"7.0": 7.0, "w": w * 1, "row": torch.ones(2), "block": torch.ones(2, 2)}[value]
        if key == "...":
            h[...] = v
        if key == ":":
            h[:] = v
        if key == "0:2, :":
            h[0:2, :] = v
        if key == "None" and value != "block":
            h[None] = v
        if key == "0" and value != "block":
            h[0] = v
        if key == ":, 1" and value != "block":
            h[:, 1] = v
        print(key, value, h.grad_fn.name(), h.tolist())

# fill_ with a number or a 0-d tensor, which gets the filled elements' gradient
h = x * 1
h.fill_(2.0)
print(h)
h = x * 1
h[0].fill_(w)
print(h)
h.sum().backward()
print(x.grad, w.grad)

# an expanded tensor may be written where no element repeats
e = x * 1
e.expand(2, 2, 2)[1].mul_(10)
print(e)
e.sum().backward()
print(x.grad)

# a 0-d tensor takes None and ..., and an int tensor a float value truncated
print(torch.tensor(5.0)[None], torch.tensor(5.0)[...])
a = torch.arange(4)
a[0] = 1.5
a[1:] = torch.tensor([1.7, 2.2, 3.9])
print(a)
a[...] = 2
print(a)
