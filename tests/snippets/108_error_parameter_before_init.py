import torch


class Forgot(torch.nn.Module):
    def __init__(self):
        self.w = torch.nn.Parameter(torch.zeros(2))


Forgot()
