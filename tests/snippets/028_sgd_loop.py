import torch

w = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
y = torch.tensor([5.0, 11.0, 17.0])
opt = torch.optim.SGD([w, b], lr=0.01)
for epoch in range(20):
    opt.zero_grad()
    loss = ((x @ w + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(epoch, round(loss.item(), 4))
print(w, b)
print(w.grad)
