import torch
import torch.nn.functional as F

X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
W1 = torch.tensor([[0.5, -0.4, 0.3], [0.2, 0.6, -0.5]], requires_grad=True)
b1 = torch.zeros(3, requires_grad=True)
W2 = torch.tensor([[0.7], [-0.3], [0.4]], requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
params = [W1, b1, W2, b2]
opt = torch.optim.SGD(params, lr=0.5, momentum=0.5)
for epoch in range(60):
    hidden = F.relu(X @ W1 + b1)
    out = torch.sigmoid(hidden @ W2 + b2)
    loss = F.mse_loss(out, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 20 == 0:
        print(f"epoch {epoch:2d}  loss {loss.item():.5f}")
print(out.detach())
print([tuple(p.grad.shape) for p in params])
