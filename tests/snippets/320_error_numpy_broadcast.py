# numpy's own errors stay numpy's (not translated into torch's words)
import numpy as np

a = np.ones(3)
try:
    np.ones(2) + a
except ValueError as e:
    print("ValueError:", e)
print(np.ones((2, 3)).reshape(4, 2))
