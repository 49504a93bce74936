"""Finding the vote marks in a post: red names (Changelings) and written forms (Island),
in the author's own text and — to report them as ``quoted`` — in quoted text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nightfall.forum.content import scan
from nightfall.forum.lazy import LazyPost
from nightfall.forum.model import Post
from nightfall.forum.rules import VoteRules

_MARKUP = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]", re.I)


@dataclass(frozen=True, slots=True)
class VoteMark:
    """A piece of a post that reads as a vote."""

    text: str
    quoted: bool
    strict: bool
    offset: int


def vote_marks(post: Post, rules: VoteRules) -> list[VoteMark]:
    """The post's vote marks: own ones in reading order, then quoted ones."""
    result = post.vote_scan if isinstance(post, LazyPost) else None
    if result is None:
        result = scan(post.content)
    own: list[VoteMark] = []
    quoted: list[VoteMark] = []
    if rules.red_votes:
        for fragment in result.red:
            mark = VoteMark(fragment.text, fragment.quoted, True, fragment.offset)
            (quoted if fragment.quoted else own).append(mark)
    for pattern in rules.patterns:
        own.extend(_matches(pattern.regex, result.own_bbcode, False, pattern.strict))
        for text in result.quoted_bbcode:
            quoted.extend(_matches(pattern.regex, text, True, pattern.strict))
    if len(own) > 1:  # (most posts have one mark or none: no sort, no key function)
        own.sort(key=_offset)
    return own + quoted


def _offset(mark: VoteMark) -> int:
    return mark.offset


def _matches(regex: re.Pattern[str], text: str, quoted: bool, strict: bool) -> list[VoteMark]:
    marks = []
    for match in regex.finditer(text):
        raw = match.group("name") if "name" in regex.groupindex else match.group(1)
        name = " ".join(_MARKUP.sub("", raw or "").split())
        if name:
            marks.append(VoteMark(name, quoted, strict, match.start()))
    return marks
