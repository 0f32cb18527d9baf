# Indexing with a range (as d2l's cross_entropy does: y_hat[range(len(y_hat)), y]) and with an empty list.
import torch

x = torch.arange(6.).reshape(2, 3)
print(x[[]], x[range(0)], x[range(2), [0, 2]], x[range(1, 2)])
x[range(2), 1] = 9
print(x)
print(x[:, range(3)])
y_hat = torch.tensor([[0.3, 0.6, 0.1], [0.2, 0.3, 0.5]], requires_grad=True)
loss = -torch.log(y_hat[range(len(y_hat)), torch.tensor([0, 2])]).mean()
loss.backward()
print(loss, y_hat.grad)
