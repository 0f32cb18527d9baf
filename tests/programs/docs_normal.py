# The example in the documentation of torch.normal (PyTorch 2.13's docstring, torch/_torch_docs.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added.
# Cut: nothing.
import torch

torch.manual_seed(0)

print(torch.normal(mean=torch.arange(1., 11.), std=torch.arange(1, 0, -0.1)))
print(torch.normal(mean=0.5, std=torch.arange(1., 6.)))
print(torch.normal(mean=torch.arange(1., 6.)))
print(torch.normal(2, 3, size=(1, 4)))
