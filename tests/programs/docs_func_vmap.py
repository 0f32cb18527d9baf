# The examples in the documentation of torch.func.vmap (PyTorch 2.13's docstring, torch/_functorch/apis.py), as a
# learner runs them one after the other: the docstring's lines unchanged, torch.manual_seed(0) added. Each
# expression whose value the docs show is printed (print(...) around it); `torch.dot  # [D], [D] -> []` lines,
# which only name the function, are kept as they are. Added: print(result) and print(jacobian). Cut: nothing.
import torch

torch.manual_seed(0)

torch.dot  # [D], [D] -> []
batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))

batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)

def model(feature_vec):
    # Very simple linear model with activation
    return feature_vec.dot(weights).relu()

examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)
print(result)

# Setup
N = 5
f = lambda x: x**2
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)

# Sequential approach
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0]
                 for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)
print(jacobian)

# vectorized gradient computation
def get_vjp(v):
    return torch.autograd.grad(y, x, v)
jacobian = torch.vmap(get_vjp)(I_N)
print(jacobian)

torch.dot  # [D], [D] -> []
batched_dot = torch.vmap(
    torch.vmap(torch.dot)
)  # [N1, N0, D], [N1, N0, D] -> [N1, N0]
x, y = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
print(batched_dot(x, y))  # tensor of size [2, 3]

torch.dot  # [N], [N] -> []
batched_dot = torch.vmap(torch.dot, in_dims=1)  # [N, D], [N, D] -> [D]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(
    x, y
))  # output is [5] instead of [2] if batched along the 0th dimension

torch.dot  # [D], [D] -> []
batched_dot = torch.vmap(torch.dot, in_dims=(0, None))  # [N, D], [D] -> [N]
x, y = torch.randn(2, 5), torch.randn(5)
print(batched_dot(
    x, y
))  # second arg doesn't have a batch dim because in_dim[1] was None

f = lambda dict: torch.dot(dict["x"], dict["y"])
x, y = torch.randn(2, 5), torch.randn(5)
input = {"x": x, "y": y}
batched_dot = torch.vmap(f, in_dims=({"x": 0, "y": None},))
print(batched_dot(input))

f = lambda x: x**2
x = torch.randn(2, 5)
batched_pow = torch.vmap(f, out_dims=1)
print(batched_pow(x))  # [5, 2]

x = torch.randn([2, 5])
def fn(x, scale=4.):
  return x * scale

batched_pow = torch.vmap(fn)
assert torch.allclose(batched_pow(x), x * 4)
print(batched_pow(x, scale=x))  # scale is not batched, output has shape [2, 2, 5]
