"""Nightfall: a game-master system for play-by-post social-deduction games.

The pure rules engine lives in :mod:`nightfall.engine`; rule sets are plugins in
:mod:`nightfall.rulesets`; everything else (scenario runner, CLI, texts) is an adapter.
"""

__version__ = "0.1.0"
