# Optimizer state as torch keeps it: state_dict() (state by parameter index, step as a float32 tensor, param_groups
# with params last), optimizer.state, and load_state_dict() resuming Adam exactly.
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh(), torch.nn.Linear(2, 1))
x = torch.randn(4, 3)
y = torch.randn(4, 1)
for opt in [torch.optim.SGD(model.parameters(), lr=0.1), torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9),
            torch.optim.Adam(model.parameters(), lr=0.01), torch.optim.RMSprop(model.parameters(), lr=0.01, momentum=0.5),
            torch.optim.Adagrad(model.parameters())]:
    for _ in range(2):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    sd = opt.state_dict()
    print(sd)
    print(len(opt.state), list(opt.state[model[0].weight].keys()) if opt.state else None)
adam = torch.optim.Adam(model.parameters(), lr=0.01)
adam.zero_grad(); torch.nn.functional.mse_loss(model(x), y).backward(); adam.step()
saved = adam.state_dict()
other = torch.optim.Adam(model.parameters(), lr=0.5)
other.load_state_dict(saved)
print(other.param_groups[0]["lr"], other.state_dict()["state"][0]["step"])
other.zero_grad(); torch.nn.functional.mse_loss(model(x), y).backward(); other.step()
print(model[0].weight, other.state_dict()["state"][3]["exp_avg"])
