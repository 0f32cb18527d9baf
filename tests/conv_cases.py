"""Small programs for the convolution layers beyond the docstring corpus (nn.Conv3d, nn.ConvTranspose1d/2d/3d and
F.conv3d / F.conv_transpose1d/2d/3d): printed forms, seeded values and gradients, output_size=, padding modes and
the error texts of invalid arguments.  Each is run by PyTorch 2.13 (scripts/make_conv_goldens.py records
tests/goldens/conv_programs.json) and by `gradcli run` (tests/run/test_conv_programs.py)."""


def _errors(header: str, calls: list[str]) -> str:
    """A program printing the exception type and text of each call (each in its own try)."""
    lines = [header]
    for call in calls:
        lines += ["try:", f"    {call}", "    print('no error')", "except Exception as e:",
                  "    print(type(e).__name__ + ':', e)"]
    return "\n".join(lines) + "\n"


_HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ntorch.manual_seed(0)"

CASES: dict[str, str] = {
    "module_reprs": _HEADER + """
print(nn.Conv3d(16, 33, 3, stride=2))
print(nn.Conv3d(4, 8, (3, 5, 2), stride=(2, 1, 1), padding=(4, 2, 0), dilation=2, groups=2, bias=False,
                padding_mode='reflect'))
print(nn.Conv3d(2, 2, 3, padding='same', padding_mode='circular'))
print(nn.ConvTranspose1d(16, 33, 3, stride=2))
print(nn.ConvTranspose2d(4, 6, (3, 5), stride=(2, 1), padding=(4, 2), output_padding=(1, 0), groups=2,
                         dilation=(1, 2), bias=False))
m = nn.ConvTranspose3d(4, 6, 3, stride=2, output_padding=1)
print(m)
print(m.weight.shape, m.bias.shape, m.transposed, m.output_padding, m.padding, m.kernel_size, m.stride)
c = nn.Conv3d(4, 6, 2)
print(c.weight.shape, c.transposed, c.output_padding, c.padding_mode)
print(nn.Sequential(nn.Conv3d(1, 2, 3), nn.ReLU(), nn.ConvTranspose3d(2, 1, 3)))
""",
    "conv3d_values_and_grads": _HEADER + """
m = nn.Conv3d(2, 3, (2, 3, 2), stride=(1, 2, 1), padding=(1, 0, 1))
x = torch.randn(2, 2, 3, 5, 4, requires_grad=True)
y = m(x)
print(y.shape, y.grad_fn)
print(y[0, :, 1])
(y * torch.randn(y.shape)).sum().backward()
print(x.grad[1, 0])
print(m.weight.grad[2])
print(m.bias.grad)
u = nn.Conv3d(2, 2, 2, groups=2, bias=False)(torch.randn(2, 3, 3, 3))
print(u.shape, u.grad_fn)
print(u)
""",
    "conv3d_float64": _HEADER + """
m = nn.Conv3d(3, 2, 2, dilation=(1, 2, 1), dtype=torch.float64)
x = torch.randn(1, 3, 3, 5, 3, dtype=torch.float64, requires_grad=True)
y = m(x)
print(y)
y.pow(2).sum().backward()
print(x.grad[0, 1])
print(m.weight.grad[1])
print(m.bias.grad)
""",
    "conv_transpose_values_and_grads": _HEADER + """
for m, shape in [(nn.ConvTranspose1d(3, 4, 3, stride=2, padding=1, output_padding=1), (2, 3, 5)),
                 (nn.ConvTranspose2d(4, 2, (2, 3), stride=(2, 1), groups=2, dilation=(1, 2)), (2, 4, 3, 3)),
                 (nn.ConvTranspose3d(2, 3, 2, stride=2, padding=(1, 0, 0)), (1, 2, 2, 3, 2)),
                 (nn.ConvTranspose1d(16, 4, 3, stride=2), (4, 16, 6))]:
    x = torch.randn(shape, requires_grad=True)
    y = m(x)
    print(y.shape, y.grad_fn)
    print(y.flatten()[:8])
    (y * torch.randn(y.shape)).sum().backward()
    print(x.grad.flatten()[:6])
    print(m.weight.grad.flatten()[:6])
    print(m.bias.grad)
""",
    "conv_transpose_unbatched": _HEADER + """
for m, shape in [(nn.ConvTranspose1d(3, 2, 3, stride=2), (3, 4)), (nn.ConvTranspose2d(3, 2, 2), (3, 2, 3)),
                 (nn.ConvTranspose3d(2, 2, 2), (2, 2, 2, 2))]:
    x = torch.randn(shape, requires_grad=True)
    y = m(x)
    print(y.shape, y.grad_fn)
    y.sum().backward()
    print(x.grad)
""",
    "output_size": _HEADER + """
input = torch.randn(1, 16, 12)
downsample = nn.Conv1d(16, 16, 3, stride=2, padding=1)
upsample = nn.ConvTranspose1d(16, 16, 3, stride=2, padding=1)
h = downsample(input)
print(upsample(h).shape)
print(upsample(h, output_size=input.size()).shape)
print(upsample(h, output_size=[11]).shape, upsample(h, output_size=(1, 16, 12)).shape)
up2 = nn.ConvTranspose2d(3, 2, 3, stride=3)
x2 = torch.randn(2, 3, 4, 5)
for size in [(12, 15), (14, 17), [13, 16], torch.Size([2, 2, 12, 16])]:
    print(up2(x2, output_size=size).shape)
up3 = nn.ConvTranspose3d(2, 2, 2, stride=(2, 3, 1), dilation=(1, 1, 2))
x3 = torch.randn(2, 3, 3, 3)
print(up3(x3, output_size=[7, 9, 5]).shape)
print(up3(x3, output_size=(2, 6, 7, 5)).shape)
y = up2(x2, output_size=[12, 15])
y.sum().backward()
print(up2.weight.grad[0, 0])
""",
    "padding_modes": _HEADER + """
x1 = torch.randn(2, 2, 6, requires_grad=True)
x2 = torch.randn(1, 2, 5, 6, requires_grad=True)
x3 = torch.randn(1, 2, 3, 4, 5, requires_grad=True)
for mode in ['zeros', 'reflect', 'replicate', 'circular']:
    for conv, x in [(nn.Conv1d(2, 3, 3, padding=2, padding_mode=mode), x1),
                    (nn.Conv2d(2, 3, (3, 2), padding=(1, 1), stride=(2, 1), padding_mode=mode), x2),
                    (nn.Conv3d(2, 2, 2, padding=1, padding_mode=mode), x3),
                    (nn.Conv2d(2, 2, (3, 4), padding='same', padding_mode=mode), x2),
                    (nn.Conv3d(2, 2, (2, 3, 2), padding='same', dilation=(1, 1, 2), padding_mode=mode), x3)]:
        x.grad = None
        y = conv(x)
        y.pow(2).sum().backward()
        print(mode, tuple(y.shape), y.grad_fn, y.flatten()[:4], x.grad.flatten()[:4])
""",
    "functional_forms": _HEADER + """
x = torch.randn(1, 4, 3, 4, 5)
w = torch.randn(6, 2, 2, 2, 2)
print(F.conv3d(x, w, groups=2).shape, F.conv3d(x, w, None, 1, 'same', 1, 2).shape)
print(F.conv3d(x, w, stride=(1, 2, 3), padding=(1, 0, 2), groups=2).shape)
print(F.conv3d(x, w, padding='valid', groups=2)[0, 0, 0])
print(torch.conv3d(x, w, None, 1, 0, 1, 2).shape)
t = torch.randn(1, 4, 3)
print(F.conv_transpose1d(t, torch.randn(4, 2, 3), stride=2, output_padding=1).shape)
print(torch.conv_transpose1d(t, torch.randn(4, 2, 3), None, 2).shape)
print(torch.conv_transpose3d(x, torch.randn(4, 1, 2, 2, 2), groups=4).shape)
print(F.conv_transpose3d(x, torch.randn(4, 1, 2, 2, 2), None, (1, 2, 1), 0, (0, 1, 0), 2, (2, 1, 1)).shape)
""",
    "module_errors": _errors(_HEADER, [
        "nn.Conv3d(4, 6, 3, groups=4)",
        "nn.Conv3d(5, 6, 3, groups=2)",
        "nn.Conv3d(4, 6, 3, groups=0)",
        "nn.Conv3d(4, 8, 3, padding='full')",
        "nn.Conv3d(4, 8, 3, stride=2, padding='same')",
        "nn.Conv3d(4, 8, 3, padding_mode='mirror')",
        "nn.Conv1d(4, 8, 3, padding_mode='constant')",
        "nn.ConvTranspose2d(4, 8, 3, padding_mode='reflect')",
        "nn.ConvTranspose1d(4, 8, 3, padding_mode='mirror')",
        "nn.ConvTranspose3d(4, 6, 3, groups=4)",
        "nn.ConvTranspose1d(4, 4, 3, stride=2, padding=1)(torch.randn(1, 4, 6), output_size=[13])",
        "nn.ConvTranspose1d(4, 4, 3, stride=2, padding=1)(torch.randn(1, 4, 6), output_size=[10])",
        "nn.ConvTranspose1d(4, 4, 3, stride=2, padding=1)(torch.randn(1, 4, 6), output_size=torch.Size([1, 4, 9]))",
        "nn.ConvTranspose2d(4, 4, 3, stride=2)(torch.randn(1, 4, 3, 3), output_size=[7, 7, 7])",
        "nn.ConvTranspose2d(4, 4, 3, stride=2)(torch.randn(4, 3, 3), output_size=[1, 4, 7, 9])",
        "nn.ConvTranspose3d(4, 4, 2, stride=2)(torch.randn(1, 4, 2, 2, 2), output_size=(4, 5, 6))",
        "nn.Conv3d(4, 6, 3)(torch.randn(2, 3, 5, 5, 5))",
        "nn.Conv3d(4, 6, 3)(torch.randn(2, 4, 5, 5))",
        "nn.Conv3d(4, 6, 3)(torch.randn(1, 4, 2, 5, 5))",
        "nn.ConvTranspose3d(4, 6, 3)(torch.randn(2, 3, 5, 5, 5))",
        "nn.ConvTranspose1d(4, 6, 3)(torch.randn(4, 4, 5, 5))",
    ]),
    "functional_errors": _errors(_HEADER + "\nx = torch.randn(1, 2, 4, 4, 4)\nw = torch.randn(3, 2, 2, 2, 2)", [
        "F.conv3d(x, torch.randn(3, 2, 2, 2))",
        "F.conv3d(x[0, 0], w)",
        "F.conv3d(x, w, stride=0)",
        "F.conv3d(x, w, padding=-1)",
        "F.conv3d(x, w, dilation=0)",
        "F.conv3d(x, w, stride=2, padding='same')",
        "F.conv3d(x, w, padding='full')",
        "F.conv3d(x, torch.randn(3, 2, 5, 2, 2))",
        "F.conv3d(x, w, groups=2)",
        "F.conv3d(x, w, torch.randn(4))",
        "F.conv_transpose1d(torch.randn(1, 2, 4, 4), torch.randn(2, 3, 3))",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(2, 3, 3, 3))",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(2, 3, 3), stride=2, output_padding=2)",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(3, 3, 3))",
        "F.conv_transpose1d(torch.randn(1, 2, 2), torch.randn(2, 3, 2), padding=2)",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(2, 3, 3), stride=0)",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(2, 3, 3), padding=-1)",
        "F.conv_transpose1d(torch.randn(1, 2, 4), torch.randn(2, 3, 3), output_padding=-1)",
        "F.conv_transpose3d(x, torch.randn(2, 3, 2, 2, 2), output_padding=(0, 1, 0))",
        "F.conv_transpose3d(x, torch.randn(2, 3, 2, 2, 2), dilation=0)",
        "F.conv_transpose3d(x, torch.randn(3, 3, 2, 2, 2))",
        "F.conv_transpose3d(x, torch.randn(2, 3, 2, 2, 2), groups=2)",
        "F.conv_transpose3d(x[0, 0], torch.randn(2, 3, 2, 2, 2))",
        "F.conv_transpose2d(torch.randn(1, 2, 3, 3), torch.randn(2, 2, 2, 2), torch.randn(3))",
        "F.conv3d(torch.randn(2, 2, 3, 3, 3), torch.randn(2, 2, 2, 2, 2).double())",
        "F.conv3d(torch.randn(2, 2, 3, 3, 3).double(), torch.randn(2, 2, 2, 2, 2))",
        "F.conv3d(torch.randn(2, 2, 3, 3, 3), torch.randn(2, 2, 2, 2, 2), torch.randn(2).double())",
        "F.conv3d(torch.randn(1, 2, 3, 3, 3), torch.randn(2, 2, 2, 2, 2).double())",
        "F.conv_transpose2d(torch.randn(2, 2, 3, 3), torch.randn(2, 2, 2, 2).double())",
        "F.conv_transpose1d(torch.randn(2, 2, 3).double(), torch.randn(2, 2, 2))",
        "F.conv2d(torch.randn(2, 2, 3, 3), torch.randn(2, 2, 2, 2).double())",
    ]),
}
