"""Forum thread import and vote counter (issue 6).

Read saved thread pages (phpBB 3 prosilver, vBulletin 4 and 3, XenForo 2 HTML; Discourse
topic JSON; BBCode thread files; JSON lines) into one :class:`Post` model, then count the
votes by a rule set's vote rules::

    from nightfall.forum import read_file, count_votes, render_bbcode, zone
    from nightfall.service.votecount import vote_rules_for
    berlin = zone("Europe/Berlin")
    page = read_file(Path("day3-page1.html"), berlin)
    rules = vote_rules_for("changelings")   # the rule file's forum_votes: (C3)
    count = count_votes(page.posts, ["Ann", "Bob", "Dan"], rules)
    print(render_bbcode(count, berlin, "de"))   # the post in German (default: the rule set's)

Modules: ``model`` (the Post and its content tree), ``detect`` (decoding, format
detection, reading a file), ``phpbb`` / ``vbulletin`` / ``xenforo`` / ``discourse`` /
``exports`` (one parser per source), ``html_tree`` and ``bbcode`` (markup to content tree),
``dates``, ``colors``, ``names``, ``content`` (own text, red runs), ``votes`` (vote marks),
``rules`` (the vote rules' model; Island's, I6: a rule file
declares its own in ``forum_votes:``), ``count``, ``report`` (BBCode and JSON), ``limits`` (how much
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
from nightfall.forum.rules import ISLAND, PLUGIN_RULES, GameFacts, VoteRules

__all__ = [
    "ISLAND",
    "PLUGIN_RULES",
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
