import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
for step in range(3):
    loss = (x ** 2).sum()
    loss.backward()
    print(step, x.grad)
