# "Tensors" (PyTorch for former Torch users), pytorch/tutorials
# beginner_source/former_torchies/tensor_tutorial.py @ 4ba12621, prose dropped. Cut: nothing (the CUDA cell is
# guarded by torch.cuda.is_available()). torch.manual_seed(0) added.
import torch

torch.manual_seed(0)

a = torch.empty(5, 7, dtype=torch.float)

a = torch.randn(5, 7, dtype=torch.double)
print(a)
print(a.size())

a.fill_(3.5)
# a has now been filled with the value 3.5

b = a.add(4.0)
# a is still filled with 3.5
# new tensor b is returned with values 3.5 + 4.0 = 7.5

print(a, b)

b = a[0, 3]  # select 1st row, 4th column from a

b = a[:, 3:5]  # selects all rows, 4th column and  5th column from a

x = torch.ones(5, 5)
print(x)

z = torch.empty(5, 2)
z[:, 0] = 10
z[:, 1] = 100
print(z)

x.index_add_(1, torch.tensor([4, 0], dtype=torch.long), z)
print(x)

a = torch.ones(5)
print(a)

b = a.numpy()
print(b)

a.add_(1)
print(a)
print(b) 	# see how the numpy array changed in value

import numpy as np
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)  # see how changing the np array changed the torch Tensor automatically

# let us run this cell only if CUDA is available
if torch.cuda.is_available():

    # creates a LongTensor and transfers it
    # to GPU as torch.cuda.LongTensor
    a = torch.full((10,), 3, device=torch.device("cuda"))
    print(type(a))
    b = a.to(torch.device("cpu"))
    # transfers it to CPU, back to
    # being a torch.LongTensor
