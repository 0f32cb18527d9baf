from dataclasses import dataclass

import torch


@dataclass
class Config:
    lr: float = 0.1
    epochs: int = 3
    name: str = "run"


cfg = Config(epochs=2)
print(cfg)
print(cfg.lr, cfg.epochs, cfg == Config(epochs=2), cfg == Config())
w = torch.tensor(2.0, requires_grad=True)
for epoch in range(cfg.epochs):
    loss = (w - 5) ** 2
    loss.backward()
    with torch.no_grad():
        w -= cfg.lr * w.grad
        w.grad.zero_()
    print(f"{cfg.name} epoch {epoch}: w={w.item():.4f}")
