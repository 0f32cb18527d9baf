# try/except/else/finally around torch errors: catchable as RuntimeError/Exception, str(e) is torch's message
import torch

a = torch.ones(2, 3)
b = torch.ones(4, 5)
try:
    c = a @ b
except RuntimeError as e:
    print("RuntimeError:", e)
    print(type(e), isinstance(e, Exception), type(e) == RuntimeError)
else:
    print("no error")
finally:
    print("finally 1")

try:
    ok = a + 1
except Exception as e:
    print("unexpected", e)
else:
    print("else ran", ok.shape)
finally:
    print("finally 2")

w = torch.ones(2, requires_grad=True)
try:
    w.add_(1)
except RuntimeError as err:
    print(str(err))
    print(repr(err)[:30], err.args[0][:20])

try:
    torch.ones(3)[5]
except IndexError as e:
    print("IndexError:", e)

try:
    (w * 2).sum().backward()
    (w * 2).sum().backward()
    loss = (w * w).sum()
    loss.backward()
    loss.backward()
except RuntimeError as e:
    print("second backward:", str(e)[:60])

errors = []
for shape in [(2, 3), (3, 2)]:
    try:
        torch.ones(2, 3).view(shape[1], 4)
    except (TypeError, RuntimeError) as e:
        errors.append(type(e))
print(errors)


def safe_div(p, q):
    try:
        return p / q
    except ZeroDivisionError:
        return float("inf")
    finally:
        print("checked", p, q)


print(safe_div(1, 2), safe_div(1, 0))


def first_positive(values):
    for v in values:
        try:
            if v > 0:
                return v
        finally:
            print("looked at", v)
    return None


print(first_positive([-1, 2, 3]))
try:
    try:
        raise KeyError("inner")
    except KeyError:
        raise ValueError("outer")
except ValueError as e:
    print("caught", e)
