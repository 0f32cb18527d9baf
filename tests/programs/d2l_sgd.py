# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_optimization/sgd.md @ 23d7a5ae,
# the cells of the PyTorch tab in order, prose dropped. `from d2l import torch as d2l` is replaced by the d2l helpers
# the code uses: train_2d and show_trace_2d as chapter_optimization/gd.md defines them (d2l.arange and d2l.meshgrid
# written as torch's), with show_trace_2d's plotting cut (d2l.set_figsize(), d2l.plt.plot/contour/xlabel/ylabel).
# Cut (plotting): `%matplotlib inline`. Added: torch.manual_seed(0) (the noisy gradients are random).
import math
import torch

torch.manual_seed(0)

class d2l:  # the d2l helpers used, as chapter_optimization/gd.md defines them (#@save), their plotting cut
    @staticmethod
    def train_2d(trainer, steps=20, f_grad=None):  #@save
        """Optimize a 2D objective function with a customized trainer."""
        # `s1` and `s2` are internal state variables that will be used in Momentum, adagrad, RMSProp
        x1, x2, s1, s2 = -5, -2, 0, 0
        results = [(x1, x2)]
        for i in range(steps):
            if f_grad:
                x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
            else:
                x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
            results.append((x1, x2))
        print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
        return results

    @staticmethod
    def show_trace_2d(f, results):  #@save
        """Show the trace of 2D variables during optimization."""
        x1, x2 = torch.meshgrid(torch.arange(-5.5, 1.0, 0.1),
                                torch.arange(-3.0, 1.0, 0.1), indexing='ij')

def f(x1, x2):  # Objective function
    return x1 ** 2 + 2 * x2 ** 2

def f_grad(x1, x2):  # Gradient of the objective function
    return 2 * x1, 4 * x2

def sgd(x1, x2, s1, s2, f_grad):
    g1, g2 = f_grad(x1, x2)
    # Simulate noisy gradient
    g1 += torch.normal(0.0, 1, (1,)).item()
    g2 += torch.normal(0.0, 1, (1,)).item()
    eta_t = eta * lr()
    return (x1 - eta_t * g1, x2 - eta_t * g2, 0, 0)

def constant_lr():
    return 1

eta = 0.1
lr = constant_lr  # Constant learning rate
d2l.show_trace_2d(f, d2l.train_2d(sgd, steps=50, f_grad=f_grad))

def exponential_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return math.exp(-0.1 * t)

t = 1
lr = exponential_lr
d2l.show_trace_2d(f, d2l.train_2d(sgd, steps=1000, f_grad=f_grad))

def polynomial_lr():
    # Global variable that is defined outside this function and updated inside
    global t
    t += 1
    return (1 + 0.1 * t) ** (-0.5)

t = 1
lr = polynomial_lr
d2l.show_trace_2d(f, d2l.train_2d(sgd, steps=50, f_grad=f_grad))
