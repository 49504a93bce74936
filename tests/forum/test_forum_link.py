"""A game linked to its forum thread (``nightfall.service.forum_link``): the whole evening
(the vote stop passes, the server reads the thread from a real local HTTP server, the
votes in the day's result are the thread's), names that wait for the GM, a read that
fails, and two server processes on one PostgreSQL reading each thread once."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from forumserver import ForumServer, forum_server
from threadkit import BERLIN, TPost, bold, day_thread, phpbb_pages, red, xf2_pages

from dbkit import KINDS, database_url
from nightfall.engine import Command
from nightfall.engine import events as ev
from nightfall.forum.fetch import Credentials, Limits
from nightfall.service import FixedClock, GameService, Scheduler
from nightfall.service.forum_link import ForumLinks, LinkError
from nightfall.store.forum import ABANDONED, COUNTED, FAILED, READING

ROLES = {"Ann": "changeling", "Bob": "pony", "Cleo": "pony", "Dan": "researcher",
         "Eve": "pony", "Fritz": "pony"}
MORNING = datetime(2012, 12, 23, 10, 0, tzinfo=BERLIN)
VOTE_STOP = datetime(2012, 12, 24, 19, 30, tzinfo=BERLIN)  # C2.5: day 2 votes until 19:30
FAST = Limits(delay=0.01, timeout=2.0, page_seconds=5.0)


def day_two(url: str, clock: FixedClock) -> tuple[GameService, ForumLinks, str]:
    """A German Changelings game of ``ROLES`` at the start of day 2 (10:00, 23.12.2012),
    its service with the forum reader attached."""
    service = GameService(url=url, clock=clock)
    forum = ForumLinks(service, limits=FAST)
    game_id = service.create("changelings", 3, {"early_close": False}, "de").id
    for name in ROLES:
        service.signup(game_id, name)
    service.assign(game_id, ROLES)
    service.start(game_id)
    for _ in range(3):  # day 1 → night 1/1 → night 1/2 → day 2
        service.gm(game_id, "advance")
    state = service.load(game_id).state
    assert state.phase_label == "day 2" and state.deadline == VOTE_STOP
    return service, forum, game_id


def evening_thread() -> list[TPost]:
    """Day 2 in the forum: Bob, Cleo, Dan vote Eve; Eve votes Dan then Bob; Fritz votes
    Ann but edits the post after the vote stop; Ann votes at 19:31, too late."""
    posts = day_thread(MORNING, list(ROLES), [
        ("Bob", "Eve"), ("Eve", "Dan"), ("Cleo", "Eve"), ("Dan", "Eve"), ("Eve", "Bob")],
        extra=8)
    posts.append(TPost(len(posts) + 1, "Fritz", VOTE_STOP - timedelta(hours=1),
                       f"Ich nehme {red('Ann')}.", edited=VOTE_STOP + timedelta(minutes=4)))
    posts.append(TPost(len(posts) + 1, "Ann", VOTE_STOP + timedelta(minutes=1),
                       f"Zu spät: {red('Bob')}"))
    return posts


def serve(server: ForumServer, pages: dict[str, str]) -> None:
    for target, body in pages.items():
        server.serve(target, body.replace("{base}", server.url("")))


def test_the_whole_evening(tmp_path: Path) -> None:
    """The vote stop passes; the scheduler reads every page of the thread, counts the
    window, submits the clear votes before the stage closes, and the day's result is the
    thread's vote (C2.5, C3.1-C3.4); the count is kept with its pages."""
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    with forum_server() as server:
        serve(server, phpbb_pages(evening_thread()))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77&start=10"),
                   auto_submit=True)
        clock.set(VOTE_STOP - timedelta(minutes=5))
        Scheduler(service).run_once()  # before the vote stop: nothing is read
        assert server.requests() == [] and forum.counts(game_id) == []
        clock.set(VOTE_STOP + timedelta(seconds=20))
        Scheduler(service).run_once()
        pages_served = len(server.requests())
    state = service.load(game_id).state
    assert state.phase_label == "night 2/1"  # the day closed on the same tick
    assert state.last_ballots == {"Bob": "Eve", "Cleo": "Eve", "Dan": "Eve", "Eve": "Bob"}
    assert state.last_votes == {"Eve": 3, "Bob": 1}
    assert not state.is_alive("Eve")  # C3.4: the most votes
    [count] = forum.counts(game_id)
    assert count.automatic and count.status == COUNTED and count.phase == "day 2"
    assert len(count.pages) == pages_served == 4
    assert all(len(p.sha256 or "") == 64 and p.fetched_at == clock.now() for p in count.pages)
    reasons = {(i["author"], i["reason"]) for i in count.invalid}
    assert {("Fritz", "edited"), ("Ann", "after_deadline")} <= reasons  # C3.2, C3.1
    assert any("after the vote stop" in n.msgid and n.params["author"] == "Fritz"
               for n in count.notes)
    assert sorted(s["voter"] for s in count.submitted if s["outcome"] == "submitted") == [
        "Bob", "Cleo", "Dan", "Eve"]
    assert "[b]Eve[/b] (3)" in count.post and "Stimmenauszählung" in count.post


