"""Regressions found by scripts/fuzz_differential.py (gradcli against torch 2.13, bit for bit).

Every expected value below was printed by torch 2.13 (`.tolist()`) on the input built here, as each test says.
"""
from __future__ import annotations

import numpy as np

import gradcli


def _x32() -> np.ndarray:
    return ((np.arange(32) * 0.37) % 1.3 - 0.6).astype(np.float32)


def test_var_backward_mean_in_torch_sum_order():
    # var_backward is (2 / dof) * grad * (self - self.mean(dim, keepdim=True)), torch's mean being its sum in
    # ATen's order divided by n; numpy's pairwise sum of a transposed float32 view differed in the last bit on
    # 4 of 32 elements. Recorded from torch 2.13:
    #   xt = torch.tensor(x, requires_grad=True); o = xt.reshape(4, 8).t().std(0)
    #   o.backward(torch.full(o.shape, 0.75)); print(o.tolist(), xt.grad.tolist())
    r = gradcli.grad("x.reshape(4, 8).t().std(0)", x=_x32(), grad_output=np.full(4, 0.75, np.float32),
                     dtype="float32", bits="torch", check=False)
    assert r.output.tolist() == [0.45257991552352905, 0.3933010399341583, 0.37144505977630615, 0.3933010399341583]
    assert r.grads["x"].tolist() == [
        -0.15269601345062256, -0.0651029497385025, 0.022490110248327255, 0.11008317023515701,
        -0.11008316278457642, -0.022490110248327255, 0.0651029497385025, 0.15269599854946136,
        -0.08717422187328339, 0.013620971702039242, 0.11441617459058762, -0.1389339119195938,
        -0.038138724863529205, 0.0626564770936966, 0.1634516716003418, -0.08989841490983963,
        0.0014422402018681169, 0.10816828161478043, -0.16008906066417694, -0.053363021463155746,
        0.053363021463155746, 0.16008906066417694, -0.10816828161478043, -0.0014422467211261392,
        0.08989841490983963, -0.1634516716003418, -0.0626564770936966, 0.03813872113823891,
        0.1389339119195938, -0.11441617459058762, -0.013620973564684391, 0.08717422187328339]


def _x64_nan() -> np.ndarray:
    # magnitudes from 0.1 to 10^4 (so the order of the additions shows in the last bits), one nan
    x = np.round(np.sin(np.arange(64) * 0.1) * 10.0 ** (np.arange(64) % 5), 3).astype(np.float32)
    x[3] = np.nan
    return x


def test_nansum_of_a_view_sums_in_the_views_order():
    # torch's nansum is its sum kernel reading nan as 0, so its order follows the input's layout; gradcli summed
    # a contiguous copy (np.where), which a strided view sums in another order. Recorded from torch 2.13:
    #   t = torch.tensor(x); t[::2].nansum().item(), t.reshape(4, 16)[:, ::2].nansum(1).tolist()
    x = _x64_nan()
    r = gradcli.grad("x[::2].nansum()", x=x, dtype="float32", bits="torch", check=False)
    assert float(r.output) == 662.0919189453125
    assert r.grads["x"].tolist() == [1.0 if i % 2 == 0 and i != 3 else 0.0 for i in range(64)]
    r = gradcli.grad("x.reshape(4, 16)[:, ::2].nansum(1)", x=x, dtype="float32", bits="torch", check=False,
                     grad_output=np.ones(4, np.float32))
    assert r.output.tolist() == [14585.5947265625, 8160.51904296875, -12791.404296875, -9292.6171875]


def test_median_without_dim_returns_torchs_signed_zero():
    # torch's median() runs std::nth_element on a clone of the input (memory order for a dense view), so
    # which of tied 0.0 and -0.0 it returns is libstdc++'s; numpy's partition returned the other one.
    # Recorded from torch 2.13: t = torch.tensor(x); t.median().item(), t.reshape(3, 4).t().median().item(),
    # t.reshape(3, 4).t().contiguous().median().item() are 0.0, 0.0, -0.0
    x = np.array([-0.0, -1.0, 0.0, 0.0, -1.0, -0.0, -1.0, -0.0, -1.0, 0.0, 0.0, -0.0])
    signs = [np.signbit(float(gradcli.grad(e, x=x, check=False).output)) for e in
             ("x.median()", "x.reshape(3, 4).t().median()", "x.reshape(3, 4).t().contiguous().median()")]
    assert signs == [False, False, True]


def test_mean_backward_is_contiguous_before_a_broadcast_sum():
    # torch's mean_backward divides the expanded gradient by n: a new, contiguous tensor, which the gradient of
    # a broadcast operand (x[0] below) then sums over dim 0 in a contiguous tensor's order; gradcli summed a
    # zero-stride view (another order): 16 of 17 elements were 0.062283724546432495. Recorded from torch 2.13:
    #   xt = torch.tensor(x, requires_grad=True); (xt[0] + xt).mean().backward()
    #   print(xt.grad[0].tolist(), xt.grad[1].unique().tolist())
    x = ((np.arange(289) * 0.37) % 1.3 - 0.6).astype(np.float32).reshape(17, 17)
    r = gradcli.grad("(x[0] + x).mean()", x=x, dtype="float32", bits="torch", check=False)
    assert r.grads["x"][0].tolist() == [0.06228373944759369] * 17
    assert set(r.grads["x"][1:].ravel().tolist()) == {0.0034602077212184668}
