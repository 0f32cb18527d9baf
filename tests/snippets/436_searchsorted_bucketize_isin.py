import torch
seq = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
vals = torch.tensor([[3.0, 6.0, 9.0], [0.0, 10.0, 5.0]])
print(torch.searchsorted(seq, vals), torch.searchsorted(seq, vals, right=True))
print(torch.searchsorted(seq, vals, side="right"), torch.searchsorted(seq, 4.0), torch.searchsorted(seq, vals, out_int32=True))
seq2 = torch.tensor([[1, 3, 5], [2, 4, 6]])
print(torch.searchsorted(seq2, torch.tensor([[3, 6], [1, 7]])))
print(torch.searchsorted(torch.tensor([5.0, 1.0, 3.0]), torch.tensor([2.0, 4.0]), sorter=torch.tensor([1, 2, 0])))
print(torch.bucketize(vals, seq), torch.bucketize(vals, seq, right=True), torch.bucketize(3, seq))
print(torch.bucketize(torch.tensor([1, 5, 9]), torch.tensor([2.5, 6.0]), out_int32=True))
print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3])), torch.isin(torch.tensor([1.0, 2.5]), 2.5))
print(torch.isin(3, torch.tensor([1, 3])), torch.isin(torch.tensor([1, 2, 3]), torch.tensor([1.0, 3.5]), invert=True))
for bad in ("torch.searchsorted(seq2, torch.tensor([1, 2, 3]))", "torch.bucketize(vals, seq2)",
            "torch.searchsorted(seq, vals, side='middle')", "torch.searchsorted(seq, vals, right=True, side='left')",
            "torch.isin(1, 2)"):
    try:
        print(eval(bad))
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
import torch
o = torch.empty(3, dtype=torch.int64)
torch.bucketize(torch.tensor([1., 5., 9.]), torch.tensor([2.5, 6.0]), out=o)
print(o)
