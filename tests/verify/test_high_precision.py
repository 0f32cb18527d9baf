"""The numeric verdict that decides when sympy cannot finish (issue 29, item 2): the program on mpmath numbers
at 30 digits, central differences with Richardson extrapolation along random directions.  The gradients it is
given are independent (calculus by hand, numpy's linear algebra) or deliberately wrong."""

from __future__ import annotations

import time

import numpy as np
import pytest

from gradcli.calc.calculator import attach_checks, verdict
from gradcli.lang.evaluation import evaluate_expression
from gradcli.safety import guard
from gradcli.verify.numeric import high_precision_check

A = np.array([[2.0, -1.0, 0.5], [0.3, 1.5, -0.7], [1.1, 0.2, 0.9]])


def _with_grads(expression, inputs, grads, consts=None, grad_output=None):
    result = evaluate_expression(expression, inputs, consts, grad_output=grad_output)
    for name, grad in grads.items():
        result.tensors[name].grad = np.asarray(grad, dtype=np.float64)
    return result


@pytest.mark.parametrize("expression,inputs,grads", [
    ("torch.linalg.det(A)", {"A": A}, {"A": np.linalg.det(A) * np.linalg.inv(A).T}),  # Jacobi's formula
    ("(x**2).sum()", {"x": [1.0, 2.0, 3.0]}, {"x": [2.0, 4.0, 6.0]}),
    ("(x.sin() * y).sum()", {"x": [0.5, -1.0], "y": [2.0, 3.0]},
     {"x": [2 * np.cos(0.5), 3 * np.cos(-1.0)], "y": [np.sin(0.5), np.sin(-1.0)]}),
    ("torch.logsumexp(x, 0)", {"x": [1.0, 2.0, 3.0]}, {"x": np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum()}),
])
def test_independent_gradients_agree_with_a_tiny_error_bound(expression, inputs, grads):
    report = high_precision_check(_with_grads(expression, inputs, grads))
    assert report["status"] == "agrees" and report["decided_by"] == "numeric"
    assert report["error_bound"] < 1e-12 and report["max_abs_diff"] < 1e-12


def test_integer_class_indices_and_grad_output_are_held_fixed():
    z = np.array([[2.0, 1.0, 0.1]])
    softmax = np.exp(z) / np.exp(z).sum()
    expected = softmax - np.array([[1.0, 0.0, 0.0]])  # d cross_entropy / d logits = softmax - one_hot
    report = high_precision_check(_with_grads("F.cross_entropy(z, t)", {"z": z}, {"z": expected},
                                              consts={"t": np.array([0])}))
    assert report["status"] == "agrees"
    report = high_precision_check(_with_grads("x**3", {"x": [1.0, 2.0]}, {"x": [3.0 * 2, 12.0 * -1]},
                                              grad_output=np.array([2.0, -1.0])))
    assert report["status"] == "agrees"


@pytest.mark.parametrize("delta", [1e-5, 1e-3, 1.0])
def test_a_wrong_element_is_a_disagreement(delta):
    grads = np.linalg.det(A) * np.linalg.inv(A).T
    grads[1, 2] += delta
    report = high_precision_check(_with_grads("torch.linalg.det(A)", {"A": A}, {"A": grads}))
    assert report["status"] == "disagrees"
    assert "disagree along a random direction" in report["disagreement"]


def test_a_kink_is_pytorchs_convention_not_a_disagreement():
    report = high_precision_check(_with_grads("torch.relu(x).sum()", {"x": [0.0, 1.0, -1.0]}, {"x": [0.0, 1.0, 0.0]}))
    assert report["status"] == "convention"
    wrong = high_precision_check(_with_grads("torch.relu(x).sum()", {"x": [0.0, 1.0, -1.0]}, {"x": [0.0, 2.0, 0.0]}))
    assert wrong["status"] == "disagrees"


def test_when_sympy_runs_out_of_time_the_numeric_check_decides():
    result = evaluate_expression("torch.linalg.det(A)", {"A": A})
    report = verdict(result, timeout=1e-6)  # sympy cannot finish in a microsecond of CPU
    assert report["decided_by"] == "numeric" and report["status"] == "agrees"
    assert "sympy took longer than" in report["sympy"]
    wrong = evaluate_expression("torch.linalg.det(A)", {"A": A})
    wrong.tensors["A"].grad = wrong.tensors["A"].grad + 1e-4
    attach_checks(wrong, check=True, check_timeout=1e-6)
    assert wrong.disagreements() and "30-digit finite differences disagree" in wrong.disagreements()[0]


def test_an_op_without_a_30_digit_form_falls_back_to_float64_differences():
    result = evaluate_expression("torch.floor(x) + x", {"x": np.array(1.5)})
    report = verdict(result, timeout=None)
    assert report["status"] == "agrees" and report["decided_by"] == "numeric"
    assert report["method"].startswith("float64 central differences")
    assert report["sympy"] == "no symbolic form for floor"


def test_a_nan_gradient_is_left_to_sympy():
    result = evaluate_expression("x**nan", {"x": np.array(1.0)})
    assert verdict(result, timeout=None)["status"] == "skipped"


def test_cpu_budget_counts_cpu_time_not_waiting():
    class Out(Exception):
        pass

    start = time.process_time()
    with pytest.raises(Out):
        with guard.cpu_budget(0.2, Out):
            while True:
                pass
    assert 0.15 < time.process_time() - start < 2.0
    with guard.cpu_budget(0.05, Out):
        time.sleep(0.3)  # waiting uses no CPU: no error
    import signal

    assert signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None) and signal.getitimer(signal.ITIMER_PROF)[0] == 0
