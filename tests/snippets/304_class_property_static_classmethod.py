# @property (with a setter), @staticmethod, @classmethod in a program's classes
import torch


class Temperature:
    unit = "C"

    def __init__(self, degrees):
        self._degrees = degrees

    @property
    def degrees(self):
        return self._degrees

    @degrees.setter
    def degrees(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._degrees = value

    @property
    def kelvin(self):
        return self._degrees + 273.15

    @staticmethod
    def convert(c):
        return c * 9 / 5 + 32

    @classmethod
    def freezing(cls):
        return cls(0.0)


t = Temperature(25.0)
print(t.degrees, t.kelvin, Temperature.convert(100), Temperature.freezing().degrees)
t.degrees = 30.0
print(t.degrees, t._degrees)
try:
    t.degrees = -300
except ValueError as e:
    print("refused:", e)
try:
    t.kelvin = 3
except AttributeError as e:
    print(e)


class Scaled(torch.nn.Module):
    def __init__(self, factor):
        super().__init__()
        self._factor = factor

    @property
    def factor(self):
        return self._factor

    def forward(self, x):
        return x * self.factor


print(Scaled(3)(torch.ones(2)), Scaled(2).factor)
