"""Which player names may stand next to each other: none may pass for another.

A stranger who signs up as "Аsteria" (a Cyrillic А) next to "Asteria" could post and vote
as her in the eyes of every reader. Names are therefore compared by their confusable
skeleton as Unicode Technical Standard #39 defines it, taken from ICU's spoof checker (the
reference implementation, through PyICU), of the name's NFKC form in lower and in upper
case: two names with a key in common look alike ("Ａnn" full-width, "ANN", "сосо" in
Cyrillic next to "coco", "rnary" next to "Mary").

Before that, a name is refused if
- it mixes scripts beyond what UTS #39 calls *highly restrictive* (Latin with Cyrillic or
  Greek letters; Latin with Han and Japanese kana stays fine), and
- it carries a combining mark that does not make a letter of a real script: after NFC
  composition, a mark left on a Latin, Greek or Cyrillic letter (those scripts encode each
  accented letter of their languages as one character, so "Zoë", "José" or "Ёжик" compose
  and "Ast́eria" does not), a mark on a digit, space or sign, an overlay ("A̶s̶t̶") or an
  enclosing mark anywhere, and a mark repeated on one letter (ICU's *invisible* check).
  Marks in scripts that write with them (Devanagari, Arabic, Hebrew vowel points, …) pass.

All of it is a pure function of the text (ICU's data is part of the library), so the
engine stays deterministic; the check runs when a player joins, never on replay.
"""

from __future__ import annotations

import unicodedata

import icu

from nightfall.engine.caches import keep
from nightfall.engine.text import N_

#: scripts whose letters with accents are single, precomposed characters in Unicode (a
#: mark still standing alone after NFC forms no letter), and the scripts of no letter
_PRECOMPOSED = frozenset({"Latn", "Grek", "Cyrl", "Zyyy", "Zinh", "Zzzz"})
_OVERLAY = 1  # canonical combining class of the overlay marks (U+0334–U+0338, …)


def _checker(checks: int) -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    checker.setChecks(checks)
    return checker


_MIXED = _checker(icu.USpoofChecks.RESTRICTION_LEVEL)
_INVISIBLE = _checker(icu.USpoofChecks.INVISIBLE)
_SKELETON = icu.SpoofChecker()


#: name -> its keys (:func:`name_keys`): every join compares the new name with every
#: name taken, so a game's sign-up asked ICU for the same names' skeletons again and
#: again (quadratic in the players; ~4% of a simulated 15-player game). Bounded.
_KEYS: dict[str, frozenset[str]] = {}
_KEYS_LIMIT = 10_000


def name_keys(name: str) -> frozenset[str]:
    """What two names are compared by: the UTS #39 skeletons of the NFKC form as written,
    folded to lower case and to upper case (each skeleton case-folded again). Names that
    share a key look alike: "ВОВА" and "BOBA" as written, "Аsteria" and "asteria"
    folded. A pure function of the text, so kept per name."""
    keys = _KEYS.get(name)
    if keys is None:
        keys = keep(_KEYS, name, _name_keys(name), _KEYS_LIMIT)
    return keys


def _name_keys(name: str) -> frozenset[str]:
    composed = unicodedata.normalize("NFKC", name)
    return frozenset(str(_SKELETON.getSkeleton(0, form)).casefold()
                     for form in (composed, composed.casefold(), composed.upper()))


_PROBLEMS: dict[str, str | None] = {}


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name on its own, a msgid (``None``: it can);
    kept per name like :func:`name_keys`."""
    if name in _PROBLEMS:
        return _PROBLEMS[name]
    return keep(_PROBLEMS, name, _name_problem(name), _KEYS_LIMIT)


def _name_problem(name: str) -> str | None:
    composed = unicodedata.normalize("NFC", name)
    if _stray_mark(composed) or _INVISIBLE.check(composed):
        return N_("A name must not carry marks that form no letter (such as an accent on "
                  "a t, or a line through the letters).")
    if _MIXED.check(composed):
        return N_("A name must be written in one alphabet (not Latin and Cyrillic letters "
                  "mixed, for instance).")
    return None


def _stray_mark(composed: str) -> bool:
    base: str | None = None
    for char in composed:
        category = unicodedata.category(char)
        if not category.startswith("M"):
            base = char
            continue
        if category == "Mc":  # a spacing vowel sign: part of a letter of its script
            continue
        if (category == "Me" or unicodedata.combining(char) == _OVERLAY or base is None
                or icu.Script.getScript(ord(base)).getShortName() in _PRECOMPOSED):
            return True
    return False
