# F.ctc_loss / torch.ctc_loss / nn.CTCLoss beyond the documentation's example: the reductions and
# zero_infinity, torch.ctc_loss's integer reduction, lengths as lists, the gradient under create_graph (torch
# defines no derivative of it), an infinite loss, and torch's errors for bad lengths and shapes.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
log_probs = torch.randn(6, 3, 5, dtype=torch.float64).log_softmax(2).detach().requires_grad_()
targets = torch.tensor([[1, 2, 2], [3, 1, 0], [4, 4, 4]])
for reduction in ("none", "mean", "sum"):
    for zero_infinity in (False, True):
        loss = F.ctc_loss(log_probs, targets, (6, 5, 2), (3, 2, 3), reduction=reduction,
                          zero_infinity=zero_infinity)
        print(reduction, zero_infinity, loss)
loss = F.ctc_loss(log_probs, targets, (6, 5, 2), (3, 2, 3), zero_infinity=True)
loss.backward()
print(log_probs.grad[:, 2])
print(log_probs.grad[1])
print(torch.ctc_loss(log_probs, torch.tensor([1, 2, 2, 3, 1]), [6, 5, 4], [3, 2, 0], 0, 2, False))
criterion = nn.CTCLoss(blank=4, reduction="sum")
print(criterion)
print(criterion(log_probs.float(), targets.clamp(max=3), torch.tensor([6, 6, 6]), torch.tensor([3, 3, 1])))
(g,) = torch.autograd.grad(F.ctc_loss(log_probs, targets, (6, 5, 6), (3, 2, 3)), log_probs, create_graph=True)
print(g.grad_fn.name(), g[0, 0])
try:
    g.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
unbatched = torch.randn(7, 4).log_softmax(1).requires_grad_()
loss = F.ctc_loss(unbatched, torch.tensor([1, 3]), torch.tensor(7), torch.tensor(2), reduction="none")
print(loss)
loss.backward()
print(unbatched.grad)
for lengths in [((7, 6, 6), (3, 2, 3)), ((6, 5, 2), (4, 2, 3)), ((6, -1, 2), (3, 2, 3)), ((6, 5), (3, 2, 3))]:
    try:
        F.ctc_loss(log_probs, targets, *lengths)
    except RuntimeError as error:
        print("RuntimeError:", error)
try:
    F.ctc_loss(log_probs, targets, torch.tensor([6.0, 5.0, 2.0]), torch.tensor([3, 2, 3]))
except RuntimeError as error:
    print("RuntimeError:", error)
F.ctc_loss(log_probs, targets, (6, 5, 2), (3, 2, 3), blank=5)
