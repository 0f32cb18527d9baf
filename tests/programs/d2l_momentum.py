# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_optimization/momentum.md
# @ 23d7a5ae, the cells of the PyTorch tab in order up to the from-scratch implementation, prose dropped.
# `from d2l import torch as d2l` is replaced by the d2l helpers the code uses: train_2d and show_trace_2d as
# chapter_optimization/gd.md defines them (d2l.arange and d2l.meshgrid written as torch's), with show_trace_2d's
# plotting cut (d2l.set_figsize(), d2l.plt.plot/contour/xlabel/ylabel), and d2l.zeros (torch.zeros).
# Cut (plotting): `%matplotlib inline`, the two cells that only plot (beta ** x and (1 - eta * lam) ** t).
# Cut (a download): the cells training on the airfoil data (d2l.get_data_ch11 downloads it; d2l.train_ch11,
# train_momentum and d2l.train_concise_ch11 use it); init_momentum_states and sgd_momentum are defined, not called.
import torch

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

    zeros = torch.zeros

eta = 0.4
def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2
def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)

d2l.show_trace_2d(f_2d, d2l.train_2d(gd_2d))

eta = 0.6
d2l.show_trace_2d(f_2d, d2l.train_2d(gd_2d))

def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2

eta, beta = 0.6, 0.5
d2l.show_trace_2d(f_2d, d2l.train_2d(momentum_2d))

eta, beta = 0.6, 0.25
d2l.show_trace_2d(f_2d, d2l.train_2d(momentum_2d))

def init_momentum_states(feature_dim):
    v_w = d2l.zeros((feature_dim, 1))
    v_b = d2l.zeros(1)
    return (v_w, v_b)

def sgd_momentum(params, states, hyperparams):
    for p, v in zip(params, states):
        with torch.no_grad():
            v[:] = hyperparams['momentum'] * v + p.grad
            p[:] -= hyperparams['lr'] * v
        p.grad.data.zero_()
