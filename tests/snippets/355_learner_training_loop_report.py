import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.linspace(-1, 1, 20).unsqueeze(1)
Y = 3 * X + 0.5
model = nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()
log = []
for epoch in range(1, 31):
    optimizer.zero_grad()
    loss = loss_fn(model(X), Y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        log.append((epoch, round(loss.item(), 6)))
        print(f"epoch {epoch:3d} | loss {loss.item():.6f} | w {model.weight.item():+.4f} b {model.bias.item():+.4f}")
print(log)
w, b = model.weight.item(), model.bias.item()
print("w=%.3f, b=%.3f" % (w, b), "{:.2%}".format(abs(w - 3) / 3))
