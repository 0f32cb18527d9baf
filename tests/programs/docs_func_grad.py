# The examples in the documentation of torch.func.grad (PyTorch 2.13's docstring, torch/_functorch/eager_transforms.py),
# as a learner runs them one after the other: the docstring's lines unchanged, torch.manual_seed(0) added.
# Added: print(...) of each result the docstring computes (cos_x, neg_sin_x, grad_weight_per_example, out).
# Cut: nothing (the two no_grad notes define f and call grad(f)(x); they are kept, with print added).
import torch

torch.manual_seed(0)

from torch.func import grad
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())
print(cos_x)

# Second-order gradients
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
assert torch.allclose(neg_sin_x, -x.sin())
print(neg_sin_x)

from torch.func import grad, vmap
batch_size, feature_size = 3, 5

def model(weights, feature_vec):
    # Very simple linear model with activation
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()

def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) ** 2).mean()  # MSELoss

weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(
    *inputs
)
print(grad_weight_per_example)

from torch.func import grad
def my_loss_func(y, y_pred):
   loss_per_sample = (0.5 * y_pred - y) ** 2
   loss = loss_per_sample.mean()
   return loss, (y_pred, loss_per_sample)

fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
y_true = torch.rand(4)
y_preds = torch.rand(4, requires_grad=True)
out = fn(y_true, y_preds)
# > output is ((grads w.r.t y_true, grads w.r.t y_preds), (y_pred, loss_per_sample))
print(out)

def f(x):
    with torch.no_grad():
        c = x ** 2
    return x - c

print(grad(f)(x))

with torch.no_grad():
    print(grad(f)(x))
