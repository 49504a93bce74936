"""Stored rule files (issue 20, docs/rules-format.md), on SQLite and on PostgreSQL: a game
created with a GM's rule file stores the file's bytes in its own transaction (one row per
hash), is loaded with the file of its hash and never by the id inside it, and replays to
the very events it recorded; a refused file leaves no game, no stored file and no
registered term name behind."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from dbkit import KINDS
from dbkit import database_url as fresh_database_url
from nightfall.engine import Command, Game
from nightfall.engine.text import Term, TermNames, Text
from nightfall.i18n import localize
from nightfall.rulefile.load import parse_source
from nightfall.rulefile.ruleset import compile_rules
from nightfall.service import FixedClock, GameIdTaken, GameService, RulesRefused
from nightfall.store import schema
from nightfall.store.rulefiles import CompiledRules
from rulekit import NAMES, SHIPPED_CHANGELINGS, broken_rules, house_rules, with_guest

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return fresh_database_url(request.param, tmp_path)


def counts(service: GameService) -> tuple[int, int]:
    with service.engine.connect() as conn:
        games = conn.execute(select(func.count()).select_from(schema.games)).scalar_one()
        files = conn.execute(select(func.count()).select_from(schema.rule_files)).scalar_one()
    return int(games), int(files)


def play_a_day_and_a_night(service: GameService, game_id: str) -> None:
    """Sign-up, deal, start, every vote of day 1, the night's first stage closed."""
    for name in NAMES:
        service.signup(game_id, name)
    service.deal(game_id)
    service.start(game_id)
    game = service.load(game_id)
    alive = game.state.alive()
    for voter in alive:
        service.submit(game_id, Command("elect", by=voter, target=alive[1]))
    service.gm(game_id, "advance")
    service.gm(game_id, "advance")


def test_a_rule_file_game_stores_its_file_and_replays_to_the_same_events(url: str) -> None:
    service = GameService(url=url, clock=FixedClock(START))
    data = house_rules()
    created = service.create_from_rules(data, 11, {"early_close": False}, "de", "Mine")
    meta = service.meta(created.id)
    stored = service.store.rule_file(meta.rule_file or "")
    assert stored is not None and stored.data == data and stored.ruleset == "house-ponies"
    assert meta.rule_file == parse_source(data).sha256 == stored.sha256
    assert meta.options["rules_file"] == f"nightfall-rules/1:sha256:{stored.sha256}"
    assert stored.terms["role"]["pony"] == "Pony"
    play_a_day_and_a_night(service, created.id)
    assert service.load(created.id).state.phase_label == "night 1/2"
    assert service.replay_matches(created.id)
    # a second process (a new store, nothing compiled yet) reads the file back by its hash
    other = GameService(url=url, clock=FixedClock(START))
    fresh = CompiledRules()
    rules = fresh.ruleset(stored.sha256, lambda: other.store.rule_file(stored.sha256).data)
    assert rules is not None and rules.rules_file == meta.options["rules_file"]
    replayed = Game.from_events(rules, other.store.events(created.id))
    assert replayed.state == other.load(created.id).state
    # the same commands in memory, with the file compiled from its bytes, write the very
    # events the store holds
    memory = Game.new(compile_rules(parse_source(data)), 11, {"early_close": False}, "de")
    for name in NAMES:
        memory.join(name, "")
    memory.deal(memory.ruleset.roles_for(len(NAMES)))
    memory.start(at=START)
    alive = memory.state.alive()
    for voter in alive:
        memory.execute(Command("elect", by=voter, target=alive[1], at=START))
    memory.advance(START)
    memory.advance(START)
    assert list(memory.events) == other.store.events(created.id)


def test_one_row_per_file_and_each_game_keeps_the_file_of_its_hash(url: str) -> None:
    """Two files may say the same id: each game plays by its own (looked up by hash)."""
    service = GameService(url=url, clock=FixedClock(START))
    first = house_rules("same-id")
    second = house_rules("same-id", note="season two")
    a = service.create_from_rules(first, 1)
    b = service.create_from_rules(first, 2)
    c = service.create_from_rules(second, 3)
    assert counts(service) == (3, 2)
    hashes = {g: service.meta(g.id).rule_file for g in (a, b, c)}
    assert hashes[a] == hashes[b] != hashes[c]
    for game in (a, b, c):
        loaded = service.load(game.id)
        assert loaded.state.ruleset == "same-id"
        assert loaded.ruleset.rules_file.endswith(str(hashes[game]))


