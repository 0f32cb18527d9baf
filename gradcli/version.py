"""The version, in one place: pyproject.toml reads it, `gradcli --version` prints it."""

__version__ = "0.1.0"
