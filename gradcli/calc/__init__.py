"""The calculator: values in, evaluate, backward, checks and higher derivatives as data; rows; the repl."""
