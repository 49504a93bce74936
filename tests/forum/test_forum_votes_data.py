"""A game of a rule file counts its forum thread as a plugin's game does: the file's
``forum_votes:`` section says how its votes are written (docs/rules-format.md, "Forum
votes"). The thread is served by a real local HTTP server; the votes are counted at the
vote stop and submitted into the game (classic K3.1; Changelings C3.1). The file is the one place
of Changelings' vote rules: ``nightfall votecount --ruleset changelings`` without a game
counts with the very rules a Changelings game does."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from forumserver import ForumServer, forum_server
from threadkit import BERLIN, TPost, day_thread, phpbb_pages, red

from nightfall.forum.fetch import Limits
from nightfall.rulefile.ruleset import shipped
from nightfall.service import FixedClock, GameService, Scheduler
from nightfall.service.forum_link import ForumLinks
from nightfall.service.votecount import vote_rules_for
from nightfall.store.forum import COUNTED

FAST = Limits(delay=0.01, timeout=2.0, page_seconds=5.0)
CLASSIC_ROLES = {"Anna": "werewolf", "Bert": "werewolf", "Clara": "seer", "Dora": "witch",
                 "Emil": "hunter", "Frida": "villager", "Gustav": "villager"}
CHANGELING_ROLES = {"Ann": "changeling", "Bob": "pony", "Cleo": "pony", "Dan": "researcher",
                    "Eve": "pony", "Fritz": "pony"}
MORNING = datetime(2012, 12, 23, 10, 0, tzinfo=BERLIN)


def serve(server: ForumServer, pages: dict[str, str]) -> None:
    for target, body in pages.items():
        server.serve(target, body.replace("{base}", server.url("")))


def test_the_shipped_files_declare_their_forum_votes() -> None:
    """The Changelings file says C3.1: a vote is a red name, the last one before the vote
    stop at 19:30 (C2.5, German forum time) counts, ``unvote`` withdraws it, a non-voter
    has no vote; ``--ruleset changelings`` and its former id find the file's rules. The
    classic file: red names on a German forum until 19:30 Berlin time (K2.1, K3.1)."""
    data = vote_rules_for(shipped("changelings"))
    assert data is not None
    assert (data.name, data.timezone, f"{data.deadline_time:%H:%M}", data.red_votes,
            data.patterns, data.non_voters_vote_self, data.unvote_words, data.min_prefix) == (
        "changelings", "Europe/Berlin", "19:30", True, (), False, ("unvote",), 2)
    assert vote_rules_for("changelings") == vote_rules_for("changelings-data") == data
    classic = vote_rules_for("werwolf-classic")
    assert classic is not None and classic.red_votes and classic.timezone == "Europe/Berlin"
    assert f"{classic.deadline_time:%H:%M}" == "19:30"
    assert vote_rules_for("no-such-rules") is None


def classic_day_one(url: str, clock: FixedClock) -> tuple[GameService, ForumLinks, str]:
    """A German classic Werwolf game of ``CLASSIC_ROLES`` at the start of day 1."""
    service = GameService(url=url, clock=clock)
    forum = ForumLinks(service, limits=FAST)
    game_id = service.create("werwolf-classic", 5, {"early_close": False}, "de").id
    for name in CLASSIC_ROLES:
        service.signup(game_id, name)
    service.assign(game_id, CLASSIC_ROLES)
    service.start(game_id)
    while service.load(game_id).state.phase.kind != "day":
        service.gm(game_id, "advance")
    return service, forum, game_id


def test_a_classic_game_counts_and_submits_its_thread(tmp_path: Path) -> None:
    """The vote stop of a classic day passes: the scheduler reads the thread from the
    local server, counts the red names (K3.1) and submits each counted vote into the
    game, where the engine accepts them."""
    clock = FixedClock(MORNING)
    service, forum, game_id = classic_day_one(f"sqlite:///{tmp_path / 'n.db'}", clock)
    state = service.load(game_id).state
    assert state.deadline is not None
    start = clock.now()
    alive = [p for p in CLASSIC_ROLES if state.is_alive(p)]
    votes = [("Clara", "Anna"), ("Dora", "Anna"), ("Frida", "Bert"), ("Anna", "Frida")]
    assert all(v in alive and t in alive for v, t in votes)
    posts = day_thread(start, alive, votes, extra=5)
    posts.append(TPost(len(posts) + 1, "Gustav", state.deadline + timedelta(minutes=2),
                       f"Zu spät: {red('Anna')}"))
    with forum_server() as server:
        serve(server, phpbb_pages(posts))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), auto_submit=True)
        clock.set(state.deadline + timedelta(seconds=20))
        Scheduler(service).run_once()
        assert server.requests()  # the thread was read over HTTP
    [count] = forum.counts(game_id)
    assert count.status == COUNTED and count.automatic
    outcomes = {s["voter"]: (s["target"], s["outcome"]) for s in count.submitted}
    assert outcomes == {v: (t, "submitted") for v, t in votes}
    assert ("Gustav", "after_deadline") in {(i["author"], i["reason"]) for i in count.invalid}
    after = service.load(game_id).state
    assert after.phase_label != state.phase_label  # the day closed on the same tick
    assert after.last_ballots == dict(votes)  # the day's result is the thread's vote
    assert after.last_votes == {"Anna": 2, "Bert": 1, "Frida": 1}


def changelings_day_two(url: str, clock: FixedClock, ruleset: str
                        ) -> tuple[GameService, ForumLinks, str]:
    service = GameService(url=url, clock=clock)
    forum = ForumLinks(service, limits=FAST)
    game_id = service.create(ruleset, 3, {"early_close": False}, "de").id
    for name in CHANGELING_ROLES:
        service.signup(game_id, name)
    service.assign(game_id, CHANGELING_ROLES)
    service.start(game_id)
    for _ in range(3):  # day 1 → night 1/1 → night 1/2 → day 2
        service.gm(game_id, "advance")
    assert service.load(game_id).state.phase_label == "day 2"
    return service, forum, game_id


def summary(service: GameService, forum: ForumLinks, game_id: str) -> dict[str, Any]:
    [count] = forum.counts(game_id)
    state = service.load(game_id).state
    return {"status": count.status, "post": count.post,
            "invalid": sorted((i["author"], i["reason"], i["post"]) for i in count.invalid),
            "submitted": sorted((s["voter"], s["target"], s["outcome"])
                                for s in count.submitted),
            "ballots": state.last_ballots, "phase": state.phase_label}


def test_a_changelings_game_counts_its_thread_under_either_id(tmp_path: Path) -> None:
    """One thread, two games (of ``changelings`` and of its former id
    ``changelings-data``): the same count, the same invalid votes with their reasons
    (C3.2), the same votes submitted, the same result."""
    seen = {}
    for ruleset in ("changelings", "changelings-data"):
        clock = FixedClock(MORNING)
        service, forum, game_id = changelings_day_two(
            f"sqlite:///{tmp_path / (ruleset + '.db')}", clock, ruleset)
        deadline = service.load(game_id).state.deadline
        assert deadline is not None
        posts = day_thread(MORNING, list(CHANGELING_ROLES), [
            ("Bob", "Eve"), ("Eve", "Dan"), ("Cleo", "Eve"), ("Dan", "Eve"), ("Eve", "Bob"),
            ("Fritz", "Xaver")], extra=6)
        posts.append(TPost(len(posts) + 1, "Ann", deadline + timedelta(minutes=1),
                           f"Zu spät: {red('Bob')}"))
        with forum_server() as server:
            serve(server, phpbb_pages(posts))
            forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), auto_submit=True)
            clock.set(deadline + timedelta(seconds=20))
            Scheduler(service).run_once()
        seen[ruleset] = summary(service, forum, game_id)
    assert seen["changelings"]["submitted"]  # the count found votes at all
    assert seen["changelings-data"] == seen["changelings"]
