import torch

x = torch.arange(12.0).reshape(3, 4)
print(x.stride(), x.stride(0), x.stride(-1), x.storage_offset())
t = x.t()
print(t.stride(), t.is_contiguous(), x.is_contiguous(), t.contiguous().is_contiguous())
s = x[1:, 2:]
print(s.storage_offset(), s.stride(), s.is_contiguous())
print(x[:, 1].stride(), x[:, 1].storage_offset(), x[:, 1].is_contiguous())
e = torch.ones(1, 3).expand(4, 3)
print(e.stride(), e.is_contiguous())
print(x.layout, x.layout == torch.strided, x.nbytes, x.itemsize, x.element_size())
print(x.ndimension(), x.dim(), x.is_cpu, x.is_cuda, x.is_meta, x.get_device())
print(x.is_complex(), x.is_signed(), x.long().is_signed(), x.bool().is_signed(), x.byte().is_signed())
print(x.is_same_size(torch.zeros(3, 4)), x.is_same_size(torch.zeros(4, 3)))
print(torch.tensor([2.5]).is_nonzero(), torch.tensor(0).is_nonzero(), torch.tensor([[False]]).is_nonzero())
for bad in (torch.tensor([1.0, 2.0]), torch.tensor([])):
    try:
        bad.is_nonzero()
    except RuntimeError as e:
        print("RuntimeError:", e)
print(x.type(), x.long().type(), x.double().type(), x.bool().type(), x.byte().type(), x.char().type(),
      x.short().type(), x.int().type(), x.half().type())
print(x.type(torch.int64))
print(x.type("torch.DoubleTensor").dtype, x.type(torch.float32) is x)
w = torch.tensor([1.5, -2.5], requires_grad=True)
v = w.type(torch.float64)
print(v, v.grad_fn)
v.sum().backward()
print(w.grad)
print(x.byte(), x.char().dtype, x.short().dtype, (-x).byte())
