# The example in the documentation of torch.distributions.Normal (PyTorch 2.13's docstring, torch/distributions/normal.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing.
import torch
from torch.distributions import Normal

torch.manual_seed(0)

m = Normal(torch.tensor([0.0]), torch.tensor([1.0]))
print(m.sample())  # normally distributed with loc=0 and scale=1
