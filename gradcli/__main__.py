from gradcli.cli.main import run

run()
