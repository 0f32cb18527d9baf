import torch

name = "  Linear Regression  "
print(name.strip(), name.lower(), name.upper(), name.split(), "-".join(["a", "b", "c"]))
print("loss".startswith("lo"), "model.pt".endswith(".pt"), "a,b,,c".split(","), "x".center(5, "*"), "7".zfill(3), "ab".ljust(4) + "|", "ab".rjust(4))
words = "the quick brown fox".split()
print(len(words), words[::-1], " ".join(w.capitalize() for w in words) if False else " ".join(sorted(words)))
s = "epoch"
print(s * 3, s[1:3], s[-1], s.replace("e", "E"), s.find("o"), "o" in s, s.count("o") if False else 1)
t = torch.tensor([1.5, 2.5])
print("values: " + str(t.tolist()) + " sum " + str(t.sum().item()))
print(str(3) + "!", int("42") + 1, float("0.5") * 2, repr("quote'd"), "tab\tsep", len("héllo"))
