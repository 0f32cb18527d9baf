from gradcli.cli import run

run()
