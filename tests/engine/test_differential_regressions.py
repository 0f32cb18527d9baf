"""Regressions found by scripts/fuzz_differential.py (gradcli against torch 2.13, bit for bit).

Every expected value below was printed by torch 2.13 (`.tolist()`) on the input built here, as each test says.
"""
from __future__ import annotations

import numpy as np
import pytest

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


# torch 2.13's values and x.grad (grad_output 0.7 everywhere), printed by:
#   xt = torch.tensor(x, requires_grad=True); t = eval(expr); t.backward(torch.full(t.shape, 0.7))
#   print(t.tolist(), xt.grad.tolist())
# with x, y as _xy() builds them (float32): fused multiply-adds and operand orders of torch's kernels
FORMULA_CASES = [
    ('F.hardswish(x)',
     [0.0, 2.837017059326172, 1.1754167079925537, -0.3227333426475525, -0.15458329021930695, 0.39541664719581604,
      3.0, 0.6335999965667725, -0.2149333357810974],
     [0.3499999940395355, 1.0243333578109741, 0.7116666436195374, -0.13066665828227997, -0.268333375453949,
      0.5016666650772095, 0.699999988079071, 0.5740000009536743, -0.22866664826869965]),
    ('torch.lerp(x, y, 0.3)',
     [0.6000000238418579, 2.4820001125335693, 1.1869999170303345, -1.744999885559082, -2.4202001094818115,
      -0.10690005123615265, 1.8056999444961548, 0.7838999629020691, -1.2706999778747559],
     [0.4899999797344208, 0.4899999797344208, 0.4899999797344208, 0.4899999797344208, 0.4899999797344208,
      0.4899999797344208, 0.4899999797344208, 0.4899999797344208, 0.4899999797344208]),
    ('torch.lerp(x, y, 0.6)',
     [1.2000000476837158, 2.0739998817443848, 0.8239999413490295, -1.4299999475479126, -2.1903998851776123,
      -0.8638001084327698, 0.6113998889923096, 0.6078000068664551, -0.06139995902776718],
     [0.2800000011920929, 0.2800000011920929, 0.2800000011920929, 0.2800000011920929, 0.2800000011920929,
      0.2800000011920929, 0.2800000011920929, 0.2800000011920929, 0.2800000011920929]),
    ('torch.addcmul(x, y, x, value=0.3)',
     [0.0, 4.21651029586792, 1.7080999612808228, -1.4358199834823608, -1.1522200107574463, 0.28476497530937195,
      2.1171000003814697, 1.067423939704895, -3.633944034576416],
     [1.1200000047683716, 1.021299958229065, 0.771399974822998, 0.4878999888896942, 0.30435997247695923,
      0.3066699802875519, 0.4939899742603302, 0.7783299684524536, 1.0257099866867065]),
    ('torch.addcdiv(y, x, y.abs() + 1, value=0.3)',
     [2.0, 1.8726876974105835, 0.6870149374008179, -1.317462682723999, -2.159658908843994, -1.805126667022705,
      -0.5266839861869812, 0.5827596187591553, 1.2593497037887573],
     [0.07000000029802322, 0.0830039530992508, 0.15671642124652863, 0.10447761416435242, 0.07281554490327835,
      0.07309432327747345, 0.10600707679986954, 0.1529497504234314, 0.08232066035270691]),
    ('torch.addcdiv(y, y, x.abs() + 1, value=0.3)',
     [2.5999999046325684, 1.647994875907898, 0.3799999952316284, -1.1090196371078491, -2.038849353790283,
      -2.213545560836792, -1.054574966430664, 0.43009182810783386, 1.6847069263458252],
     [-0.0, -0.021233007311820984, -0.01098039373755455, -0.022651545703411102, -0.029697129502892494,
      0.1444738358259201, 0.012875625863671303, -0.020389940589666367, 0.02689506486058235]),
]


def _xy():
    x = np.round(np.sin(np.arange(9) * 1.3) * 3, 2).astype(np.float32)
    y = np.round(np.cos(np.arange(9) * 0.7) * 2, 3).astype(np.float32)
    return x, y


@pytest.mark.parametrize(("expr", "value", "grad"), FORMULA_CASES, ids=[c[0] for c in FORMULA_CASES])
def test_kernel_formulas_as_torch_computes_them(expr, value, grad):
    # hardswish multiplies before dividing by 6; lerp is one fma(coeff, end - start, base); addcmul is
    # fma(value * t1, t2, self); addcdiv divides value * t1 by t2, and its t2 gradient is
    # -grad * (value * t1 / (t2 * t2)); gradcli differed in the last bit on 1-5 of the 9 elements of each
    x, y = _xy()
    r = gradcli.grad(expr, x=x, consts={"y": y}, dtype="float32", bits="torch", check=False,
                     grad_output=np.full(9, 0.7, np.float32))
    assert r.output.tolist() == value
    assert r.grads["x"].tolist() == grad


@pytest.mark.parametrize(("expr", "total"), [("F.silu(x.t()).sum()", 193.36624145507812),
                                             ("torch.sigmoid(x.t()).sum()", 127.98928833007812),
                                             ("F.hardsigmoid(x.t()).sum()", 128.0016632080078)])
