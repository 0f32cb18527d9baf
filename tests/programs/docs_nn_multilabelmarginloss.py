# The example in the documentation of torch.nn.MultiLabelMarginLoss (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/loss.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. The value the docstring shows is printed; added: the gradient of the loss with respect to x.
import torch
import torch.nn as nn

torch.manual_seed(0)

loss = nn.MultiLabelMarginLoss()
x = torch.FloatTensor([[0.1, 0.2, 0.4, 0.8]])
# for target y, only consider labels 3 and 0, not after label -1
y = torch.LongTensor([[3, 0, -1, 1]])
# 0.25 * ((1-(0.1-0.2)) + (1-(0.1-0.4)) + (1-(0.8-0.2)) + (1-(0.8-0.4)))
print(loss(x, y))
x.requires_grad_()
loss(x, y).backward()
print(x.grad)
