import torch
torch.set_default_tensor_type(torch.DoubleTensor)
print(torch.get_default_dtype(), torch.tensor([1.5]).dtype)
torch.set_default_tensor_type('torch.FloatTensor')
print(torch.get_default_dtype())
for bad in ["torch.set_default_tensor_type(torch.LongTensor)", "torch.set_default_tensor_type('torch.IntTensor')",
            "torch.set_default_tensor_type(3)"]:
    try:
        eval(bad)
    except TypeError as e:
        print(type(e).__name__, e)
print(torch.typename(torch.zeros(1)), torch.typename(3), torch.typename([1]), torch.typename(torch.zeros(1, dtype=torch.bool)))
print(torch.init_num_threads(), torch.is_warn_always_enabled())
