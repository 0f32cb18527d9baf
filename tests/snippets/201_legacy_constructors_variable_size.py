import torch
from torch.autograd import Variable

torch.manual_seed(0)
print(torch.LongTensor([1, 2]), torch.FloatTensor([[1, 2], [3, 4]]), torch.DoubleTensor([1.5]))
print(torch.IntTensor([1.7, -2.9]), torch.BoolTensor([0, 1, 2]), torch.LongTensor(2, 3).shape)
print(torch.Tensor([1, 2]), torch.Tensor(2, 3).shape, torch.Tensor(), torch.FloatTensor(torch.Size([2])).shape)
t = torch.randn(3)
v = Variable(t)
print(v, v.requires_grad, v.grad_fn)
w = Variable(t, requires_grad=True)
(w * 2).sum().backward()
print(w.grad, t.requires_grad)
v.add_(1)
print(t)  # Variable shares its data's storage
x = torch.randn(size=(), requires_grad=True)
print(x, torch.zeros(size=(2, 3)), torch.ones(size=[2]), torch.rand(size=(1, 2)), torch.empty(size=(0,)))
print(torch.randn(size=(2, 2), dtype=torch.float64), torch.zeros((2,), dtype=torch.long), torch.ones([1, 2]))
print(isinstance(v, torch.Tensor), type(torch.LongTensor([1])))
