"""`gradcli run`: torch.func.vjp / jvp and functools.partial (the jacobians_hessians tutorial), and the
create_graph value of tanh's backward (torch's TanhBackward0 runs its fused kernel on that path too).
Values against hand derivations; the tanh value against the first-order path, which the corpus pins to torch's."""

from __future__ import annotations

import io

import numpy as np

from gradcli.run import run_source


def run(source: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run_source(source, "prog.py", stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def floats(text: str) -> np.ndarray:
    return np.array([float(v) for v in text.split()])


def test_tanh_backward_with_create_graph_has_the_kernels_value():
    # seed 0's x[1] = 0.4981175661 first-order (torch's value); 1 - y*y rounded twice gave 0.4981175959
    code, out, err = run("import torch\ntorch.manual_seed(0)\nx = torch.randn(16, requires_grad=True)\n"
                         "v = torch.randn(16)\n"
                         "a = torch.autograd.grad(x.tanh(), x, v)[0]\n"
                         "b = torch.autograd.grad(x.tanh(), x, v, create_graph=True)[0]\n"
                         "print(bool((a == b).all()), b.requires_grad)\n"
                         "g, = torch.autograd.grad(b.sum(), x)\n"
                         "y = x.detach().tanh()\n"
                         "print(torch.allclose(g, -2 * y * (1 - y * y) * v))\n")
    assert (code, out, err) == (0, "True True\nTrue\n", "")


def test_vjp_and_jvp_against_hand_derivatives():
    code, out, err = run(
        "import torch\nfrom functools import partial\nfrom torch.func import vjp, jvp, grad, vmap\n"
        "x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)\n"
        "t = torch.tensor([1.0, 2.0, -3.0], dtype=torch.float64)\n"
        "def f(a, x):\n    return a * x ** 3\n"
        "out, fn = vjp(partial(f, 2.0), x)\n"
        "print(*out.tolist(), *fn(t)[0].tolist())\n"
        "p, tan = jvp(partial(f, 2.0), (x,), (t,))\n"
        "print(*p.tolist(), *tan.tolist())\n"
        "h = jvp(grad(lambda x: x.sin().sum()), (x,), (t,))[1]\n"
        "_, fn2 = vjp(grad(lambda x: x.sin().sum()), x)\n"
        "print(*h.tolist(), *fn2(t)[0].tolist())\n"
        "rows, = vmap(fn)(torch.eye(3, dtype=torch.float64))\n"
        "print(*rows.flatten().tolist(), out.requires_grad, tan.requires_grad)\n")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    x, t = np.array([0.5, -1.0, 2.0]), np.array([1.0, 2.0, -3.0])
    np.testing.assert_allclose(floats(lines[0]), np.concatenate([2 * x ** 3, 6 * x ** 2 * t]), rtol=1e-15)
    np.testing.assert_allclose(floats(lines[1]), np.concatenate([2 * x ** 3, 6 * x ** 2 * t]), rtol=1e-15)
    np.testing.assert_allclose(floats(lines[2]), np.concatenate([-np.sin(x) * t, -np.sin(x) * t]), rtol=1e-15)
    assert lines[3].split()[-2:] == ["False", "False"]
    np.testing.assert_allclose(floats(" ".join(lines[3].split()[:-2])), np.diag(6 * x ** 2).ravel(), rtol=1e-15)


def test_jvp_checks_its_arguments_as_torch_does():
    code, _, err = run("import torch\nfrom torch.func import jvp\n"
                       "jvp(lambda x: x, [torch.ones(2)], (torch.ones(2),))\n")
    assert code == 1 and err.endswith("RuntimeError: jvp(f, primals, tangents): Expected primals to be a tuple. "
                                      "E.g. it should be valid to call f(*primals).\n")


def test_torch_functional_names_torch_lacks_fail_only_when_reached():
    # modelsyt_tutorial: `import torch.functional as F`, then F.relu in a forward that never runs
    code, out, err = run("import torch\nimport torch.functional as F\ndef f(x):\n    return F.relu(x)\n"
                         "print(F.einsum('i,i', torch.ones(2), torch.ones(2)))\nf(1)\n")
    assert (code, out) == (1, "tensor(2.)\n")
    assert err.endswith("AttributeError: module 'torch.functional' has no attribute 'relu'\n")


def test_unique_sorted_with_inverse_and_counts():
    code, out, err = run("import torch\nx = torch.tensor([3, 1, 3, 2, 1])\n"
                         "print(torch.unique(x, return_inverse=True, return_counts=True))\n"
                         "print(torch.unique(torch.tensor([[1., 2.], [0., 5.], [1., 2.]]), dim=0))\n")
    assert (code, err) == (0, "")
    assert out == ("(tensor([1, 2, 3]), tensor([2, 0, 2, 1, 0]), tensor([2, 1, 2]))\n"
                   "tensor([[0., 5.],\n        [1., 2.]])\n")


def test_torch_load_of_a_file_never_saved_is_refused_and_nothing_touches_the_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("import torch\ntorch.save(torch.ones(2), 'a.pt')\nprint(torch.load('a.pt'))\n"
                         "torch.load('b.pt')\n")
    assert (code, out) == (2, "tensor([1., 1.])\n")
    assert err.startswith("gradcli run does not support torch.load('b.pt') of a file this run did not write")
    assert list(tmp_path.iterdir()) == []
    code, _, err = run("import torch\nimport torch.nn as nn\ntorch.save(nn.Linear(2, 1), 'm.pt')\n")
    assert code == 2 and "save model.state_dict()" in err
