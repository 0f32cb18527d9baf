import torch
device = torch.device("cpu")
print(device, device.type, [device])
x = torch.ones(2, device=device)
print(x.device, x.device == device, x.device == "cpu")
print(x.to(device), x.cpu())
print(torch.cuda.is_available(), torch.accelerator.is_available())
print(type(device))