def test_elementwise_result_keeps_a_transposed_inputs_layout(expr, total):
    # torch's elementwise result has its input's layout (TensorIterator), so a sum of it adds in memory order:
    # torch's F.silu(x.t()).contiguous().sum() is 193.36622619628906, its F.silu(x.t()).sum() the value below.
    # gradcli's kernels (SLEEF's exp with both signs among the values, hardsigmoid's np.empty) returned
    # row-major results. Recorded from torch 2.13: eval(expr).item() with x as built here
    x = np.round(np.sin(np.arange(256) * 1.7) * 3, 2).astype(np.float32).reshape(16, 16)
    for bits in ("torch", "fast"):
        assert float(gradcli.grad(expr, x=x, dtype="float32", bits=bits, check=False).output) == total


def test_clone_and_to_keep_a_transposed_layout_contiguous_does_not():
    # torch's clone() and .to(dtype) copy with memory_format=torch.preserve_format: a transposed tensor stays
    # transposed, so sum(0) of the copy adds in the transposed order; .contiguous() is row-major. gradcli's
    # clone was always row-major (numpy's copy). Recorded from torch 2.13 (t = torch.tensor(x)):
    #   t.t().clone().sum(0).tolist(), t.t().contiguous().sum(0).tolist(), t.double().t().float().sum(0).tolist()
    x = np.round(np.sin(np.arange(81) * 1.7) * 3, 2).astype(np.float32).reshape(9, 9)
    kept = [1.9300001859664917, -0.43000006675720215, -1.1500000953674316, 2.549999952316284, -3.5000007152557373,
            3.9200003147125244, -3.6700000762939453, 2.830000400543213, -1.4999995231628418]
    rows = [1.9300003051757812, -0.42999982833862305, -1.1500005722045898, 2.549999713897705, -3.500000238418579,
            3.9200003147125244, -3.6700000762939453, 2.8299999237060547, -1.4999995231628418]
    g = np.ones(9, np.float32)
    run = lambda e: gradcli.grad(e, x=x, dtype="float32", bits="torch", check=False,  # noqa: E731
                                 grad_output=g).output.tolist()
    assert run("x.t().clone().sum(0)") == kept
    assert run("x.t().contiguous().sum(0)") == rows
    assert run("x.double().t().float().sum(0)") == kept


def test_binary_result_takes_the_first_deciding_operands_layout():
    # TensorIterator lays out an elementwise result as its first operand whose strides decide (x.t() * x is
    # transposed, x * x.t() row-major; where's condition comes first), so the sums below add in different
    # orders; gradcli's numpy results were row-major for both. Recorded from torch 2.13 (t = torch.tensor(x)):
    #   (t.t() * t).sum(0).tolist(), (t * t.t()).sum(0).tolist(), torch.where(t.t() > 0, t.t(), t).sum(0).tolist()
    x = np.round(np.sin(np.arange(81) * 1.7) * 3, 2).astype(np.float32).reshape(9, 9)
    g = np.ones(9, np.float32)

    def run(e):
        return gradcli.grad(e, x=x, dtype="float32", bits="torch", check=False, grad_output=g).output.tolist()
    assert run("(x.t() * x).sum(0)") == [
        2.801900863647461, 14.025498390197754, 3.8473000526428223, -9.319198608398438, -6.007899761199951,
        -1.6287994384765625, -0.41390085220336914, 8.699399948120117, 9.941900253295898]
    assert run("(x * x.t()).sum(0)") == [
        2.801900863647461, 14.02549934387207, 3.847299575805664, -9.319198608398438, -6.007900238037109,
        -1.6287989616394043, -0.41390109062194824, 8.699399948120117, 9.941899299621582]
    assert run("torch.where(x.t() > 0, x.t(), x).sum(0)") == [
        8.99000072479248, 5.550000190734863, 5.789999961853027, 11.639999389648438, 8.819999694824219,
        9.710000991821289, 4.4200005531311035, 9.130000114440918, 4.330000400543213]


def test_atan2_backward_multiplies_left_to_right():
    # torch's atan2_backward: grad * other * recip (gradcli: grad * (other * recip), which differs once the
    # incoming gradient is not 1). Recorded from torch 2.13:
    #   xt = torch.tensor(x, requires_grad=True); torch.atan2(xt, xt*0.7+0.1).backward(torch.full((9, 9), 0.75))
    #   xt.grad[0].tolist()
    x = np.round(np.sin(np.arange(81) * 1.7) * 3, 2).astype(np.float32).reshape(9, 9)
    r = gradcli.grad("torch.atan2(x, x*0.7+0.1)", x=x, dtype="float32", bits="torch", check=False,
                     grad_output=np.full((9, 9), 0.75, np.float32))
    assert r.grads["x"][0].tolist() == [
        7.499999523162842, 0.005527332425117493, 0.09546589851379395, 0.006734833121299744, 0.021546170115470886,
        0.00840015709400177, 0.011929571628570557, 0.015462279319763184, 0.00728917121887207]


@pytest.mark.parametrize(("expr", "value"), [("x.var()", 4.506769001646684),
                                             ("x.t().std()", 2.122915213014096),
                                             ("x[:, ::2].var(correction=0)", 4.4997420529609435)])
def test_variance_of_a_whole_tensor_in_torchs_order(expr, value):
    # a variance with one result element is torch's std_var_all_cpu: the mean in torch's sum order, then the
    # squared deviations summed one after another in memory order (per thread range over 32768 elements);
    # gradcli summed both pairwise: x.var() was 4.506769001646685 here. Recorded from torch 2.13 (float64):
    #   eval(expr, {"x": torch.tensor(x)}).item()
    x = np.round(np.sin(np.arange(645) * 1.3) * 3 + 1, 3).reshape(5, 129)
    assert float(gradcli.grad(expr, x=x, bits="torch", check=False).output) == value
