import torch


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        return f"{self.name} {self.val:.4f} ({self.avg:.4f})"


meter = AverageMeter("loss")
for v in [torch.tensor(0.5), torch.tensor(0.25), torch.tensor(0.125)]:
    meter.update(v.item(), n=2)
print(meter.avg, meter.count, meter.__class__.__name__, AverageMeter.__doc__)
print(meter)
print(str(meter), f"[{meter}]", [meter] if False else "")


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"


print(Point(1, 2), [Point(0, 1), Point(2, 3)], repr(Point(3, 4)), str(Point(5, 6)), {"p": Point(7, 8)})
