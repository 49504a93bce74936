"""Routes by area: public pages, the player's private pages, the game master's pages, the
JSON API and the live-update streams."""
