"""Counting: the window (since/deadline, across time zones), last valid vote, edits,
unvotes, game facts, Island self-votes, post order and duplicates."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from forumkit import BERLIN, post
from hypothesis import given, settings
from hypothesis import strategies as st

from changelingskit import CHANGELINGS_VOTES
from nightfall.forum import ISLAND, GameFacts, Reason, VoteCount, count_votes
from nightfall.forum.count import order_posts
from nightfall.forum.model import Element, NodeKind, Post
from nightfall.forum.rules import with_patterns

PLAYERS = ["Ann", "Bob", "Dan"]
DEADLINE = datetime(2012, 12, 24, 19, 30, tzinfo=BERLIN)


def _reasons(count: VoteCount) -> list[tuple[str, str]]:
    return [(i.post, i.reason.value) for i in count.invalid]


def test_last_valid_vote_counts_and_an_invalid_one_does_not_erase_it() -> None:
    posts = [
        post("1", "Ann", "2012-12-24 10:00", "[color=red]Bob[/color]"),
        post("2", "Ann", "2012-12-24 11:00", "[color=red]Dan[/color]"),
        post("3", "Ann", "2012-12-24 12:00", "[color=red]Bob[/color]", edited=True),
        post("4", "Ann", "2012-12-24 13:00", "[color=red]Xyz[/color]"),
    ]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES, deadline=DEADLINE)
    assert count.to_json()["votes"] == {"Ann": "Dan"}
    assert _reasons(count) == [("3", "edited"), ("4", "unknown_name")]
    assert count.votes["Ann"].post == "2"


def test_several_votes_in_one_post_the_last_counts() -> None:
    posts = [post("1", "Ann", "2012-12-24 10:00",
                  "[color=red]Bob[/color] ... no wait: [color=red]Dan[/color]")]
    assert count_votes(posts, PLAYERS, CHANGELINGS_VOTES).to_json()["votes"] == {"Ann": "Dan"}


def test_unvote_withdraws() -> None:
    posts = [
        post("1", "Ann", "2012-12-24 10:00", "[color=red]Bob[/color]"),
        post("2", "Ann", "2012-12-24 11:00", "[color=red]Unvote[/color]"),
    ]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES)
    assert count.to_json()["votes"] == {} and count.not_voting == ("Ann", "Bob", "Dan")


def test_deadline_minute_counts_and_the_next_does_not() -> None:
    posts = [
        post("1", "Ann", "2012-12-24 19:30", "[color=red]Bob[/color]"),
        post("2", "Bob", "2012-12-24 19:31", "[color=red]Ann[/color]"),
    ]
    posts[0] = replace(posts[0], time=posts[0].time.replace(second=59))
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES, deadline=DEADLINE)
    assert count.to_json()["votes"] == {"Ann": "Bob"}
    assert _reasons(count) == [("2", "after_deadline")]


def test_window_compares_instants_across_time_zones() -> None:
    utc = ZoneInfo("UTC")
    moscow = ZoneInfo("Europe/Moscow")
    posts = [
        # 18:29 UTC = 19:29 Berlin: in time
        post("1", "Ann", "2012-12-24 18:29", "[color=red]Bob[/color]", tz=utc),
        # 21:31 Moscow (UTC+4 in 2012) = 18:31 Berlin: in time
        post("2", "Bob", "2012-12-24 21:31", "[color=red]Ann[/color]", tz=moscow),
        # 18:31 UTC = 19:31 Berlin: too late
        post("3", "Dan", "2012-12-24 18:31", "[color=red]Ann[/color]", tz=utc),
    ]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES, deadline=DEADLINE)
    assert count.to_json()["votes"] == {"Ann": "Bob", "Bob": "Ann"}
    assert _reasons(count) == [("3", "after_deadline")]


def test_summer_time_deadline() -> None:
    summer = datetime(2013, 7, 1, 19, 30, tzinfo=BERLIN)  # UTC+2
    utc = ZoneInfo("UTC")
    posts = [post("1", "Ann", "2013-07-01 17:30", "[color=red]Bob[/color]", tz=utc),
             post("2", "Bob", "2013-07-01 17:31", "[color=red]Ann[/color]", tz=utc)]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES, deadline=summer)
    assert count.to_json()["votes"] == {"Ann": "Bob"}


def test_since_is_inclusive() -> None:
    since = datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN)
    posts = [
        post("1", "Ann", "2012-12-23 19:59", "[color=red]Bob[/color]"),
        post("2", "Bob", "2012-12-23 20:00", "[color=red]Ann[/color]"),
    ]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES, since=since)
    assert count.to_json()["votes"] == {"Bob": "Ann"}
    assert _reasons(count) == [("1", "before_start")]
    assert since.astimezone(UTC).hour == 19


def test_game_facts() -> None:
    facts = GameFacts(departed=frozenset({"Fritz"}), voiceless=frozenset({"Dan"}),
                      lovers=frozenset({frozenset({"Ann", "Bob"})}))
    posts = [
        post("1", "Ann", "2012-12-24 10:00", "[color=red]Bob[/color]"),
        post("2", "Bob", "2012-12-24 10:05", "[color=red]Fritz[/color]"),
        post("3", "Dan", "2012-12-24 10:10", "[color=red]Ann[/color]"),
        post("4", "Fritz", "2012-12-24 10:15", "[color=red]Ann[/color]"),
        post("5", "Bob", "2012-12-24 10:20", "[color=red]Bob[/color]"),  # himself: allowed
    ]
    count = count_votes(posts, ["Ann", "Bob", "Dan", "Fritz"], CHANGELINGS_VOTES, facts=facts)
    assert _reasons(count) == [("1", "self_lover"), ("2", "departed"), ("3", "voiceless"),
                               ("4", "departed")]
    assert count.to_json()["votes"] == {"Bob": "Bob"}
    assert count.not_voting == ("Ann",)  # Dan has no vote right, Fritz has left


def test_non_players_and_quoted() -> None:
    posts = [
        post("1", "GM", "2012-12-24 10:00", "Vote like this: [color=red]Bob[/color]"),
        post("2", "Ann", "2012-12-24 10:05", "[quote=GM][color=red]Bob[/color][/quote]"),
        post("3", "Bob", "2012-12-24 10:10", "[color=red]GM[/color]"),
        post("4", "Dan", "2012-12-24 10:15", "[quote]red but no name: [color=red]lol[/color]"
                                             "[/quote]"),
    ]
    count = count_votes(posts, PLAYERS, CHANGELINGS_VOTES)
    assert _reasons(count) == [("1", "not_a_player"), ("2", "quoted"), ("3", "not_a_player")]
    assert count.unresolved == ()


def test_posts_are_ordered_by_time_then_number_and_deduplicated() -> None:
    a = post("p10", "Ann", "2012-12-24 10:00", "[color=red]Bob[/color]", number=2)
    b = post("p9", "Ann", "2012-12-24 10:00", "[color=red]Dan[/color]", number=1)
    c = post("p11", "Ann", "2012-12-24 09:00", "[color=red]Ann[/color]", number=3)
    assert [p.id for p in order_posts([a, b, c, a])] == ["p11", "p9", "p10"]
    count = count_votes([a, b, c, a], PLAYERS, CHANGELINGS_VOTES)
    assert count.to_json()["votes"] == {"Ann": "Bob"} and count.posts_read == 3


def test_island_non_voters_vote_for_themselves() -> None:
    posts = [
        post("1", "Ann", "2012-12-24 10:00", "голос: Bob"),
        post("2", "Bob", "2012-12-24 10:05", "[b]Important:[/b] nobody is safe"),
        post("3", "Dan", "2012-12-24 10:10", "[color=red]Ann[/color]"),  # not an Island form
    ]
    count = count_votes(posts, PLAYERS, ISLAND)
    assert count.to_json() == {
        "votes": {"Ann": "Bob", "Bob": "Bob", "Dan": "Dan"},
        "tally": {"Bob": 2, "Dan": 1},
        "not_voting": ["Bob", "Dan"],
        "invalid": [],
        "unresolved": [],
    }


def test_island_bold_ambiguous_is_reported_but_plain_emphasis_is_not() -> None:
    posts = [post("1", "Ann", "2012-12-24 10:00", "[b]Da[/b] or [b]never[/b]")]
    count = count_votes(posts, ["Ann", "Dan", "Dave"], ISLAND)
    assert _reasons(count) == [("1", "ambiguous_name")]
    assert count.unresolved[0].candidates == ("Dan", "Dave")


def test_custom_vote_pattern() -> None:
    rules = with_patterns(ISLAND, [r"(?i)lynch\s+(?P<name>\w+)"])
    posts = [post("1", "Ann", "2012-12-24 10:00", "I say lynch Dan. голос: Bob")]
    assert count_votes(posts, PLAYERS, rules).to_json()["votes"]["Ann"] == "Dan"


def test_reasons_cover_the_contract() -> None:
    assert {r.value for r in Reason} == {
        "quoted", "edited", "after_deadline", "before_start", "not_a_player", "unknown_name",
        "ambiguous_name", "self_lover", "voiceless", "departed"}


def _ordered_by_full_keys(posts: list[Post]) -> list[Post]:
    """Thread order as ``order_posts`` wrote it: every post's whole key."""
    unique: dict[str, Post] = {}
    for item in posts:
        unique.setdefault(item.id, item)
    return sorted(unique.values(), key=lambda p: (
        p.time, p.number if p.number is not None else -1,
        -1 if (digits := p.id_number) is None else digits, p.file, p.position))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([None, 1, 2]),
                          st.sampled_from(["p1", "p2", "p10", "#3", "x", "p02", "p2b"]),
                          st.sampled_from(["a.html", "b.html"]), st.integers(0, 2)),
                max_size=12))
def test_thread_order_reads_tie_breaks_only_where_they_decide(
        rows: list[tuple[int, int | None, str, str, int]]) -> None:
    start = datetime(2012, 12, 23, 20, 0, tzinfo=BERLIN)
    posts = [Post(f"{ident}-{at}" if at % 2 else ident, "Ann",
                  start.replace(minute=minute), Element(NodeKind.ROOT), number, False, None,
                  file, position)
             for at, (minute, number, ident, file, position) in enumerate(rows)]
    assert [id(p) for p in order_posts(posts)] == [id(p) for p in _ordered_by_full_keys(posts)]
