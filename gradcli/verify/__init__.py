"""Independent checks of a gradient: sympy (symbolic, with its op table) and finite differences."""
