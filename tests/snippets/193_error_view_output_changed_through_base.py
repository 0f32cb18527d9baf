import torch

# exp_ saves its output, the view; the base changes: torch names the view's grad_fn of the exp_ (AsStrided)
x = torch.tensor([[0.3, -0.7, 1.1], [0.5, 0.9, -1.3], [0.2, 0.4, 0.6]], dtype=torch.float64, requires_grad=True)
h = x * 1
v = h[0]
v.exp_()
h.abs_()
h.sum().backward()