def test_an_ambiguous_name_waits_for_the_gm_until_the_review_ends(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    posts = day_thread(MORNING, list(ROLES), [("Bob", "Eve"), ("Cleo", "Eve"),
                                              ("Bob", "Da")])  # Dan or ... no: "Da" → Dan
    posts.append(TPost(len(posts) + 1, "Dan", MORNING + timedelta(hours=3),
                       f"Ich wähle {red('Fr')} und dann {red('Xaver')}"))
    with forum_server() as server:
        serve(server, xf2_pages(posts))
        forum.link(game_id, server.url("/threads/changelings-9-day-2.3301/"),
                   auto_submit=True, review_minutes=30)
        clock.set(VOTE_STOP + timedelta(minutes=1))
        service.tick_due()
        assert service.load(game_id).state.phase_label == "day 2"  # waits for the GM
        assert forum.holding(game_id, clock.now())  # page loads need not ask the database
        assert not forum.holding(game_id, VOTE_STOP + timedelta(minutes=31))
        [count] = forum.counts(game_id)
        assert count.waiting and [u["text"] for u in count.unresolved] == ["Xaver"]
        held = {s["voter"]: s["outcome"] for s in count.submitted}
        assert held == {"Bob": "submitted", "Cleo": "submitted", "Dan": "held"}
        reads = len(server.requests())
        clock.set(VOTE_STOP + timedelta(minutes=20))
        service.tick_due()  # still in the review: not read again, not closed
        assert len(server.requests()) == reads
        assert service.load(game_id).state.phase_label == "day 2"
        clock.set(VOTE_STOP + timedelta(minutes=30))
        service.tick_due()  # the result's time (20:00): the day closes without Dan's vote
    state = service.load(game_id).state
    assert state.phase_label == "night 2/1" and state.last_ballots == {
        "Bob": "Dan", "Cleo": "Eve"}


def test_a_failed_read_changes_nothing_and_the_game_says_so(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    service.submit(game_id, Command("vote", by="Cleo", target="Bob"))
    with forum_server() as server:
        server.serve("/viewtopic.php?t=77", b"", status=302,
                     location=server.url("/ucp.php?mode=login"))
        forum.link(game_id, server.url("/viewtopic.php?t=77"), auto_submit=True)
        clock.set(VOTE_STOP + timedelta(minutes=1))
        before = len(service.store.events(game_id))
        service.tick_due()
    [count] = forum.counts(game_id)
    assert count.status == FAILED and count.error is not None
    assert "login" in count.error.msgid and count.announced
    game = service.load(game_id)
    assert game.state.phase_label == "night 2/1"
    posted = [e for e in service.store.events(game_id)[before:]
              if isinstance(e, ev.GmPosted)]
    assert len(posted) == 1 and "Forum" in posted[0].text  # said in German, in the thread
    assert game.state.last_ballots == {"Cleo": "Bob"}  # only the game's own votes


def test_without_auto_submit_the_count_is_kept_and_nothing_submitted(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    with forum_server() as server:
        serve(server, phpbb_pages(evening_thread()))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), review_minutes=0,
                   credentials=Credentials.parse(["sid=abc"]))
        clock.set(VOTE_STOP + timedelta(minutes=1))
        service.tick_due()
        now = forum.count_now(game_id)  # on demand, afterwards: the cache answers 304
        statuses = [r.status for r in server.requests()]
    [manual, automatic] = forum.counts(game_id)
    assert automatic.status == COUNTED and automatic.submitted == []
    assert manual.id == now.id and not manual.automatic
    assert statuses.count(304) == 4 and statuses.count(200) == 4
    assert service.load(game_id).state.last_ballots == {}
    assert forum.get(game_id) is not None and forum.get(game_id).cookie_names == ["sid"]


def test_a_read_whose_process_died_is_abandoned(tmp_path: Path) -> None:
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    forum.link(game_id, "http://127.0.0.1:9/viewtopic.php?t=1", auto_submit=True)
    clock.set(VOTE_STOP + timedelta(minutes=1))
    forum.run = lambda: False  # type: ignore[method-assign]  # the claimer "dies"
    service.tick_due()
    assert [c.status for c in forum.counts(game_id)] == [READING]
    assert service.load(game_id).state.phase_label == "day 2"
    clock.set(VOTE_STOP + timedelta(minutes=20))
    service.tick_due()
    [count] = forum.counts(game_id)
    assert count.status == ABANDONED and count.announced
    assert service.load(game_id).state.phase_label == "night 2/1"


def test_a_bad_address_is_refused() -> None:
    service = GameService(url="sqlite://")
    forum = ForumLinks(service)
    game_id = service.create("changelings", 1).id
    with pytest.raises(LinkError):
        forum.link(game_id, "ftp://forum.example/viewtopic.php?t=1")
    assert forum.get(game_id) is None


@pytest.mark.parametrize("kind", KINDS)
def test_two_server_processes_read_each_thread_once(kind: str, tmp_path: Path) -> None:
    """Two services on one database (two server processes): both schedulers tick at the
    vote stop; the thread is read once, counted once, the day closes once."""
    url = database_url(kind, tmp_path)
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(url, clock)
    other = GameService(url=url, clock=clock)
    ForumLinks(other, limits=FAST)
    with forum_server() as server:
        serve(server, phpbb_pages(evening_thread()))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), auto_submit=True)
        clock.set(VOTE_STOP + timedelta(minutes=1))
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def tick(which: GameService) -> None:
            try:
                barrier.wait(timeout=10)
                for _ in range(3):
                    which.tick_due()
            except BaseException as error:  # reported below
                errors.append(error)

        workers = [threading.Thread(target=tick, args=(s,)) for s in (service, other)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
        assert not errors
        paths = [r.path for r in server.requests()]
    assert len(paths) == len(set(paths)) == 4  # every page once
    assert [c.status for c in forum.counts(game_id)] == [COUNTED]
    game = service.load(game_id)
    assert game.state.phase_label == "night 2/1"
    assert sum(isinstance(e, ev.VotesCounted) and e.phase == "day 2"
               for e in service.store.events(game_id)) == 1
    assert game.state.last_votes == {"Eve": 3, "Bob": 1}


def test_island_is_read_once_at_the_evening_vote_stop(tmp_path: Path) -> None:
    """Island of Fear: votes run through both halves of the day (I6.1, I6.2); the thread is
    read at 21:00, not at the midday deadline, and the morning's votes count; a player
    without a vote votes for himself (I6.3)."""
    moscow = ZoneInfo("Europe/Moscow")
    morning = datetime(2024, 3, 1, 10, 0, tzinfo=moscow)
    clock = FixedClock(morning)
    service = GameService(url=f"sqlite:///{tmp_path / 'n.db'}", clock=clock)
    forum = ForumLinks(service, limits=FAST)
    roles = {"Ann": "werewolf", "Bob": "seer", "Cid": "passenger", "Dee": "passenger",
             "Eve": "passenger"}
    game_id = service.create("island", 5, {"random_events": False, "items_per_player": 0},
                             "ru").id
    for name in roles:
        service.signup(game_id, name)
    service.deal(game_id, roles=list(roles.values()))
    service.start(game_id)
    posts = [TPost(1, "Ann", morning + timedelta(hours=1), f"Голосую {bold('Bob')}"),
             TPost(2, "Cid", morning + timedelta(hours=2), f"{bold('Bob')}!"),
             TPost(3, "Bob", morning + timedelta(hours=5), f"голос: {bold('Ann')}"),
             TPost(4, "Eve", morning + timedelta(hours=10, minutes=30), bold("Bob"))]
    with forum_server() as server:
        serve(server, phpbb_pages(posts, per_page=2))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), auto_submit=True)
        clock.set(datetime(2024, 3, 1, 13, 1, tzinfo=moscow))
        service.tick_due()  # the midday deadline: the day goes on, nothing is read
        assert server.requests() == [] and service.load(game_id).state.phase.stage == 2
        clock.set(datetime(2024, 3, 1, 21, 1, tzinfo=moscow))
        service.tick_due()
    [count] = forum.counts(game_id)
    assert count.status == COUNTED and count.contract["votes"] == {
        "Ann": "Bob", "Bob": "Ann", "Cid": "Bob", "Dee": "Dee", "Eve": "Bob"}
    assert sorted(s["voter"] for s in count.submitted) == ["Ann", "Bob", "Cid", "Eve"]
    counted = [e for e in service.store.events(game_id)
               if isinstance(e, ev.VotesCounted) and e.ballot == "vote"]
    assert counted and counted[-1].ballots["Cid"] == "Bob" and counted[-1].tally["Bob"] == 3


