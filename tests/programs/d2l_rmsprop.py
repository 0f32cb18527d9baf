# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_optimization/rmsprop.md
# @ 23d7a5ae, the cells of the PyTorch tab in order up to the from-scratch implementation, prose dropped.
# `from d2l import torch as d2l` is replaced by the d2l helpers the code uses: train_2d and show_trace_2d as
# chapter_optimization/gd.md defines them (d2l.arange and d2l.meshgrid written as torch's), with show_trace_2d's
# plotting cut (d2l.set_figsize(), d2l.plt.plot/contour/xlabel/ylabel), and d2l.zeros (torch.zeros).
# Cut (plotting): the cell that only plots (1-gamma) * gamma ** x. Cut (a download): the cells training on the
# airfoil data (d2l.get_data_ch11 downloads it); init_rmsprop_states and rmsprop are defined, not called.
import torch
import math

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

def rmsprop_2d(x1, x2, s1, s2):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2

def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2

eta, gamma = 0.4, 0.9
d2l.show_trace_2d(f_2d, d2l.train_2d(rmsprop_2d))

def init_rmsprop_states(feature_dim):
    s_w = d2l.zeros((feature_dim, 1))
    s_b = d2l.zeros(1)
    return (s_w, s_b)

def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()
