# The example in the documentation of torch.func.functional_call that takes the grad transform over a model's
# parameters (PyTorch 2.13's docstring, torch/_functorch/functional_call.py), then its note's detached variant,
# as a learner runs them: the docstring's lines unchanged, torch.manual_seed(0) added.
# Added: print(...) of the gradients and of grad_weights.grad_fn (the note's `grad_weights.grad_fn  # None`).
import torch
import torch.nn as nn
from torch.func import functional_call, grad

torch.manual_seed(0)

x = torch.randn(4, 3)
t = torch.randn(4, 3)
model = nn.Linear(3, 3)


def compute_loss(params, x, t):
    y = functional_call(model, params, x)
    return nn.functional.mse_loss(y, t)


grad_weights = grad(compute_loss)(dict(model.named_parameters()), x, t)
print(grad_weights)

detached_params = {k: v.detach() for k, v in model.named_parameters()}
grad_weights = grad(compute_loss)(detached_params, x, t)
print(grad_weights)
print(grad_weights['weight'].grad_fn)  # None--it's not tracking gradients outside of grad
