"""Homework notation: the reader, check, textbook forms, steps, plot data, explain."""
