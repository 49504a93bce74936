"""I5 palms bloom: find the forbidden words in a post.

The forbidden words are the personal pronouns я, ты, он, она, они, мы, вы with every
inflected form (меня, мне, тебя, его, ему, него, нас, вами, их, ними, …), generated from
the OpenCorpora dictionary by the morphological analyser ``pymorphy3``, and the particles
да, не, нет. Only whole words count: «нет» is found in «Нет, это не так», nothing is found
in «нетерпение» or «монета». ``ё`` and ``е`` are the same letter here.
"""

from __future__ import annotations

import re
from functools import cache

PRONOUNS = ("я", "ты", "он", "она", "оно", "они", "мы", "вы")
PARTICLES = frozenset({"да", "не", "нет"})
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _plain(word: str) -> str:
    return word.casefold().replace("ё", "е")


@cache
def forbidden_forms() -> frozenset[str]:
    """Every form of the listed pronouns, plus the particles (lower case, ё as е)."""
    import pymorphy3  # a real dictionary, loaded once on first use

    morph = pymorphy3.MorphAnalyzer(lang="ru")
    forms: set[str] = set(PARTICLES)
    for pronoun in PRONOUNS:
        for parse in morph.parse(pronoun):
            if parse.tag.POS == "NPRO" and parse.normal_form == pronoun:
                forms.update(
                    _plain(form.word) for form in parse.lexeme
                    if "Arch" not in form.tag  # «те», «ея»: archaic, and «те» is «those»
                )
    return frozenset(forms)


def forbidden_words(text: str) -> list[str]:
    """The forbidden words of ``text`` in the order they occur (as written, once each)."""
    forms = forbidden_forms()
    found: list[str] = []
    for match in _WORD.finditer(text):
        for part in match.group().split("-"):  # «я-то», «он-то»: the pronoun counts
            if _plain(part) in forms and part not in found:
                found.append(part)
    return found
