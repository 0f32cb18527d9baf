# The example in the documentation of torch.autograd.Function.forward (usage 2: forward and setup_context) (PyTorch 2.13's docstring, pytorch/pytorch torch/autograd/function.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) added. The docstring shows the two signatures only (bodies `pass`); the bodies are the Exp example of the same docstring, a module-level Function with setup_context; added: apply, backward and prints.
import torch
from torch.autograd import Function
from typing import Any, Tuple

torch.manual_seed(0)


class Exp(Function):
    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        i, = args
        return i.exp()


    @staticmethod
    def setup_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> None:
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


input = torch.randn(3, requires_grad=True)
output = Exp.apply(input)
print(output)
output.backward(torch.ones(3))
print(input.grad)
