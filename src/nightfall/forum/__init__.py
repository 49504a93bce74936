"""Forum thread import and vote counter (issue 6).

Read saved thread pages (phpBB 3 prosilver, vBulletin 4 and 3, XenForo 2 HTML; Discourse
topic JSON; BBCode thread files; JSON lines) into one :class:`Post` model, then count the
votes by a rule set's vote rules::

    from nightfall.forum import read_file, count_votes, RULESETS, render_bbcode
    berlin = zone("Europe/Berlin")
    page = read_file(Path("day3-page1.html"), berlin)
    count = count_votes(page.posts, ["Ann", "Bob", "Dan"], RULESETS["changelings"])
    print(render_bbcode(count, berlin, "de"))   # the post in German (default: the rule set's)

Modules: ``model`` (the Post and its content tree), ``detect`` (decoding, format
detection, reading a file), ``phpbb`` / ``vbulletin`` / ``xenforo`` / ``discourse`` /
``exports`` (one parser per source), ``html_tree`` and ``bbcode`` (markup to content tree),
``dates``, ``colors``, ``names``, ``content`` (own text, red runs), ``votes`` (vote marks),
``rules`` (per rule set), ``count``, ``report`` (BBCode and JSON), ``limits`` (how much
one count may read: files, bytes, nesting; checked before any parser).
"""

from nightfall.forum import limits
from nightfall.forum.colors import is_red
from nightfall.forum.count import CastVote, InvalidVote, Reason, Unresolved, VoteCount, count_votes
from nightfall.forum.dates import zone
from nightfall.forum.detect import read_file, read_page
from nightfall.forum.model import Element, InputIssue, NodeKind, Page, Post, Text
from nightfall.forum.names import NameMatcher, PlayerListError, name_key
from nightfall.forum.report import render_bbcode
from nightfall.forum.rules import CHANGELINGS, ISLAND, RULESETS, GameFacts, VoteRules

__all__ = [
    "CHANGELINGS",
    "ISLAND",
    "RULESETS",
    "CastVote",
    "Element",
    "GameFacts",
    "InputIssue",
    "InvalidVote",
    "NameMatcher",
    "NodeKind",
    "Page",
    "PlayerListError",
    "Post",
    "Reason",
    "Text",
    "Unresolved",
    "VoteCount",
    "VoteRules",
    "count_votes",
    "is_red",
    "limits",
    "name_key",
    "read_file",
    "read_page",
    "render_bbcode",
    "zone",
]
