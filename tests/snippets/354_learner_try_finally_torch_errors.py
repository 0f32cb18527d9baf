import torch

results = []
for shape in [(2, 3), (3, 2)]:
    try:
        out = torch.ones(2, 3) @ torch.ones(*shape)
        results.append(tuple(out.shape))
    except RuntimeError as e:
        results.append("error: " + str(e).split("(")[0].strip())
    finally:
        results.append("tried " + str(shape))
print(results)
x = torch.ones(2, requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print(type(e).__name__, "-", e)
y = (x * 2).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print("second backward:", str(e)[:60])
try:
    torch.tensor([1, 2])[5]
except IndexError as e:
    print("IndexError", e)
try:
    raise KeyError("missing")
except (KeyError, ValueError) as e:
    print("caught", repr(e))
