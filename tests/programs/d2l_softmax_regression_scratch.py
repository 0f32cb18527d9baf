# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en
# chapter_linear-classification/softmax-regression-scratch.md @ 23d7a5ae, the cells of the PyTorch tab in order up
# to the loss, prose dropped. The last expression of a cell, which the notebook displays, is printed (print(...)
# around it; a tuple printed as the notebook shows it, print((a, b))). `from d2l import torch as d2l` is replaced by
# the d2l helpers the code uses, as d2l/torch.py defines them. Added: torch.manual_seed(0) (X = d2l.rand((2, 5)) is
# printed). Cut (a download): the model class and the training on Fashion-MNIST (d2l.FashionMNIST downloads it;
# the class derives from d2l.Classifier, the book's trainer framework) and the cells that use them.
import torch

class d2l:  # the d2l helpers used (d2l/torch.py)
    tensor = torch.tensor
    exp = torch.exp
    log = torch.log
    rand = torch.rand
    reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)
    reduce_mean = lambda x, *args, **kwargs: x.mean(*args, **kwargs)

torch.manual_seed(0)

X = d2l.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print((d2l.reduce_sum(X, 0, keepdims=True), d2l.reduce_sum(X, 1, keepdims=True)))

def softmax(X):
    X_exp = d2l.exp(X)
    partition = d2l.reduce_sum(X_exp, 1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here

X = d2l.rand((2, 5))
X_prob = softmax(X)
print((X_prob, d2l.reduce_sum(X_prob, 1)))

y = d2l.tensor([0, 2])
y_hat = d2l.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])

def cross_entropy(y_hat, y):
    return -d2l.reduce_mean(d2l.log(y_hat[list(range(len(y_hat))), y]))

print(cross_entropy(y_hat, y))
