from typing import Dict, List, Optional, Tuple

import torch


def mean_and_std(values: List[float]) -> Tuple[float, float]:
    t = torch.tensor(values)
    return t.mean().item(), t.std().item()


def lookup(table: Dict[str, int], key: str, default: Optional[int] = None) -> Optional[int]:
    return table.get(key, default)


losses: List[float] = [0.9, 0.5, 0.3]
best: float = min(losses)
count: int = len(losses)
print(mean_and_std(losses), lookup({"a": 1}, "a"), lookup({}, "b"), best, count)


class Model(torch.nn.Module):
    def __init__(self, n_in: int, n_out: int) -> None:
        super().__init__()
        self.fc = torch.nn.Linear(n_in, n_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


torch.manual_seed(0)
m = Model(2, 1)
print(m(torch.ones(1, 2)))
