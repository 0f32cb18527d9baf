# Smaller calls as torch: 0-d sort/topk/median/cummax keep their node names, sort(stable=...) is the
# SortBackward1 overload, matrix_power(A, -1) is the inverse itself, movedim of a 0-d tensor is an alias,
# multi_margin_loss of a 1-D input takes the target's shape.
import torch
torch.manual_seed(0)
x=torch.tensor(2.0,requires_grad=True)
print(torch.sort(x).values.grad_fn.name(), torch.topk(x,1).values.grad_fn.name(), torch.median(x).grad_fn.name(), torch.cummax(x,0).values.grad_fn.name(), x.median(0).values.grad_fn.name())
x=torch.randn(4,requires_grad=True)
print(torch.sort(x,stable=True).values.grad_fn.name())
print(torch.sort(x).values.grad_fn.name())
x=(torch.eye(2)*2).requires_grad_()
print(torch.linalg.matrix_power(x,-1).grad_fn.name(), torch.linalg.matrix_power(x,-2).grad_fn.name(), torch.linalg.matrix_power(x,0).grad_fn, torch.linalg.matrix_power(x,1).grad_fn.name())
x=torch.tensor(2.0,requires_grad=True)
print(torch.movedim(x,0,0))
x=torch.randn(1,3,requires_grad=True)
print(torch.nn.functional.multi_margin_loss(x[0], torch.tensor([1]), reduction='none').shape)
print(torch.nn.functional.multi_margin_loss(x, torch.tensor([1]), reduction='none').shape)
