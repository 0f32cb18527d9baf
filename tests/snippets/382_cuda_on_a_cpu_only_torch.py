# CUDA on a CPU-only PyTorch 2.13: torch.cuda.is_available() is False, and every way to make or move a tensor there
# fails with torch's AssertionError; `with torch.device('cuda'):` and set_default_device('cuda') are accepted and
# the factory functions inside fail, while the *_like and new_* functions and ops on CPU tensors do not.
import torch

print(torch.cuda.is_available(), torch.cuda.device_count(), torch.device('cuda'), torch.device('cuda:1'))
x = torch.ones(2)
attempts = [
    lambda: torch.randn(2, device='cuda'),
    lambda: torch.zeros(2, device='cuda:0'),
    lambda: torch.tensor([1.0], device='cuda'),
    lambda: torch.arange(3, device=torch.device('cuda')),
    lambda: torch.ones_like(x, device='cuda'),
    lambda: x.new_zeros(2, device='cuda'),
    lambda: x.cuda(),
    lambda: x.to('cuda'),
    lambda: x.to(device='cuda'),
    lambda: x.to(torch.device('cuda')),
    lambda: torch.nn.Linear(2, 2).cuda(),
    lambda: torch.nn.Linear(2, 2).to('cuda'),
    lambda: torch.nn.Linear(2, 2, device='cuda'),
]
for attempt in attempts:
    try:
        print(attempt())
    except AssertionError as e:
        print("AssertionError:", e)
print(torch.nn.ReLU().cuda())
with torch.device('cuda'):
    print(torch.zeros_like(x), x.new_ones(2), x * 2, torch.ones(2, device='cpu'))
    print(torch.nn.ReLU())
    for make in (lambda: torch.ones(2), lambda: torch.tensor([1.0]), lambda: torch.nn.Linear(2, 2),
                 lambda: torch.randint(3, (2,)), torch.get_default_device):
        try:
            print(make())
        except AssertionError as e:
            print("AssertionError:", e)
    with torch.device('cpu'):
        print(torch.ones(2))
print(torch.ones(2), torch.get_default_device())
torch.set_default_device('cuda')
try:
    torch.zeros(3)
except AssertionError as e:
    print("AssertionError:", e)
torch.set_default_device(None)
print(torch.zeros(3), torch.get_default_device())
torch.set_default_device('cuda')
y = torch.eye(2)
