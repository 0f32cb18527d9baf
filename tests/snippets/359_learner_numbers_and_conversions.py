import torch

x = torch.tensor([1.7, -2.3, 0.5])
print(int(x[0]), float(x[1]), bool(x[2]), x.int(), x.round(), x.floor(), x.ceil(), x.trunc())
print(round(x[0].item(), 2), abs(-3), divmod(17, 5), 17 // 5, 17 % 5, -17 // 5, 2 ** -1, 10 / 4)
print(int(3.99), int(-3.99), float("inf"), float("-inf") < 0, 0.1 + 0.2 == 0.3, 1_000_000)
print(True + True, max(1, 2.5), min([3, 1, 2]), sum([0.1] * 3), pow(2, 5), pow(2, 5, 3))
print(x.tolist(), [round(v, 3) for v in x.tolist()], x.numel(), x.dim(), tuple(x.shape))
print(255, 5, 7 / 2, 7 // 2, float(7 // 2), str(7 / 2))
