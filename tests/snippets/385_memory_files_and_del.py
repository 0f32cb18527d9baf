# Files of a program that saves tensors to a temporary directory (the saved-tensors-hooks tutorial's way): os.path,
# os.remove, tempfile.TemporaryDirectory, uuid.uuid4, torch.save/torch.load to those paths, FileNotFoundError after
# a removal, and a class whose __del__ removes its file when the object is dropped.
import os
import tempfile
import uuid
import torch

tmp = tempfile.TemporaryDirectory()
print(os.path.isdir(tmp.name), tmp.name.startswith(tempfile.gettempdir()), len(os.path.basename(tmp.name)))
name = os.path.join(tmp.name, str(uuid.uuid4()))
print(len(os.path.basename(name)), os.path.dirname(name) == tmp.name, os.path.splitext("a/b.pt"))
torch.save(torch.arange(3.0), name)
print(os.path.exists(name), os.path.isfile(name), torch.load(name))
os.remove(name)
print(os.path.exists(name))
try:
    torch.load(name)
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno, e.strerror, e.filename == name)
try:
    os.remove(name)
except OSError as e:
    print(type(e).__name__, e.errno)


class SelfDeletingTempFile():
    def __init__(self):
        self.name = os.path.join(tmp.name, str(uuid.uuid4()))

    def __del__(self):
        print("deleting")
        os.remove(self.name)


f = SelfDeletingTempFile()
torch.save(torch.ones(2), f.name)
kept = f.name
print(os.path.exists(kept))
f = None
print(os.path.exists(kept))


def pack_hook(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_hook(temp_file):
    return torch.load(temp_file.name)


x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
print("dropping y")
y = None
with tempfile.TemporaryDirectory() as d:
    torch.save({"w": torch.zeros(1)}, os.path.join(d, "ckpt.pt"))
    print(sorted(torch.load(os.path.join(d, "ckpt.pt"))))
print(os.path.exists(d))


class Noisy:
    def __del__(self):
        print("collected at exit")


last = Noisy()
print("end")
