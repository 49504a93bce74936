"""Werwolf (classic), the rule set written only as data (rulefile/sets/classic.yaml,
docs/rules/classic.md): what its scenario files cannot see — the checker with its bot
games, the seeded odds of the little girl (K10.2), the clock of the schedule (K2.1), the
winners of a side (K9.3), what each player's page may show (K1.2, K5.1, K7.1, K9.1)
and the texts the catalogs take from the file."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamekit import all_commands, play_checking_views, play_keeping_invariants
from nightfall.engine import Command, Game
from nightfall.rulefile.extract import rule_file_msgids
from nightfall.rulefile.ruleset import SHIPPED, shipped
from nightfall.rulesets import get_ruleset, new_game
from nightfall.scenario.loader import ScenarioError, parse_scenario

FILE = SHIPPED["werwolf-classic"]
DOC = Path(__file__).parents[2] / "docs" / "rules" / "classic.md"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou"]
TABLE = ["werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "little_girl",
         "villager", "villager"]


def game_of(roles: list[str], seed: int = 0, **options: object) -> Game:
    game = new_game("werwolf-classic", seed, {"early_close": False, **options})
    for name in NAMES[: len(roles)]:
        game.join(name)
    game.assign(dict(zip(NAMES, roles, strict=False)))
    game.start()
    return game


def test_rules_check_passes_with_two_hundred_seeded_bot_games() -> None:
    result = subprocess.run([sys.executable, "-m", "nightfall.cli", "rules", "check",
                             str(FILE), "--games", "200"],
                            capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid nightfall-rules/1 rule set 'werwolf-classic': 7 roles" in result.stdout
    assert "bot games: 200 played, 200 ended, 0 crashed, 0 never ended" in result.stdout


def test_the_file_cites_exactly_the_rules_of_its_restatement() -> None:
    """Every rule the file cites is one of docs/rules/classic.md, and every rule there is
    cited by the file (a role, an ability, a step, a fact, a victory or a comment)."""
    doc = DOC.read_text(encoding="utf-8")
    known = set(re.findall(r"\*\*(K\d+\.\d+)\*\*", doc))
    assert len(known) > 30
    file = shipped("werwolf-classic").file
    cited = {r.rule for r in file.roles.values()} | {a.rule for a in file.abilities.values()}
    cited |= {s.rule for s in file.steps.values()} | {v.rule for v in file.victory}
    cited |= {f.rule for f in file.facts.values()}
    assert cited - known == set()
    text = FILE.read_text(encoding="utf-8")
    named = set(re.findall(r"K\d+\.\d+", text))
    assert named - known == set()
    assert known - named == set()


def _peek_night(seed: int, odds: int) -> str | None:
    """Night 1 of a table where the pack names Hal and the little girl peeks: who the
    pack's victim is when stage 1 ends."""
    game = game_of(TABLE, seed, little_girl_odds=odds)
    game.execute(Command("eat", by="Ann", target="Hal"))
    game.execute(Command("eat", by="Bob", target="Hal"))
    game.execute(Command("peek", by="Gus"))
    game.advance()
    victim: str | None = game.state.flags.get("k.victim")
    return victim


def test_the_little_girl_is_caught_with_the_seeded_odds() -> None:
    """K10.2: one chance in ``little_girl_odds``; the same seed, the same night."""
    for odds, low, high in ((3, 0.23, 0.44), (6, 0.09, 0.26)):
        caught = [_peek_night(seed, odds) == "Gus" for seed in range(240)]
        assert low < sum(caught) / len(caught) < high, (odds, sum(caught))
        assert all(_peek_night(seed, odds) == ("Gus" if c else "Hal")
                   for seed, c in enumerate(caught[:20]))
    assert all(_peek_night(seed, 1) == "Gus" for seed in range(20))


def test_the_stages_end_at_their_clock_times() -> None:
    """K2.1: 23:30, 08:00, 10:00 (only with an open shot), 19:30, 21:00, in the game's
    time zone, each the first such time after the stage began."""
    berlin = ZoneInfo("Europe/Berlin")
    start = datetime(2026, 12, 1, 18, 0, tzinfo=berlin)
    game = new_game("werwolf-classic", 1, {"early_close": False})
    for name in NAMES[:6]:
        game.join(name)
    game.assign(dict(zip(NAMES, ["werewolf", "hunter", "villager", "villager", "villager",
                                 "villager"], strict=False)))
    game.start(start)
    seen = []
    game.execute(Command("eat", by="Ann", target="Bob", at=start))
    for _ in range(4):
        deadline = game.state.deadline
        assert deadline is not None
        seen.append((game.state.phase_label, deadline.astimezone(berlin).strftime("%d %H:%M")))
        if game.state.phase_label == "night 1/3":
            game.execute(Command("shoot", by="Bob", target="Cid",
                                 at=deadline - timedelta(minutes=30)))
        game.advance(deadline)
    assert seen == [("night 1/1", "01 23:30"), ("night 1/2", "02 08:00"),
                    ("night 1/3", "02 10:00"), ("day 1", "02 19:30")]
    assert game.state.phase_label == "night 2/1"
    assert game.state.players["Cid"].left_cause == "shot"


