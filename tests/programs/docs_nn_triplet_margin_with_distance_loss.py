# The example in the documentation of torch.nn.TripletMarginWithDistanceLoss (PyTorch 2.13's docstring, pytorch/pytorch torch/nn/modules/loss.py at commit cf30153c4c131c8164ee7798e5022d810682e2cb),
# as a learner runs it: the docstring's lines unchanged, torch.manual_seed(0) and the import of F added; each loss is printed, and at the end the modules and the gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

# Initialize embeddings
embedding = nn.Embedding(1000, 128)
anchor_ids = torch.randint(0, 1000, (1,))
positive_ids = torch.randint(0, 1000, (1,))
negative_ids = torch.randint(0, 1000, (1,))
anchor = embedding(anchor_ids)
positive = embedding(positive_ids)
negative = embedding(negative_ids)

# Built-in Distance Function
triplet_loss = \
    nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance())
output = triplet_loss(anchor, positive, negative)
print(output)
output.backward()

# Custom Distance Function
def l_infinity(x1, x2):
    return torch.max(torch.abs(x1 - x2), dim=1).values

triplet_loss = (
    nn.TripletMarginWithDistanceLoss(distance_function=l_infinity, margin=1.5))
output = triplet_loss(anchor, positive, negative)
print(output)
output.backward()

# Custom Distance Function (Lambda)
triplet_loss = (
    nn.TripletMarginWithDistanceLoss(
        distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y)))
output = triplet_loss(anchor, positive, negative)
print(output)
output.backward()
print(triplet_loss)
print(nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance()))
print(embedding.weight.grad[anchor_ids], embedding.weight.grad[negative_ids])
