# The example in the documentation of torch.nn.Embedding (PyTorch 2.13's docstring, torch/nn/modules/sparse.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing.
import torch
import torch.nn as nn

torch.manual_seed(0)

embedding = nn.Embedding(10, 3)
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(embedding(input))
embedding = nn.Embedding(10, 3, padding_idx=0)
input = torch.LongTensor([[0, 2, 0, 5]])
print(embedding(input))
padding_idx = 0
embedding = nn.Embedding(3, 3, padding_idx=padding_idx)
print(embedding.weight)
with torch.no_grad():
    embedding.weight[padding_idx] = torch.ones(3)
print(embedding.weight)
