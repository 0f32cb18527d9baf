import torch
fns = {"hann": torch.hann_window, "hamming": torch.hamming_window, "bartlett": torch.bartlett_window,
       "blackman": torch.blackman_window}
total = 0
for name, fn in fns.items():
    for n in range(0, 70):
        for periodic in (True, False):
            for dtype in (torch.float32, torch.float64):
                w = fn(n, periodic, dtype=dtype)
                total += 1
                if n in (0, 1, 5, 8):
                    print(name, n, periodic, w)
                else:
                    print(name, n, periodic, dtype, w.double().sum().item(), (w * 1000003).double().sum().item())
print(torch.hamming_window(7, False, alpha=0.6, beta=0.4))
print(torch.hann_window(4, requires_grad=True))
for bad in ("torch.hann_window(-1)", "torch.hann_window(3, dtype=torch.int64)", "torch.bartlett_window(2, dtype=torch.bool)"):
    try:
        eval(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
