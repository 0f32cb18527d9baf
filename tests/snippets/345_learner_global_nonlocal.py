import torch

step = 0
history = []


def train_step(loss):
    global step
    step += 1
    history.append(round(loss, 4))
    return step


def make_counter():
    count = 0

    def increment():
        nonlocal count
        count += 1
        return count
    return increment


counter = make_counter()
for value in [0.5, 0.25, 0.125]:
    train_step(value)
    counter()
print(step, history, counter())
w = torch.tensor(1.0, requires_grad=True)


def make_loss(scale):
    def loss_fn(x):
        return scale * x ** 2
    return loss_fn


f = make_loss(3.0)
f(w).backward()
print(w.grad)
