import torch

pred = torch.tensor([2.5, 0.0, 2.0, 8.0], requires_grad=True)
target = torch.tensor([3.0, -0.5, 2.0, 7.0])
loss = torch.nn.functional.l1_loss(pred, target)
print(loss)
loss.backward()
print(pred.grad)
