"""Reading values (numbers, lists, generators, files, stdin) and writing results (the one safe writer)."""
