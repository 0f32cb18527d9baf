"""Small programs for the constructs the docstring corpus (tests/programs/docs_*.py) needed, beyond what the corpus
programs themselves print: each is run by PyTorch 2.13 (scripts/make_docs_construct_goldens.py records
tests/goldens/docs_constructs.json) and by `gradcli run` (tests/run/test_docs_constructs.py)."""

_TRAIN = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x, y = torch.randn(6, 3), torch.randn(6, 1)
def train():
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
"""

CASES: dict[str, str] = {
    "lr_constant": _TRAIN + """sched = torch.optim.lr_scheduler.ConstantLR(optimizer, factor=0.5, total_iters=4)
for epoch in range(8):
    train()
    sched.step()
    print(epoch, sched.get_last_lr(), sched.last_epoch)
""",
    "lr_linear": _TRAIN + """sched = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.05, total_iters=7)
for epoch in range(10):
    train()
    sched.step()
    print(epoch, sched.get_last_lr())
print(model.weight)
""",
    "lr_polynomial": _TRAIN + """sched = torch.optim.lr_scheduler.PolynomialLR(optimizer, total_iters=6, power=0.9)
for epoch in range(9):
    train()
    sched.step()
    print(epoch, sched.get_last_lr())
""",
    "lr_multiplicative": _TRAIN + """from torch.optim.lr_scheduler import MultiplicativeLR
sched = MultiplicativeLR(optimizer, lr_lambda=lambda e: 0.95)
for epoch in range(5):
    train()
    sched.step()
    print(epoch, sched.get_last_lr())
""",
    "lr_closed_form_epoch": _TRAIN + """sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.5)
train()
sched.step(7)
print(sched.get_last_lr())
sched2 = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10, eta_min=0.001)
sched2.step(4)
print(sched2.get_last_lr(), optimizer.param_groups[0]['lr'])
""",
    "lr_step_before_optimizer_warns": _TRAIN + """sched = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=0.5)
sched.step()
print(sched.get_last_lr())
print(sched.get_lr())
""",
    "lr_cosine_restart_branch": _TRAIN + """sched = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=3)
for epoch in range(10):
    train()
    sched.step()
    print(epoch, sched.get_last_lr())
""",
    "lr_onecycle_adam_linear_three_phase": """import torch
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.3], total_steps=12, anneal_strategy='linear',
                                            three_phase=True)
for i in range(12):
    opt.zero_grad()
    (w ** 2).sum().backward()
    opt.step()
    sched.step()
    print(i, sched.get_last_lr(), opt.param_groups[0]['betas'])
print(w)
""",
    "lr_plateau_max_abs_cooldown": _TRAIN + """from torch.optim.lr_scheduler import ReduceLROnPlateau
sched = ReduceLROnPlateau(optimizer, 'max', factor=0.5, patience=1,
                          threshold=0.01, threshold_mode='abs', cooldown=2, min_lr=0.01)
for i, m in enumerate([1.0, 1.0, 1.0, 1.0, 0.5, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]):
    sched.step(torch.tensor(m))
    print(i, optimizer.param_groups[0]['lr'], sched.num_bad_epochs)
""",
    "lr_lambda_wrong_count": _TRAIN + """from torch.optim.lr_scheduler import LambdaLR
sched = LambdaLR(optimizer, lr_lambda=[lambda e: 1.0, lambda e: 2.0])
""",
    "clip_norm_many_params_float32": """import torch
torch.manual_seed(0)
ps = [torch.randn(n, requires_grad=True) for n in (1, 7, 64, 1000, 4099)]
for p in ps:
    (p * p.sin()).sum().backward()
print(torch.nn.utils.clip_grad_norm_(ps, 3.0))
print([p.grad[:3] for p in ps])
print(torch.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=1))
print(torch.nn.utils.clip_grad_norm_(ps, 0.3, norm_type=float('inf')))
print(torch.nn.utils.clip_grad_norm_(ps, 0.3, norm_type=0.5))
print(ps[3].grad[:5])
""",
    "clip_norm_float64_single_tensor_and_mixed": """import torch