def test_a_refused_file_leaves_no_game_no_file_and_no_term_name(url: str) -> None:
    service = GameService(url=url, clock=FixedClock(START))
    data, line = broken_rules()
    check = service.check_rules(data, "broken.yaml")
    assert not check.ok
    found = {(p.key, p.line) for p in check.problems}
    assert ("roles.pony.faction", line) in found
    with pytest.raises(RulesRefused) as refused:
        service.create_from_rules(data, 5, name="broken.yaml")
    assert refused.value.check.problems == check.problems
    assert counts(service) == (0, 0)
    assert TermNames.known(Term("role", "zz_stranger")) is None


@pytest.mark.parametrize(("ruleset_id", "message"), [
    ("changelings", "comes with Nightfall"),
    ("island", "comes with Nightfall"),
    ("changelings-data", "comes with Nightfall"),
    ("a" * 33, "at most 32 characters"),
    ("Big Id", "small letters"),
])
def test_ids_of_built_in_rule_sets_and_bad_ids_are_refused(tmp_path: Path, ruleset_id: str,
                                                           message: str) -> None:
    service = GameService(url=f"sqlite:///{tmp_path / 'ids.db'}")
    data = house_rules(ruleset_id, note="a GM's copy")
    check = service.check_rules(data, "mine.yaml")
    assert [p.key for p in check.problems] == ["id"]
    problem = check.problems[0]
    assert problem.line == data.decode().splitlines().index(f"id: {ruleset_id}") + 1
    assert message in localize(problem.message, "en")
    with pytest.raises(RulesRefused):
        service.create_from_rules(data, 1)
    assert counts(service) == (0, 0)


def test_the_shipped_file_itself_may_be_used(tmp_path: Path) -> None:
    service = GameService(url=f"sqlite:///{tmp_path / 'shipped.db'}")
    created = service.create_from_rules(SHIPPED_CHANGELINGS, 4)
    assert service.load(created.id).state.ruleset == "changelings"


def test_two_stored_files_that_title_a_term_otherwise_both_load(tmp_path: Path) -> None:
    """Issue 20: each file's term names have the scope of its hash, so a GM's file that
    titles a role of another stored file otherwise is accepted — also in a process that
    never loaded the stored file (the first is stored by another process, ``nightfall game
    new --rules``) — and each game names the role as its own file does."""
    import subprocess
    import sys

    db = tmp_path / "titles.db"
    first = tmp_path / "guest.yaml"
    first.write_bytes(with_guest("guest-ponies", "Guest"))
    done = subprocess.run([sys.executable, "-m", "nightfall.cli", "game", "new", "--rules",
                           str(first), "--db", f"sqlite:///{db}"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    service = GameService(url=f"sqlite:///{db}")
    assert TermNames.known(Term("role", "zz_guest")) is None  # not loaded in this process
    second = with_guest("visitor-ponies", "Visitor")
    check = service.check_rules(second, "visitor.yaml")
    assert check.ok, check.problems
    visitor = service.create_from_rules(second, 1)
    assert counts(service) == (2, 2)
    (guest_id,) = [m.id for m in service.store.list_games() if m.id != visitor.id]
    guest = Term("role", "zz_guest")
    for game_id, title in ((guest_id, "Guest"), (visitor.id, "Visitor"), (guest_id, "Guest")):
        game = service.load(game_id)
        with TermNames.scoped(game.ruleset.term_scope):
            assert TermNames.msgid(guest) == title
            assert localize(Text("{role}", {"role": guest}), "en") == title


def test_a_form_sent_twice_creates_one_game(tmp_path: Path) -> None:
    service = GameService(url=f"sqlite:///{tmp_path / 'twice.db'}")
    data = house_rules()
    service.create_from_rules(data, 1, game_id="0123456789ab")
    with pytest.raises(GameIdTaken):
        service.create_from_rules(data, 1, game_id="0123456789ab")
    assert counts(service) == (1, 1)
