# Tensor.register_post_accumulate_grad_hook: after .grad is accumulated (the optimizer-in-backward pattern),
# its errors, and removal; torch.func.vjp of a dict output; grad's has_aux handing an input back.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 2)
seen = []
handles = [p.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone())) for p in model.parameters()]
for p in model.parameters():
    p.register_post_accumulate_grad_hook(lambda p: p.sub_(0.1 * p.grad))
x = torch.randn(4, 3, requires_grad=True)
model(x).pow(2).sum().backward()
print(len(seen), seen[0], seen[1])
print(model.weight, model.bias)
handles[0].remove()
model(x).sum().backward()
print(len(seen), seen[-1], model.bias.grad)
for t in (torch.ones(2), x * 2):
    try:
        t.register_post_accumulate_grad_hook(print)
    except RuntimeError as e:
        print(e)
w = torch.ones(2, requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("hook", p.grad, torch.is_grad_enabled()))
(w * w).sum().backward(create_graph=True)
(w * 3).sum().backward()
out, vjp_fn = torch.func.vjp(lambda t: {"a": t.sin(), "b": t * 2}, torch.tensor([0.5, 1.0]))
print(out, vjp_fn({"a": torch.ones(2), "b": torch.tensor([1.0, -1.0])}))
y = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.func.grad(lambda t: ((t ** 2).sum(), t), has_aux=True)(y))
print(torch.func.grad(lambda t: ((t ** 2).sum(), t), has_aux=True)(y.detach()))
