import torch


def batches(data, size):
    for i in range(0, len(data), size):
        yield data[i:i + size]


data = torch.arange(10.0)
for batch in batches(data, 4):
    print(batch, batch.mean().item())
it = iter([1, 2, 3])
print(next(it), next(it), next(it), next(it, "end"))
gen = (x * x for x in range(4))
print(list(gen), list(gen))
model = torch.nn.Linear(2, 1)
first = next(model.parameters())
print(first.shape, len(list(model.parameters())))
for i, (name, p) in enumerate(model.named_parameters()):
    print(i, name, tuple(p.shape))
