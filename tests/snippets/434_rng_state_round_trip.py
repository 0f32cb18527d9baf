import torch
torch.manual_seed(5)
s = torch.get_rng_state()
print(s.dtype, s.shape, s[:30], s[5016:5056])
torch.rand(3)
s2 = torch.get_rng_state()
print(s2[:30], s2[5016:5056], s2.sum())
a = torch.randn(3, dtype=torch.float64)
s3 = torch.get_rng_state()
print(s3[:30], s3[5016:5056], s3.sum())
b = torch.randn(3, dtype=torch.float64)
torch.set_rng_state(s3)
print(torch.equal(b, torch.randn(3, dtype=torch.float64)))
torch.set_rng_state(s)
print(torch.rand(3), torch.randn(20), torch.randint(0, 10, (5,)))
g = torch.Generator()
g.manual_seed(3)
st = g.get_state()
x = torch.rand(4, generator=g)
g.set_state(st)
print(torch.equal(x, torch.rand(4, generator=g)), st.sum())
torch.rand(624 * 2 - 3)
print(torch.get_rng_state()[:24])
for bad in ("torch.set_rng_state(torch.zeros(5056))", "torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))",
            "torch.set_rng_state([1])"):
    try:
        eval(bad)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
