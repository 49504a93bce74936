"""``python -m nightfall.cli`` runs the command line."""

from nightfall.cli.app import main

if __name__ == "__main__":  # not when a spawned worker process re-imports it
    main()
