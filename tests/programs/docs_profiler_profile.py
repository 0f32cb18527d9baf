# The example in the documentation of torch.autograd.profiler.profile (PyTorch 2.13's docstring, torch/autograd/profiler.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing.
# The profiler's table is timing: compared masked.
import torch

torch.manual_seed(0)

x = torch.randn((1, 1), requires_grad=True)
with torch.autograd.profiler.profile() as prof:
    for _ in range(100):  # any normal python code, really!
        y = x ** 2
        y.backward()
print(prof.key_averages().table(sort_by="self_cpu_time_total"))
