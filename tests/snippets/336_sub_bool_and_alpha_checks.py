# torch's sub_check and alpha_check: subtraction with a bool tensor (or a Python bool) is an error, a float alpha for integer
# tensors and a bool alpha for a non-bool result are errors; bool + bool with alpha stays bool.
import torch
bt = torch.tensor([True, False]); it = torch.tensor([1, 2]); ft = torch.tensor([0.5, 1.5])
cases = [lambda: bt - bt, lambda: bt - it, lambda: ft - bt, lambda: 1 - bt, lambda: bt - 1, lambda: ft - True, lambda: True - ft,
         lambda: torch.sub(it, 3, alpha=0.5), lambda: torch.add(it, it, alpha=1.5), lambda: torch.add(ft, ft, alpha=True),
         lambda: torch.sub(ft, bt), lambda: torch.add(bt, bt, alpha=2), lambda: torch.add(it, bt, alpha=True), lambda: bt.sub(ft),
         lambda: ft.sub_(bt), lambda: torch.sub(1, bt), lambda: torch.sub(True, ft)]
for i, f in enumerate(cases):
    try:
        print(i, f())
    except (RuntimeError, TypeError) as e:
        print(i, "error", e)
