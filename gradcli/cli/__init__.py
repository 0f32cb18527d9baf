"""The command line: typer at the edge.  `main` runs one command per process (the program `gradcli`),
`app` has the shared options and the error handling, one module per command reads its options, calls its
feature, renders the result and picks the exit code."""
