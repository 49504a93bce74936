"""The ``nightfall`` command line (Typer + Rich)."""
