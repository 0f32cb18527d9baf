# The example in the documentation of torch.nn.LayerNorm (PyTorch 2.13's docstring, torch/nn/modules/normalization.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output.size()) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

batch, sentence_length, embedding_dim = 20, 5, 10
embedding = torch.randn(batch, sentence_length, embedding_dim)
layer_norm = nn.LayerNorm(embedding_dim)
layer_norm(embedding)
N, C, H, W = 20, 5, 10, 10
input = torch.randn(N, C, H, W)
layer_norm = nn.LayerNorm([C, H, W])
output = layer_norm(input)
print(output.size())
