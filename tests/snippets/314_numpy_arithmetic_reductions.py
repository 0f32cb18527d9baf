# numpy arithmetic, ufuncs and reductions as tutorials use them
import numpy as np

x = np.linspace(-1, 1, 5)
w = np.array([[1.0, 2.0], [3.0, 4.0]])
print(x + 1, x * 2, x ** 2, -x, x / 4, 2 - x, x // 0.5, x % 0.75)
print(np.sin(x), np.exp(x), np.log(np.abs(x) + 1), np.sqrt(np.abs(x)), np.tanh(x))
print(np.dot(w, w), w @ w, np.matmul(w, [1, 1]), w.dot([1, 0]), np.outer([1, 2], [3, 4]))
print(np.sum(w), w.sum(axis=0), w.mean(), np.mean(w, axis=1), w.max(), w.argmax(), np.argmax(w, axis=0))
print(w.min(), np.std(x), np.var(x), w.prod(), np.cumsum(x), w.reshape(4), w.transpose(), np.transpose(w))
print(np.maximum(x, 0), np.where(x > 0, x, 0.0), np.clip(x, -0.5, 0.5), x > 0, (x > 0).sum(), x[x > 0])
print(np.allclose(w @ np.linalg.inv(w), np.eye(2)), np.allclose([1.0], [1.0 + 1e-9]), np.isclose(x, 0))
print(np.concatenate([x, x]).shape, np.stack([w, w]).shape, np.vstack([x, x]).shape, np.hstack([x, x]).shape)
print(np.linalg.norm(w), np.linalg.det(w), np.round(x, 1), np.abs(x).sum(), np.square(w))
print(w[0], w[:, 1], w[1, 0], w[w > 2], x[::2], x[[0, 4]], w[None].shape, w[np.newaxis, :, 0])
y = np.zeros(3)
y[1] = 5
y += 1
y *= np.array([1.0, 2.0, 3.0])
print(y, np.float32(2) * np.ones(2, dtype=np.float32), (np.ones(2, dtype=np.float32) + 1.5).dtype)
print(np.exp(np.float32(1.0)), np.array([1, 2]) / 2, np.array([1, 2]) // 2, np.unique([3, 1, 3, 2]))
print(np.sort([3, 1, 2]), np.argsort([3, 1, 2]), np.mean([1, 2, 3, 4]), np.median([3, 1, 2]), np.diag([1, 2]))
