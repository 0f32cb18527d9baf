import torch


class NoForward(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(2, 2)


model = NoForward()
print(model)
model(torch.ones(2))
