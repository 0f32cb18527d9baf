"""The whole app, every command registered: for --help, a misspelt command, shell completion and tests
(`gradcli.cli.main` imports only the invoked command's module)."""

from gradcli.cli import check, completion, eval, explain, ops, plot, repl, run, steps  # noqa: F401  (registration)
from gradcli.cli.app import app

__all__ = ["app"]
