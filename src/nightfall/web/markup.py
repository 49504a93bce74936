"""The role-play conventions of the forum games, rendered as HTML (C16.2).

Plain text is speech; ``*…*`` an action, ``**…**`` a status, ``((…))`` out of character,
``//…//`` a thought. The text is escaped first, so a post can never inject markup.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

_RULES = (
    (re.compile(r"\(\((.+?)\)\)", re.S), r'<span class="ooc">((\1))</span>'),
    (re.compile(r"\*\*(.+?)\*\*", re.S), r'<strong class="status">\1</strong>'),
    (re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", re.S),
     r'<em class="action">*\1*</em>'),
    (re.compile(r"(?<![:/])//(?!\s)(.+?)(?<!\s)//", re.S), r'<span class="thought">\1</span>'),
)


def roleplay(text: str) -> Markup:
    """``text`` as safe HTML with the conventions marked up (line breaks kept)."""
    html = str(escape(text.strip()))
    for pattern, replacement in _RULES:
        html = pattern.sub(replacement, html)
    paragraphs = [p for p in re.split(r"\n\s*\n", html) if p.strip()]
    return Markup("".join(
        '<p class="speech">' + p.replace("\n", "<br>") + "</p>" for p in paragraphs))
