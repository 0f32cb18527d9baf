# f-strings with format specs, conversions and nested fields around torch values
import torch

loss = torch.tensor(0.123456789)
x = torch.tensor([1.0, 2.5])
epoch, total = 3, 10
width = 10
print(f"epoch {epoch:3d}/{total} loss {loss.item():.4f} {loss.item():>10.3e}|")
print(f"{loss.item():>8.3f}|{loss.item():<8.2f}|{loss.item():^9.1%}|")
print(f"{x!r} {x!s} {'text'!r} {x.shape} {x.dtype}")
print(f"{loss:.3f} {x.sum():.2f} {7:08.3f} {255:#x} {1234567:,} {-3:+d}")
print(f"{loss.item():{width}.{3}f}|{'ab':*>{width}}|")
print(f"{[1, 2]} {dict(a=1)} {None} {True:d}")
print("%.3f %5d %s" % (loss.item(), 42, x), "{:.2f} {}".format(1.23456, "s"))