def test_a_downtime_over_two_vote_stops_reads_the_thread_for_each(tmp_path: Path) -> None:
    """The server was down from day 2's morning until after day 3's vote stop: the
    catch-up resolves the deadlines in order and holds each vote stop for its own read of
    the thread, so day 3's forum votes count too (C2.5, C3.1-C3.4), each window from its
    day's start (day 3 began when night 2 ended, 20:00 on 25.12) to its vote stop."""
    clock = FixedClock(MORNING)
    service, forum, game_id = day_two(f"sqlite:///{tmp_path / 'n.db'}", clock)
    day_three = datetime(2012, 12, 25, 20, 0, tzinfo=BERLIN)
    third_stop = datetime(2012, 12, 26, 19, 30, tzinfo=BERLIN)
    posts = day_thread(MORNING, list(ROLES), [("Bob", "Eve"), ("Cleo", "Eve"),
                                              ("Dan", "Eve"), ("Fritz", "Dan")])
    posts += [TPost(len(posts) + 1, "Bob", day_three + timedelta(hours=14),
                    f"Heute {red('Fritz')}."),
              TPost(len(posts) + 2, "Cleo", day_three + timedelta(hours=15),
                    f"Ich auch: {red('Fritz')}"),
              TPost(len(posts) + 3, "Dan", day_three + timedelta(hours=16),
                    f"Ich sage {red('Bob')}.")]
    with forum_server() as server:
        serve(server, phpbb_pages(posts, per_page=4))
        forum.link(game_id, server.url("/viewtopic.php?f=3&t=77"), auto_submit=True)
        clock.set(third_stop + timedelta(minutes=2))
        scheduler = Scheduler(service)
        for _ in range(3):  # the start's catch-up, then the scheduler's next looks
            scheduler.run_once()
    counts = sorted(forum.counts(game_id), key=lambda c: c.deadline)
    assert [(c.phase, c.status) for c in counts] == [("day 2", COUNTED), ("day 3", COUNTED)]
    assert counts[0].contract["votes"] == {"Bob": "Eve", "Cleo": "Eve", "Dan": "Eve",
                                           "Fritz": "Dan"}
    assert counts[1].contract["votes"] == {"Bob": "Fritz", "Cleo": "Fritz", "Dan": "Bob"}
    results = [e for e in service.store.events(game_id)
               if isinstance(e, ev.VotesCounted) and e.ballot == "vote"]
    assert [r.tally for r in results][-2:] == [{"Eve": 3, "Dan": 1}, {"Fritz": 2, "Bob": 1}]
    state = service.load(game_id).state
    assert not state.is_alive("Eve") and not state.is_alive("Fritz")
    assert state.phase_label == "night 3/1"
