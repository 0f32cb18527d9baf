# The example in the documentation of torch.nn.RNN (PyTorch 2.13's docstring, torch/nn/modules/rnn.py),
# as a learner runs it: each expression whose value the docs show is printed, torch.manual_seed(0) added. Cut: nothing. print(output.size(), hn.size()) added at the end.
import torch
import torch.nn as nn

torch.manual_seed(0)

rnn = nn.RNN(10, 20, 2)
input = torch.randn(5, 3, 10)
h0 = torch.randn(2, 3, 20)
output, hn = rnn(input, h0)
print(output.size(), hn.size())
