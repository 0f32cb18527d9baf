# torch.func.functional_call with a model's parameters as a dict (and a (params, buffers) tuple), torch.func.grad
# of a dict of parameters, and vmap over dicts (in_dims None / 0) giving a dict: the per-sample-gradients and
# ensembling tutorials' pattern, on a small CNN (its gradient needs no double backward of the convolution).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        return F.log_softmax(self.fc(torch.flatten(F.relu(self.conv(x)), 1)), dim=1)


model = Net()
data = torch.randn(4, 1, 4, 4)
targets = torch.tensor([0, 2, 1, 2])
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
doubled = {k: 2 * v for k, v in params.items()}

print(functional_call(model, doubled, (data[:2],)))
print(functional_call(model, (doubled, buffers), data[:1]))
print(model.fc.weight.requires_grad, model(data[:1]))  # the module's own parameters are back


def compute_loss(params, buffers, sample, target):
    predictions = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.nll_loss(predictions, target.unsqueeze(0))


g = grad(compute_loss)(params, buffers, data[0], targets[0])
print(isinstance(g, dict), list(g), g["fc.bias"], g["fc.bias"].requires_grad)
per_sample = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for name, value in per_sample.items():
    print(name, value.shape)
print(per_sample["conv.bias"])
# torch computes these batched; gradcli one sample at a time (docs/run.md): the zeros of the relu-masked
# columns are -0.0 in the unbatched computation and 0.0 in torch's batched one, so the nonzero columns are printed
print(per_sample["fc.weight"][3][:, :2])

stacked = {k: torch.stack([v, 2 * v]) for k, v in params.items()}
print(vmap(lambda p, x: functional_call(model, p, (x,)), in_dims=(0, None))(stacked, data[:1]))
