"""`gradcli completion`: the shell completion script."""

# No `from __future__ import annotations`: typer reads the option annotations (see cli/app.py).
import sys
from typing import Annotated

import typer

from gradcli.cli.app import (
    Shell,
    app,
)
from gradcli.cli.terminal import completion_script


@app.command("completion")
def completion_command(shell: Annotated[Shell, typer.Argument(help="bash, zsh or fish.")]):
    """Print the shell completion script: eval "$(gradcli completion bash)" in ~/.bashrc
    (zsh: in ~/.zshrc; fish: gradcli completion fish > ~/.config/fish/completions/gradcli.fish)."""
    sys.stdout.write(completion_script(shell.value) + "\n")
