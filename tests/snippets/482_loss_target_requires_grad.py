# every loss with a target (or weight) that requires grad: torch's target gradient, or its error for an argument it
# does not differentiate (not under no_grad)
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.tensor([[0.2, -0.7, 1.1], [0.4, 0.9, -0.3]], requires_grad=True)
p = torch.tensor([[0.2, 0.7, 0.6], [0.4, 0.9, 0.3]], requires_grad=True)
t = torch.tensor([[0.5, -1.0, 1.0], [1.0, 0.25, -1.0]], requires_grad=True)
tp = torch.tensor([[0.5, 0.1, 1.0], [0.0, 0.25, 0.7]], requires_grad=True)
sgn = torch.tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], requires_grad=True)
cases = [
    ("mse", lambda: F.mse_loss(x, t)),
    ("l1", lambda: F.l1_loss(x, t)),
    ("smooth_l1", lambda: F.smooth_l1_loss(x, t)),
    ("huber", lambda: F.huber_loss(x, t)),
    ("soft_margin", lambda: F.soft_margin_loss(x, sgn)),
    ("bce", lambda: F.binary_cross_entropy(p, tp)),
    ("bce_logits", lambda: F.binary_cross_entropy_with_logits(x, tp)),
    ("kl_div", lambda: F.kl_div(x, tp, reduction='batchmean')),
    ("kl_div_log", lambda: F.kl_div(x, t, reduction='batchmean', log_target=True)),
    ("poisson_nll", lambda: F.poisson_nll_loss(x, tp)),
    ("poisson_nll_nolog", lambda: F.poisson_nll_loss(p, tp, log_input=False)),
    ("gaussian_nll", lambda: F.gaussian_nll_loss(x, t, p)),
    ("hinge_embedding", lambda: F.hinge_embedding_loss(x, sgn)),
    ("multilabel_soft_margin", lambda: F.multilabel_soft_margin_loss(x, tp)),
    ("cross_entropy_probs", lambda: F.cross_entropy(x, tp)),
    ("cross_entropy_probs_ls", lambda: F.cross_entropy(x, tp, label_smoothing=0.1)),
    ("cosine_embedding", lambda: F.cosine_embedding_loss(x, t, torch.tensor([1.0, -1.0], requires_grad=True))),
    ("margin_ranking", lambda: F.margin_ranking_loss(x[0], x[1], sgn[0])),
    ("triplet", lambda: F.triplet_margin_loss(x, t, p)),
    ("nll_weight", lambda: F.nll_loss(x, torch.tensor([0, 2]), weight=tp[0])),
    ("ce_weight", lambda: F.cross_entropy(x, torch.tensor([0, 2]), weight=tp[0])),
]
for name, f in cases:
    for v in (x, p, t, tp, sgn):
        v.grad = None
    try:
        loss = f()
        loss.backward()
        print(name, loss, [None if v.grad is None else v.grad for v in (x, p, t, tp, sgn)])
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0])
w = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
tp = torch.tensor([[0.5, 0.1, 1.0], [0.0, 0.25, 0.7]], requires_grad=True)
cases2 = [
    ("bce_w", lambda: F.binary_cross_entropy(p, tp, weight=w)),
    ("bcel_w", lambda: F.binary_cross_entropy_with_logits(x, tp, weight=w)),
    ("bcel_pw", lambda: F.binary_cross_entropy_with_logits(x, tp, pos_weight=w)),
    ("mm_w", lambda: F.multi_margin_loss(x, torch.tensor([0, 2]), weight=w)),
    ("mlsm_w", lambda: F.multilabel_soft_margin_loss(x, tp, weight=w)),
    ("ce_w_probs", lambda: F.cross_entropy(x, tp, weight=w)),
    ("nll_none", lambda: F.nll_loss(x, torch.tensor([0, 2]), weight=w, reduction='none')),
    ("soft_margin_none", lambda: F.soft_margin_loss(x, tp, reduction='none')),
    ("soft_margin_sum_nograd", lambda: F.soft_margin_loss(x, tp.detach(), reduction='sum')),
    ("soft_margin_t_only", lambda: F.soft_margin_loss(x.detach(), tp)),
    ("multilabel_margin", lambda: F.multilabel_margin_loss(x, torch.tensor([[0, 2, -1], [1, -1, 0]]))),
]
for name, f in cases2:
    for v in (x, p, w, tp):
        v.grad = None
    try:
        loss = f()
        loss.sum().backward()
        print(name, loss, [None if v.grad is None else v.grad for v in (x, p, w, tp)])
    except Exception as e:
        print(name, type(e).__name__, str(e).splitlines()[0])
img = torch.randn(2, 3, 2, 2, requires_grad=True)
try:
    F.nll_loss(img, torch.zeros(2, 2, 2, dtype=torch.long), weight=w)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    print(F.soft_margin_loss(x, sgn), F.nll_loss(x, torch.tensor([0, 2]), weight=w))
try:
    torch.nn.SoftMarginLoss()(x, sgn)
except RuntimeError as e:
    print("RuntimeError:", e)
