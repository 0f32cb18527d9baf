# nn.TripletMarginWithDistanceLoss / F.triplet_margin_with_distance_loss: distances, swap, reductions, grads, errors
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(4, 5, requires_grad=True)
p = torch.randn(4, 5, requires_grad=True)
n = torch.randn(4, 5, requires_grad=True)
for kw in (dict(), dict(swap=True), dict(margin=2.5, reduction="sum"), dict(reduction="none"),
           dict(distance_function=nn.CosineSimilarity()), dict(distance_function=lambda x, y: (x - y).abs().sum(1))):
    loss = nn.TripletMarginWithDistanceLoss(**kw)
    out = loss(a, p, n)
    print(loss, out)
    out.sum().backward()
    print(a.grad, p.grad, n.grad)
    a.grad = p.grad = n.grad = None
print(F.triplet_margin_with_distance_loss(a, p, n, swap=True, margin=0.5))
for bad in (lambda: nn.TripletMarginWithDistanceLoss(margin=0), lambda: F.triplet_margin_with_distance_loss(a, p, n[0]),
            lambda: F.triplet_margin_with_distance_loss(a, p, n, reduction="avg"),
            lambda: F.triplet_margin_with_distance_loss(a, p, n, margin=-1.0)):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
