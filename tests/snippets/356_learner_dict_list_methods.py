import torch

stats = {"loss": [], "acc": []}
for step in range(3):
    stats["loss"].append(1.0 / (step + 1))
    stats.setdefault("steps", []).append(step)
stats["acc"].extend([0.5, 0.7])
print(stats, list(stats), len(stats))
for key, values in stats.items():
    print(key, values, sum(values) / max(len(values), 1))
params = [torch.ones(2), torch.zeros(3)]
params.insert(0, torch.full((1,), 7.0))
print([p.tolist() for p in params], params.pop().shape, len(params))
sizes = [3, 1, 2]
sizes.sort(reverse=True)
print(sizes, sorted(sizes), list(reversed(sizes)), sizes.index(2), sizes.count(3), sizes.copy() == sizes)
pairs = list(zip(["a", "b"], [1, 2]))
print(dict(pairs), list(enumerate("xy", start=1)))
print(stats.get("missing"), stats.get("missing", "default"), "loss" in stats, stats.pop("acc"), stats.keys())
