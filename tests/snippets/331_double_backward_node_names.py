# The nodes torch records when a gradient itself is differentiated (create_graph=True, the double-backward trick
# of torch.autograd.functional.jvp): sum's and mean's backward unsqueeze and expand, unsqueeze's squeezes.
import torch

torch.manual_seed(0)
x = torch.rand(3, 4, 2)
cases = {
    "sum()": lambda t: t.sum(),
    "sum(1)": lambda t: t.sum(1),
    "sum((0, 2))": lambda t: t.sum((0, 2)),
    "sum(1, keepdim)": lambda t: t.sum(1, keepdim=True),
    "mean()": lambda t: t.mean(),
    "mean(1)": lambda t: t.mean(1),
    "mean((0, 2))": lambda t: t.mean((0, 2)),
    "mean(-1, keepdim)": lambda t: t.mean(-1, keepdim=True),
    "unsqueeze(1)": lambda t: t.unsqueeze(1),
    "squeeze(1)": lambda t: t[:, :1].squeeze(1),
    "squeeze()": lambda t: t[:1].squeeze(),
}
for name, f in cases.items():
    i = x.clone().requires_grad_()
    out = f(i.exp())
    go = torch.zeros_like(out, requires_grad=True)
    gi, = torch.autograd.grad(out, i, go, create_graph=True)
    r, = torch.autograd.grad(gi, go, torch.ones_like(gi), create_graph=True)
    chain = []
    fn = r.grad_fn
    while fn is not None and len(chain) < 6:
        chain.append(fn.name())
        fn = fn.next_functions[0][0] if fn.next_functions else None
    print(name, gi.grad_fn.name(), chain, r.sum().item())
