# torch.nn.functional layers and losses: layer/batch/group norm, pad (constant, reflect, replicate, circular),
# embedding, conv1d/conv2d, max/avg pooling, prelu, pairwise_distance, and the margin and likelihood losses.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
w4 = torch.randn(4, dtype=torch.float64, requires_grad=True)
b4 = torch.randn(4, dtype=torch.float64, requires_grad=True)
w3 = torch.randn(3, dtype=torch.float64, requires_grad=True)
b3 = torch.randn(3, dtype=torch.float64, requires_grad=True)
img = torch.randn(2, 2, 5, 5, dtype=torch.float64, requires_grad=True)
k2 = torch.randn(3, 2, 3, 3, dtype=torch.float64, requires_grad=True)
k1 = torch.randn(5, 3, 2, dtype=torch.float64, requires_grad=True)
bias5 = torch.randn(5, dtype=torch.float64, requires_grad=True)
emb = torch.randn(6, 3, dtype=torch.float64, requires_grad=True)
t = torch.rand(2, 3, 4, dtype=torch.float64)
same = F.conv1d(x, k1, padding="same")
rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)
outs = {
  "conv_same": same, "ln": F.layer_norm(x, (4,), w4, b4), "ln2": F.layer_norm(x, (3, 4)), "bn_train": F.batch_norm(x, rm, rv, w3, b3, training=True),
  "bn_eval": F.batch_norm(x, rm, rv, w3, b3), "gn": F.group_norm(x, 3, w3, b3), "gn1": F.group_norm(x, 1),
  "pad": F.pad(x, (1, 2)), "pad2": F.pad(x, (1, 0, 0, 2), value=-1.0), "pad_neg": F.pad(x, (-1, 1)), "reflect": F.pad(x, (2, 1), mode="reflect"),
  "replicate": F.pad(x, (1, 2), mode="replicate"), "reflect2": F.pad(img, (1, 1, 2, 0), mode="reflect"), "circular": F.pad(x, (1, 2), mode="circular"),
  "emb": F.embedding(torch.tensor([[0, 2, 2], [5, 1, 0]]), emb), "emb_pad": F.embedding(torch.tensor([0, 2, 2]), emb, padding_idx=2),
  "conv1": F.conv1d(x, k1, bias5), "conv1s": F.conv1d(x, k1, stride=2, padding=1), "conv2": F.conv2d(img, k2), "conv2p": F.conv2d(img, k2, padding=1, stride=2),
  "conv2d": F.conv2d(img, k2[:, :, :2, :2], dilation=2), "conv2g": F.conv2d(img, k2[:2, :1], groups=2),
  "mp1": F.max_pool1d(x, 2), "mp2": F.max_pool2d(img, 2), "mp2s": F.max_pool2d(img, 3, stride=2, padding=1), "ap1": F.avg_pool1d(x, 3, stride=1, padding=1),
  "ap2": F.avg_pool2d(img, 2), "ap2p": F.avg_pool2d(img, 3, stride=2, padding=1, count_include_pad=False), "mp2c": F.max_pool2d(img, 2, ceil_mode=True),
  "prelu": F.prelu(x, torch.tensor([0.25], dtype=torch.float64)), "prelu3": F.prelu(x, w3), "pd": F.pairwise_distance(x[0], x[1]), "pd1": F.pairwise_distance(x[0], t[0], p=1, keepdim=True),
  "poisson": F.poisson_nll_loss(x, t), "poisson_full": F.poisson_nll_loss(x.exp(), t * 3, log_input=False, full=True, reduction="sum"),
  "gauss": F.gaussian_nll_loss(x, t, t + 0.5), "gauss_full": F.gaussian_nll_loss(x, t, (x * 0 + 1).detach() * 2, full=True, reduction="none"),
  "mrl": F.margin_ranking_loss(x, t, torch.sign(t - 0.5), margin=0.1), "hel": F.hinge_embedding_loss(x, torch.sign(t - 0.5)), "sml": F.soft_margin_loss(x, torch.sign(t - 0.5)),
  "tml": F.triplet_margin_loss(x[0], x[1], t[0]), "tml_swap": F.triplet_margin_loss(x[0], x[1], t[0], swap=True, p=1),
  "cel": F.cosine_embedding_loss(x[0], x[1], torch.tensor([1, -1, 1])), "mml": F.multi_margin_loss(x[0], torch.tensor([1, 0, 3])), "mml2": F.multi_margin_loss(x[0], torch.tensor([1, 0, 3]), p=2, margin=0.5, reduction="none"),
}
total = 0
for k, v in outs.items():
    print(k, v)
    total = total + (v * torch.arange(v.numel(), dtype=torch.float64).reshape(v.shape).cos()).sum()
total.backward()
for p in (x, w4, b4, w3, b3, img, k2, k1, bias5, emb):
    print(p.grad)
print(rm, rv, F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[1], [0]]), num_classes=3))
