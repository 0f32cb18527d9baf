import torch

p = torch.tensor([1.5, -2.0, 0.3], requires_grad=True)
opt = torch.optim.Adam([p], lr=0.1)
for i in range(25):
    opt.zero_grad()
    loss = ((p - 1.0) ** 2).sum()
    loss.backward()
    opt.step()
    if i % 8 == 0:
        print(i, f"{loss.item():.4f}")
print(p)
