"""Limits, the guard that enforces them, and gradcli's error types. Imports nothing of gradcli."""
