# Last bits PyTorch's CPU kernels decide: MKL's sqrt (float32 and float64), SLEEF's exp inside sigmoid and
# silu (vector lanes) and the C library's on the tail, digamma's float arithmetic, and the fused multiply-adds
# of float64 optimiser updates; cdist's matrix-product path ends in the same sqrt.
import torch

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    x = torch.rand(70, dtype=dtype) * 9 + 0.01
    print(x.sqrt().tolist())
    print((x ** 0.5).tolist())
    z = (torch.randn(45, dtype=dtype) * 4).requires_grad_()
    torch.sigmoid(z).backward(torch.ones(45, dtype=dtype))
    print(torch.sigmoid(z).tolist(), z.grad.tolist())
    z.grad = None
    torch.nn.functional.silu(z).sum().backward()
    print(torch.nn.functional.silu(z).tolist(), z.grad.tolist())
    d = (torch.rand(40, dtype=dtype) * 0.2 + 1.38).requires_grad_()
    torch.digamma(d).sum().backward()
    print(torch.digamma(d).tolist(), d.grad.tolist())
    a = torch.randint(-5, 6, (30, 3)).to(dtype)
    b = torch.randint(-5, 6, (28, 3)).to(dtype)
    print(torch.cdist(a, b)[:4].tolist())
print(torch.sigmoid(torch.tensor([-710.0], dtype=torch.float64)).tolist())

# float64 updates fuse their multiply-adds; float32 fused=True takes the correctly rounded sqrt
for dtype, fused in ((torch.float64, None), (torch.float32, True)):
    torch.manual_seed(1)
    w = torch.randn(64, dtype=dtype, requires_grad=True)
    optimizers = [("Adam", torch.optim.Adam([w], lr=0.05, fused=fused)),
                  ("Adagrad", torch.optim.Adagrad([w], lr=0.05, fused=fused))]
    if fused is None:
        optimizers += [("RMSprop", torch.optim.RMSprop([w], lr=0.01, centered=True, momentum=0.5)),
                       ("SGD", torch.optim.SGD([w], lr=0.01, momentum=0.9, weight_decay=0.1))]
    for name, opt in optimizers:
        for step in range(15):
            opt.zero_grad()
            loss = ((w - 0.3) ** 2 * (w + 1.7)).sum()
            loss.backward()
            opt.step()
        print(name, w.tolist())
