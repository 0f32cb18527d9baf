# bidirectional=True on nn.LSTM / nn.GRU / nn.RNN (one and two layers, batch_first, unbatched, given states): the
# parameters' names and initial values (torch's order: each layer's forward then _reverse tensors), the output (a
# CatBackward0 of both directions), h_n / c_n (layer by layer, forward then reverse) and the gradients; float64
# values at full precision (float32 LSTMs run through oneDNN in torch: their last bits are not reproduced).
import torch
import torch.nn as nn
torch.manual_seed(0)
for cls in (nn.LSTM, nn.GRU, nn.RNN):
    m = cls(3, 2, num_layers=2, bidirectional=True)
    print(m, [n for n, _ in m.named_parameters()])
    x = torch.randn(4, 1, 3, requires_grad=True)
    out, h = m(x)
    print(out.grad_fn, out.shape, out)
    print(h)
    out.sum().backward()
    print(x.grad)
    y, _ = m(torch.randn(4, 3))
    print(y.grad_fn, y)
m = nn.LSTM(3, 2, bidirectional=True, batch_first=True)
x = torch.randn(2, 5, 3)
out, (h, c) = m(x, (torch.randn(2, 2, 2), torch.randn(2, 2, 2)))
print(out.grad_fn, out, h, c)
for cls in (nn.GRU, nn.RNN, nn.LSTM):
    m = cls(3, 2, bidirectional=True, num_layers=2, dtype=torch.float64)
    xd = torch.randn(6, 2, 3, dtype=torch.float64, requires_grad=True)
    out, h = m(xd)
    out.pow(2).sum().backward()
    print(out.grad_fn, out.flatten().tolist())
    print(xd.grad.flatten().tolist(), m.weight_hh_l1_reverse.grad.flatten().tolist())
