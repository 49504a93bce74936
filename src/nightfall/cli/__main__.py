"""``python -m nightfall.cli`` runs the command line."""

from nightfall.cli.app import main

main()
