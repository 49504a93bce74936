"""Island of Fear: the Russian forum game with roles, items and daily events (I1–I8).

Where each rule lives:

- I1 sides and goals: ``roles.py`` (factions), ``victory.py`` (I1.2),
  ``departures.py`` (I1.3 half-blood), ``ruleset.py`` (I1.4 when the win is checked)
- I2 roles: ``roles.py`` (table), ``abilities.py`` (every command's checks),
  ``night.py`` (the night moves), ``voting.py`` (I2.4 authority)
- I3.1 seating order: ``seating.py``, dealt in ``ruleset.py`` (``on_deal``);
  I3.2 newspaper: ``newspaper.py``
- I4 items: ``items.py`` (ids, kinds), ``effects.py`` (use, swap, recharge),
  ``daytime.py`` (shocker, love note), ``voting.py`` (vote corrections),
  ``night.py`` (voodoo doll, moon fern, dark glasses, camouflage cloak)
- I5 daily events: ``happenings.py`` (ids, texts), ``daytime.py`` (drawing, tsunami,
  pick me!, bunker, exchange, mystic light, spirit), ``voting.py`` (fear, rage, magnetic
  storm, palms bloom), ``night.py`` (lunar eclipse, full moon, foggy night),
  ``departures.py`` (solar eclipse), ``palms.py`` (the forbidden words)
- I6 the day: ``ruleset.py`` (stages, deadlines, GM acts), ``voting.py`` (I6.3–I6.5)
- I7 resolution order: ``daytime.py`` (stage 1, step 21), ``voting.py`` (steps 1–7),
  ``night.py`` (steps 8–20); the working memory of one resolution: ``work.py``
- I8 conduct: the GM's ``violation`` and the core's ``modkill`` (``ruleset.py``)
- projection and legal commands: ``view.py``; presets: ``presets.py``;
  memory between stages: ``memory.py``
"""

from nightfall.rulesets.island.ruleset import ISLAND, Island

__all__ = ["ISLAND", "Island"]
