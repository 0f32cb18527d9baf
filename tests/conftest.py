"""Shared fixtures."""

from __future__ import annotations

import pytest

from gradcli import engine
from gradcli.engine import dtypes


@pytest.fixture
def float64_mode():
    """The calculator's numeric mode: new tensors and Python floats become float64, as in `gradcli eval`."""
    previous = engine.get_default_dtype()
    engine.set_default_dtype(dtypes.float64)
    yield
    engine.set_default_dtype(previous)


@pytest.fixture(autouse=True, scope="session")
def check_every_edge():
    """The engine's invariant, on for the whole suite: every gradient handed to an edge has that edge's
    shape and dtype (a violation raises GradientShapeError naming the op)."""
    from gradcli.engine.autograd import EdgeChecks

    previous = EdgeChecks.enabled
    EdgeChecks.enabled = True
    yield
    EdgeChecks.enabled = previous


def pytest_addoption(parser):
    parser.addoption("--live", action="store_true", help="fuzz fresh seeds against the installed PyTorch "
                                                          "(tests/test_compositions.py)")
    parser.addoption("--live-seed", type=int, default=1, help="the seed --live fuzzes")
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (the whole textbook "
                                                          "corpus: tests/homework/test_textbook_corpus.py); "
                                                          "GRADCLI_SLOW=1 does the same")


def pytest_collection_modifyitems(config, items):
    """Tests marked slow run with --slow or GRADCLI_SLOW=1; the default run skips them, saying how to run them."""
    import os

    if config.getoption("--slow") or os.environ.get("GRADCLI_SLOW", "") not in ("", "0"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (or GRADCLI_SLOW=1)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
