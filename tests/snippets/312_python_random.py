# Python's random module: its own Mersenne Twister, seeded by random.seed
import random

import torch

random.seed(0)
print(random.random(), random.randint(1, 6), random.randrange(0, 100, 5))
items = list(range(8))
random.shuffle(items)
print(items, random.choice(items), random.sample(items, 3))
print(random.uniform(-1, 1), random.gauss(0, 1), random.normalvariate(1, 2))
print(random.choices(["a", "b", "c"], weights=[1, 2, 3], k=5), random.getrandbits(16))
random.seed("text seed")
print(random.random())
random.seed(0)
again = random.random()
torch.manual_seed(0)
print(again, torch.rand(2))
random.seed(1)
indices = random.sample(range(100), 4)
print(indices, torch.arange(100.0)[indices])