torch.manual_seed(0)
w = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
(w ** 3).sum().backward()
print(torch.nn.utils.clip_grad_norm_(w, 2.0))
print(w.grad)
v = torch.randn(4, requires_grad=True)
(v.exp()).sum().backward()
print(torch.nn.utils.get_total_norm([v.grad, w.grad]))
print(torch.nn.utils.clip_grad_norm_([v, w], 1e-3, norm_type=3.0))
print(v.grad, w.grad[0])
""",
    "clip_norm_nonfinite_and_empty": """import torch
w = torch.tensor([1.0, float('inf')], requires_grad=True)
(w * 2).sum().backward()
print(torch.nn.utils.clip_grad_norm_([w], 1.0))
print(w.grad)
x = torch.zeros(2, requires_grad=True)
print(torch.nn.utils.clip_grad_norm_([x], 1.0))
print(torch.nn.utils.clip_grad_norm_((p for p in []), 1.0))
w.grad = torch.tensor([1.0, float('nan')])
torch.nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
""",
    "clip_norm_small_params_float32": """import torch
torch.manual_seed(0)
ps = [torch.randn(n, requires_grad=True) for n in (1, 3, 7, 15)]
for p in ps:
    (p * p.sin()).sum().backward()
print(torch.nn.utils.clip_grad_norm_(ps, 3.0))
print([p.grad for p in ps])
print(torch.nn.utils.clip_grad_norm_(ps, 1.0, norm_type=1))
print(torch.nn.utils.clip_grad_norm_(ps, 0.3, norm_type=float('inf')))
print(torch.nn.utils.clip_grad_norm_(ps, 0.3, norm_type=0.5))
print(ps[3].grad)
""",
    "clip_value": """import torch
torch.manual_seed(0)
w = torch.randn(3, 4, requires_grad=True)
(w ** 2).sum().backward()
torch.nn.utils.clip_grad_value_([w], clip_value=0.5)
print(w.grad)
torch.nn.utils.clip_grad_value_(w, 0.25)
print(w.grad)
""",
    "once_differentiable_first_order_and_twice": """import torch
from torch.autograd.function import once_differentiable
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print(torch.is_grad_enabled())
        return 2 * x * g
x = torch.tensor([1.5, -2.0], requires_grad=True)
y = Square.apply(x).sum()
y.backward()
print(x.grad)
(gx,) = torch.autograd.grad(Square.apply(x).sum(), x)
print(gx, gx.requires_grad)
(gx,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
gx.sum().backward()
""",
    "typing_and_ordered_dict": """import torch
import torch.nn as nn
from collections import OrderedDict
from typing import Any, Tuple, List
def f(x: torch.Tensor, k: Tuple[int, ...]) -> List[Any]:
    return [x * k[0]]
print(f(torch.ones(2), (3,)))
d = OrderedDict([("b", 1), ("a", 2)])
d["c"] = 3
d.move_to_end("b")
print(d, list(d.keys()))
torch.manual_seed(0)
seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.Tanh())]))
print(seq, seq(torch.ones(1, 2)))
""",
    "containers_dicts_and_parameter_lists": """import torch
import torch.nn as nn
torch.manual_seed(0)
pl = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3, dtype=torch.float64))])
pl.append(torch.randn(1, 2))
print(pl, len(pl), pl[-1].requires_grad, [n for n, _ in pl.named_parameters()])
print(pl[0], pl[1:])
pd = nn.ParameterDict({"a": torch.ones(1)})
pd["b"] = nn.Parameter(torch.zeros(2, 2, dtype=torch.float64))
print(pd, "a" in pd, len(pd), list(pd.keys()), list(pd.state_dict().keys()))
md = nn.ModuleDict({"lin": nn.Linear(2, 3)})
md.update([["act", nn.ReLU()]])
md["out"] = nn.Linear(3, 1)
print(md, list(md.keys()), "act" in md, len(md))
print([n for n, _ in md.named_parameters()])
x = torch.ones(1, 2)
for k in md:
    x = md[k](x)
print(x)
md.update([["bad"]])
""",
    "init_more": """import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(4, 6)
