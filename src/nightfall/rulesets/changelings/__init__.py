"""Changelings: the German forum game in a pony setting (rules C1–C16).

Where each rule lives:

- C1 sides and goals: ``roles.py`` (factions), ``victory.py`` (C1.3–C1.6)
- C2 flow, stages, deadlines, early close, GM acts: ``ruleset.py``
- C3 voting, C5 leader, C6.1 idiot banished: ``day.py``; C3.2 checks in ``abilities.py``
- C4 role table: ``roles.py``; every command's checks: ``abilities.py``
- C6.2 idiot abducted, C7 changelings, C8–C15 night: ``night.py``
- C5.4 succession, C8.3 heartbreak, C14 drama due: ``departures.py``
- C16 status post: ``status_post.py``; C16.3 preset: ``presets.py``
"""

from nightfall.rulesets.changelings.ruleset import CHANGELINGS, Changelings

__all__ = ["CHANGELINGS", "Changelings"]
