# torch.special: the functions gradcli has (xlog1py, entr, ndtr, multigammaln and torch.special's aliases of
# torch's own), their gradients, and a clear refusal of the rest
import torch

x = torch.tensor([0.5, -0.3, 0.0, 2.0], requires_grad=True)
y = torch.tensor([0.2, -0.5, 3.0, -1.0], requires_grad=True)
print(torch.special.xlog1py(x, y))
print(torch.special.xlog1py(2.0, y))
print(torch.special.xlog1py(x, 2.0))
print(torch.special.entr(x))
print(torch.special.ndtr(x))
print(torch.special.multigammaln(x + 3, 2))
print(torch.special.expit(x), torch.special.gammaln(x + 1), torch.special.psi(x + 1))
print(torch.special.erf(x), torch.special.erfc(x), torch.special.erfinv(x / 3), torch.special.exp2(x))
print(torch.special.expm1(x), torch.special.log1p(x), torch.special.logit(x.sigmoid()), torch.special.sinc(x))
print(torch.special.round(x), torch.special.xlogy(x, y.abs()), torch.special.logsumexp(x, 0))
print(torch.special.softmax(x, 0), torch.special.log_softmax(x, 0))
torch.special.xlog1py(x, y).sum().backward()
print(x.grad, y.grad)
x.grad = None
g, = torch.autograd.grad(torch.special.entr(x * x + 0.5).sum(), x, create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), x))
