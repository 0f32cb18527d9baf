# Activations of torch.nn.functional beyond relu: relu6, hardsigmoid, hardswish (at the kinks -3 and 3), softsign,
# celu, softmin, glu; values and gradients.
import torch
import torch.nn.functional as F
x = torch.tensor([[-4.0, -3.0, -1.0, 0.0], [1.5, 3.0, 5.0, 7.0]], requires_grad=True)
outs = [F.relu6(x), F.hardsigmoid(x), F.hardswish(x), F.softsign(x), F.celu(x), F.celu(x, alpha=2.0), torch.celu(x, 0.5), F.softmin(x, dim=1), F.glu(x), F.glu(x, dim=0)]
for o in outs:
    print(o)
sum((o * torch.arange(o.numel()).reshape(o.shape)).sum() for o in outs).backward()
print(x.grad)
