# Products and matrix functions: slogdet, logdet, cholesky, matrix_exp, matrix_power, multi_dot, matrix_norm,
# svdvals, kron, tensordot, inner, addmm, dist, cdist, cross (x × x is not exactly 0 in torch's fused kernel).
import torch
torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
B = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(3, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
S = A @ A.T + 3 * torch.eye(3, dtype=torch.float64)
outs = {
  "slogdet": torch.linalg.slogdet(A).logabsdet, "tslogdet": torch.slogdet(S)[1], "logdet": torch.logdet(S), "logdet_neg": torch.logdet(-S),
  "chol": torch.linalg.cholesky(S), "chol_up": torch.linalg.cholesky(S, upper=True), "mexp": torch.matrix_exp(A * 0.5), "lmexp": torch.linalg.matrix_exp(A * 3),
  "mp0": torch.linalg.matrix_power(A, 0), "mp1": torch.linalg.matrix_power(A, 1), "mp2": torch.matrix_power(A, 2), "mp5": torch.linalg.matrix_power(A, 5), "mpm2": torch.linalg.matrix_power(S, -2),
  "md2": torch.linalg.multi_dot([A, B]), "md3": torch.linalg.multi_dot([A, A, B]), "mdvec": torch.linalg.multi_dot([v, A, B, w]), "mdv2": torch.linalg.multi_dot([v, B]),
  "mn": torch.linalg.matrix_norm(A), "mn1": torch.linalg.matrix_norm(A, 1), "mninf": torch.linalg.matrix_norm(A, float("inf")), "mnm1": torch.linalg.matrix_norm(B, -1, keepdim=True),
  "mnnuc": torch.linalg.matrix_norm(A, "nuc"), "mn2": torch.linalg.matrix_norm(B, 2), "svdvals": torch.linalg.svdvals(B),
  "kron": torch.kron(A, B), "kron1": torch.kron(v, w), "td": torch.tensordot(A, B, 1), "td2": torch.tensordot(B, B, dims=([0], [0])), "td0": torch.tensordot(v, w, 0),
  "inner": torch.inner(v, v), "innerM": torch.inner(A, B.T), "addmm": torch.addmm(w, A, B, beta=0.5, alpha=2), "addmm1": torch.addmm(B, A, B),
  "dist": torch.dist(v, A[0]), "dist1": torch.dist(v, A[0], 1), "distinf": torch.dist(v, A[1], float("inf")), "cdist": torch.cdist(A, B.T[:, :3]), "cdist1": torch.cdist(A, A.flip(0), p=1),
  "cross": torch.linalg.cross(A, A.flip(0)), "cross0": torch.cross(A, B[:, :3], dim=0),
}
total = 0
for k, val in outs.items():
    print(k, val)
    total = total + (val * torch.arange(val.numel(), dtype=torch.float64).reshape(val.shape).sin()).sum()
total.backward()
print(A.grad, B.grad, v.grad, w.grad, sep="\n")
print(torch.linalg.slogdet(A), torch.slogdet(A))
