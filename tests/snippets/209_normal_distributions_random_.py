import torch
from torch.distributions import Normal

torch.manual_seed(0)
m = Normal(torch.tensor([0.0]), torch.tensor([1.0]))
print(m, m.sample(), m.sample((2, 3)), m.rsample(), m.mean, m.stddev)
n = Normal(0.5, 2.0)
print(n, n.sample(), n.log_prob(torch.tensor([0.1, 1.0])), n.entropy(), n.batch_shape)
x = torch.tensor([1.0, 2.0], requires_grad=True)
k = Normal(x, 1.0)
s = k.rsample()
print(s, k.log_prob(torch.tensor(0.3)))
print(torch.normal(mean=torch.arange(1., 11.), std=torch.arange(1, 0, -0.1)))
print(torch.normal(mean=0.5, std=torch.arange(1., 6.)), torch.normal(2, 3, size=(1, 4)))
print(torch.normal(torch.zeros(20), 2.0), torch.normal(torch.zeros(2, 2, dtype=torch.float64)))
print(torch.empty(3, dtype=torch.long).random_(5), torch.empty(8).random_(2))
print(torch.empty(2, 3, dtype=torch.long).random_(0, 4), torch.zeros(3).random_(-3, 3))
Normal(0.0, -1.0)