def test_a_mixed_couple_shares_no_victory_of_its_side() -> None:
    """K9.3, K11.3: the village wins without the villager lover of a werewolf."""
    game = new_game("werwolf-classic", 0, {"early_close": False})
    for name in NAMES[:6]:
        game.join(name)
    game.assign(dict(zip(NAMES, ["werewolf", "werewolf", "villager", "villager", "villager",
                                 "villager"], strict=False)),
                {"Ann": ["lover"], "Cid": ["lover"]})
    game.start()
    game.advance()
    game.advance()
    for voter in ("Dee", "Eve"):
        game.execute(Command("vote", by=voter, target="Bob"))
    game.advance()
    game.advance()
    game.advance()
    for voter in ("Dee", "Eve"):
        game.execute(Command("vote", by=voter, target="Ann"))
    game.advance()
    assert game.state.winner == "village"
    assert set(game.state.winners) == {"Dee", "Eve", "Fay"}


def _hidden(view: dict[str, object], viewer: str, game: Game) -> list[str]:
    """What ``viewer``'s view shows that K1.2, K5.1, K7.1 and K9.1 keep from him."""
    state = game.state
    me = state.players[viewer]
    wolf = me.role == "werewolf"
    problems = []
    for entry in view["players"]:  # type: ignore[attr-defined]
        other = state.players[entry["name"]]
        if other.name == viewer or not other.alive or state.ended:
            continue
        if entry["role"] is not None and not (wolf and other.role == "werewolf"):
            problems.append(f"{viewer} sees the role of {other.name}")
        partner = state.flags.get("k.partner:" + viewer)
        if "lover" in entry["statuses"] and partner != other.name:
            problems.append(f"{viewer} sees that {other.name} is in love")
    mine = view.get("me", {})
    assert isinstance(mine, dict)
    if not wolf and ("pack_choices" in mine or mine.get("pack")):
        problems.append(f"{viewer} sees the pack")
    if me.role != "witch" and "victim" in mine:
        problems.append(f"{viewer} sees the victim")
    return problems


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32))
def test_random_play_keeps_the_secrets_and_the_win_invariant(data: st.DataObject,
                                                             seed: int) -> None:
    game = game_of(TABLE, seed)

    def check_view(game: Game, viewer: str) -> None:
        problems = _hidden(game.view(viewer), viewer, game)
        assert not problems, problems

    play_checking_views(game, data, 40, all_commands, check_view)
    again = game_of(TABLE, seed)
    play_keeping_invariants(again, data, 30, all_commands)


def test_a_werewolf_sees_his_pack_and_its_choices_the_witch_her_victim() -> None:
    game = game_of(TABLE)
    game.execute(Command("eat", by="Ann", target="Hal"))
    ann = game.view("Ann")
    assert ann["me"]["pack"] == ["Ann", "Bob"] and ann["me"]["pack_choices"] == {"Ann": "Hal"}
    assert [p["role"] for p in ann["players"] if p["name"] == "Bob"] == ["werewolf"]
    assert "victim" not in game.view("Dee")["me"]  # not yet: stage 1 is open
    game.advance()
    assert game.view("Dee")["me"]["victim"] == "Hal"
    assert game.view("Dee")["me"]["heal_left"] is True
    for viewer in NAMES[2:len(TABLE)]:
        assert not _hidden(game.view(viewer), viewer, game)


def test_the_catalogs_take_every_text_and_title_of_the_file() -> None:
    """rulefile/extract.py finds each text and title where it stands in the file."""
    text = FILE.read_text(encoding="utf-8")
    found = {msgid: line for line, msgid, _ in rule_file_msgids(text)}
    file = shipped("werwolf-classic").file
    wanted = {*file.texts.values(), *(r.title for r in file.roles.values()),
              *(a.title for a in file.abilities.values()),
              *(s.title for s in file.steps.values()), *file.draws.values(),
              *(c.title for c in file.causes.values()), file.title}
    assert wanted <= set(found)
    lines = text.splitlines()
    assert all(msgid.split("{")[0][:20] in lines[line - 1] or lines[line - 1].strip()
               .endswith(">-") for msgid, line in found.items() if msgid in file.texts.values())


def test_a_scenario_names_a_shipped_rule_file_and_its_commands() -> None:
    ok = parse_scenario("ruleset: werwolf-classic\nplayers:\n  - {name: Ann, role: seer}\n"
                        "steps:\n  - {do: see, by: Ann, target: Ann}\n")
    assert ok.scenario.ruleset == "werwolf-classic"
    for source, message in (
        ("ruleset: chess\nplayers:\n  - {name: Ann, role: seer}\n",
         "rule set 'chess' is not available (known: changelings, island, "
         "werwolf-classic)"),
        ("ruleset: changelings\nplayers:\n  - {name: Ann, role: pony}\nsteps:\n"
         "  - {do: see, by: Ann, target: Ann}\n", "key 'steps[0].do' (line 5): unknown "
                                                 "command 'see'"),
    ):
        try:
            parse_scenario(source, "f.yaml")
        except ScenarioError as error:
            assert message in str(error)
        else:
            raise AssertionError(source)
    assert get_ruleset("werwolf-classic").id == "werwolf-classic"


def test_a_stored_classic_game_replays(tmp_path: Path) -> None:
    from nightfall.service import FixedClock, GameService

    clock = FixedClock(datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    service = GameService(url=f"sqlite:///{tmp_path / 'games.db'}", clock=clock)
    created = service.create("werwolf-classic", 7, locale="de")
    for name in NAMES[:9]:
        service.signup(created.id, name)
    service.deal(created.id)
    service.start(created.id)
    game = service.load(created.id)
    wolf = next(p for p in game.state.alive() if game.state.players[p].role == "werewolf")
    prey = next(p for p in game.state.alive() if game.state.players[p].role == "villager")
    service.submit(created.id, Command("eat", by=wolf, target=prey))
    service.gm(created.id, "advance")
    assert service.load(created.id).state.phase_label == "night 1/2"
    assert service.replay_matches(created.id)
