# numpy arrays created and printed exactly as numpy prints them
import numpy as np

a = np.array([1, 2, 3])
b = np.array([[1.0, 2.5], [3.25, -4.0]])
c = np.array([0.1, 0.2], dtype=np.float32)
print(a, b, c)
print(repr(a), repr(b), repr(c))
print(np.zeros(3), np.ones((2, 2), dtype=int), np.full((2,), 7.5), np.eye(2))
print(np.arange(5), np.arange(0.0, 1.0, 0.25), np.linspace(0, 1, 5), np.linspace(0, 1, 3, dtype=np.float32))
print(np.zeros_like(b), np.ones_like(a), np.empty_like(a).shape, np.full_like(c, 2))
print(a.shape, b.dtype, c.dtype, b.ndim, b.size, b.T, a.dtype == np.int64, c.dtype == np.float32)
print([a, c], (np.float64(1.5), np.int64(3)), {"x": np.float32(0.5)})
print(np.float32(1.5), np.float64(2.0) / 3, repr(np.float64(0.1)), np.pi, np.e, np.inf, -np.inf, np.nan)
print(np.array([1e-5, 1.0, 1e5]), np.array([True, False]), np.array([[1, 2], [3, 4]], dtype=np.float64))
print(np.arange(2000.0))
print(b.astype(np.float32), b.astype(int), a.astype("float64"), a.tolist(), b[0, 1].item())
print(np.identity(2), np.array(3.0), np.array([]), a.reshape(3, 1), b.flatten(), b.ravel())
