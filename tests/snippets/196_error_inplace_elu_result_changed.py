import torch
import torch.nn.functional as F

# F.elu(h, inplace=True) saves its result (EluBackward1): changing h afterwards fails backward, as for exp_
x = torch.tensor([[-1.0, 2.0], [3.0, -4.0]], dtype=torch.float64, requires_grad=True)
h = x * 0.3
y = F.elu(h, inplace=True)
print(y is h, h)
h.add_(1)
h.sum().backward()
