# "Tips for Loading an nn.Module from a Checkpoint" (recipe), pytorch/tutorials
# recipes_source/recipes/module_load_state_dict_tips.py @ 06059c5e, prose dropped. Cut: nothing (it saves to
# checkpoint.pth and loads it back). It prints nothing.
import torch
from torch import nn

class SomeModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(1, 1) for i in range(10)])

    def forward(self, x):
        return self.linears(x)


m = SomeModule()
torch.save(m.state_dict(), 'checkpoint.pth')
state_dict = torch.load('checkpoint.pth', mmap=True)
with torch.device('meta'):
  meta_m = SomeModule()
meta_m.load_state_dict(state_dict, assign=True)

state_dict = torch.load('checkpoint.pth')
m = SomeModule()
m.load_state_dict(state_dict)

state_dict = torch.load('checkpoint.pth')

state_dict = torch.load('checkpoint.pth', mmap=True)

m = SomeModule()

with torch.device('meta'):
  meta_m = SomeModule()

m.load_state_dict(state_dict)

meta_m.load_state_dict(state_dict, assign=True)