print(nn.init.trunc_normal_(w, mean=0.5, std=2.0, a=-1.0, b=1.5))
print(nn.init.trunc_normal_(torch.empty(3, 7), a=2.0, b=3.0))
print(nn.init.trunc_normal_(torch.empty(20, dtype=torch.float64), std=0.02))
print(nn.init.kaiming_normal_(torch.empty(2, 3, 3, 3), mode="fan_out")[1, 2])
print(nn.init.eye_(torch.empty(2, 4)), nn.init.eye_(torch.empty(3, 2)))
d = nn.init.dirac_(torch.empty(4, 2, 3), groups=2)
print(d)
d5 = nn.init.dirac_(torch.empty(2, 2, 3, 2, 3))
print(d5.sum(), d5[1, 1, 1], d5[0, 1].sum())
print(nn.init.sparse_(torch.empty(6, 3), sparsity=0.5))
lin = nn.Linear(3, 2)
nn.init.trunc_normal_(lin.weight, std=0.1)
print(lin.weight, lin.weight.requires_grad, lin.weight.grad_fn)
nn.init.kaiming_normal_(torch.empty(2, 2), mode="fan_avg")
""",
    "multilabel_margin_loss": """import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(5, 7, requires_grad=True)
y = torch.tensor([[3, 0, -1, 1, 2, 2, 2], [6, 5, 4, 3, 2, 1, 0], [-1, 0, 0, 0, 0, 0, 0], [2, 2, -1, 5, 5, 5, 5],
                  [1, 4, 6, -1, 0, 0, 0]])
for reduction in ("mean", "sum", "none"):
    loss = F.multilabel_margin_loss(x * 3, y, reduction=reduction)
    print(loss)
    g, = torch.autograd.grad(loss.sum() if reduction == "none" else loss, x)
    print(g)
l = F.multilabel_margin_loss(x, y, reduction="none")
l.backward(torch.arange(5.))
print(x.grad, l.grad_fn.name())
xd = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
ld = torch.nn.MultiLabelMarginLoss(reduction="sum")(xd, torch.tensor([[1, 2, -1, 0], [0, -1, 2, 2], [3, 1, 0, 2]]))
ld.backward()
print(ld, xd.grad)
v = torch.randn(4, requires_grad=True)
lv = F.multilabel_margin_loss(v, torch.tensor([2, 0, -1, 3]), reduction="none")
lv.backward()
print(lv, v.grad)
print(F.multilabel_margin_loss(torch.tensor(0.5), torch.tensor([0])))
F.multilabel_margin_loss(x, y + 1)
""",
    "instance_norm": """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 4, 6, requires_grad=True)
y = F.instance_norm(x)
print(y[1], y.grad_fn.name())
(y ** 3).sum().backward()
print(x.grad[2])
m = nn.InstanceNorm1d(4, track_running_stats=True, momentum=0.2)
print(m, m(x * 2 + 1)[0, 0], m.running_mean, m.running_var, m.num_batches_tracked)
m.eval()
print(m(x)[0, 1])
print(nn.InstanceNorm2d(2)(torch.randn(2, 3, 3))[1])
print(nn.InstanceNorm1d(5)(x).shape)
nn.InstanceNorm1d(4, affine=True)(torch.randn(2, 3, 5))
""",
    "adaptive_pools": """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 7, 10, requires_grad=True)
y = F.adaptive_avg_pool2d(x, (3, 4))
print(y[1, 2], y.grad_fn.name())
(y * torch.arange(12.).view(3, 4)).sum().backward()
print(x.grad[1, 2])
x.grad = None
z = nn.AdaptiveMaxPool2d((4, None))(x)
print(z[0, 0], z.grad_fn.name(), nn.AdaptiveMaxPool2d(3), nn.AdaptiveAvgPool2d((None, 2)))
z.pow(2).sum().backward()
print(x.grad[0, 0])
m, i = F.adaptive_max_pool2d(torch.tensor([[[1., 3., 3.], [float('nan'), 0., 5.]]]), 1, return_indices=True)
print(m, i)
print(F.adaptive_avg_pool2d(torch.randn(3, 5, 6, dtype=torch.float64), 4))
""",
}
