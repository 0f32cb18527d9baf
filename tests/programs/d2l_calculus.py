# "Dive into Deep Learning" (https://d2l.ai), its PyTorch code: d2l-ai/d2l-en chapter_preliminaries/calculus.md
# @ 23d7a5ae, the cells of the PyTorch tab in order, prose dropped. Cut (plotting): `%matplotlib inline`,
# `from d2l import torch as d2l`, `from matplotlib_inline import backend_inline`, the cells defining
# use_svg_display, set_figsize, set_axes and plot, and the last cell (x = np.arange(0, 3, 0.1); plot(...)).
import numpy as np

def f(x):
    return 3 * x ** 2 - 4 * x

for h in 10.0**np.arange(-1, -6, -1):
    print(f'h={h:.5f}, numerical limit={(f(1+h)-f(1))/h:.5f}')
