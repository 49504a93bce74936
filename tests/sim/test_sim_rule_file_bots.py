"""The heuristic bots play a rule file's abilities from its ``bots:`` hints (issue 20,
docs/rules-format.md "Hints for the bots"): in seeded classic Werwolf games (K1-K11) the
seer investigates and publishes, the witch heals and poisons, the hunter shoots, cupid
links, the pack eats a non-werewolf, and neither side always wins. A file without hints
is played by the default (use an ability when legal, targets by the bot's knowledge)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from nightfall.engine import Command, Game
from nightfall.engine.events import PlayerLeft, Posted, Submitted
from nightfall.rulefile.load import parse_source
from nightfall.rulefile.ruleset import SHIPPED, compile_rules, shipped
from nightfall.rulesets import get_ruleset
from nightfall.sim.bots import RulesInfo
from nightfall.sim.bots.generic import GenericBot
from nightfall.sim.bots.heuristic import HeuristicBot
from nightfall.sim.play import play_game, replay_game
from nightfall.sim.rulefiles import RuleFileRef
from nightfall.sim.setup import Setup, preset_setup

GAMES = 40


@cache
def _games(preset: str = "duesterwald-12") -> tuple[Game, ...]:
    setup = preset_setup("werwolf-classic", preset)
    return tuple(replay_game(setup, seed, "heuristic", tracing=False) for seed in range(GAMES))


def _acts(game: Game) -> Counter[str]:
    return Counter(e.action for e in game.events if isinstance(e, Submitted))


def _role_of(game: Game, role: str) -> str:
    return next(p.name for p in game.state.players.values() if p.role == role)


def test_rule_files_get_the_data_driven_bot_and_the_originals_their_playbooks() -> None:
    """A rule file's bots play its ``bots:`` hints; Changelings (a file without hints)
    and Island's plugin have playbooks of their own."""
    classic = RulesInfo.of(shipped("werwolf-classic"))
    assert classic.hints["see"]["intent"] == "investigate"
    assert isinstance(HeuristicBot("P01", classic, random.Random(1)), GenericBot)
    for ruleset in ("changelings", "island"):
        info = RulesInfo.of(get_ruleset(ruleset))
        assert not any(info.hints.values())
        assert not isinstance(HeuristicBot("P01", info, random.Random(1)),
                              GenericBot)


def test_every_classic_role_uses_its_abilities() -> None:
    games = _games()
    with_act = Counter(a for g in games for a in _acts(g))
    assert all(g.state.ended for g in games)
    # K5.2 the pack eats every game, never a werewolf; K6.1 the seer sees; K9.1 cupid binds
    for action in ("eat", "see", "bind", "heal", "vote", "elect_mayor"):
        assert with_act[action] >= GAMES, action
    eaten = [e for g in games for e in g.events if isinstance(e, PlayerLeft)
             and e.cause == "eaten"]
    assert eaten and all(g.state.players[e.player].role != "werewolf"
                         for g in games for e in g.events
                         if isinstance(e, PlayerLeft) and e.cause == "eaten")
    # K7.2, K7.3: the witch heals in every game (there is always a first victim) and
    # poisons in some (only a player suspected enough to be lynched)
    heals = sum(1 for g in games if _acts(g)["heal"])
    poisons = sum(1 for g in games if _acts(g)["poison"])
    assert heals == GAMES and 0 < poisons < GAMES
    # K8.2: a hunter who leaves (not removed by the GM) fires his last shot
    hunters_left = shots = 0
    for game in games:
        hunter = _role_of(game, "hunter")
        if any(isinstance(e, PlayerLeft) and e.player == hunter for e in game.events):
            hunters_left += 1
            shots += bool(_acts(game)["shoot"])
    assert hunters_left > GAMES // 2 and shots >= hunters_left * 0.8
    # the little girl peeks now and then (odds 0.3), never the unvote or the pass
    assert 0 < with_act["peek"] < GAMES * 3
    assert with_act["unvote"] == with_act["pass"] == 0


def test_the_seer_publishes_what_she_found() -> None:
    claims = 0
    for game in _games():
        seer = _role_of(game, "seer")
        for event in game.events:
            if isinstance(event, Posted) and event.player == seer:
                claim = re.fullmatch(r"claim seer( P\d\d=(village|werewolves|lovers))+",
                                     event.text)
                assert claim, event.text
                claims += 1
                assert "werewolves" in event.text  # publish: found
    assert claims >= GAMES // 2


def test_win_rates_are_not_degenerate() -> None:
    """Before the hints the pack never ate (the bots only voted) and the village won
    three games in four; now each side wins a real share of the games."""
    for preset in ("duesterwald-12", "small-6"):
        winners = Counter(g.state.winner for g in _games(preset))
        assert winners["village"] >= GAMES // 10 and winners["werewolves"] >= GAMES // 10, (
            preset, winners)


def test_a_file_without_hints_is_played_by_the_default(tmp_path: Path) -> None:
    """Every ``bots:`` line taken out: the bots still use each ability with targets when
    it is legal (the pack eats a non-werewolf by the default ``harm``, the witch
    poisons), and one without targets when they chose nothing else (the witch heals on
    a night she does not poison; a pass never comes with a real choice, so no command is
    refused)."""
    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    bare = re.sub(r"\n    bots: \{[^}]*\}[^\n]*", "", text)
    bare = re.sub(r"\n    bots: \{intent: investigate,[^\n]*\n[^\n]*", "", bare)
    assert "bots:" not in bare
    data = bare.replace("id: werwolf-classic", "id: werwolf-bare", 1).encode()
    rules = compile_rules(parse_source(data, "bare.yaml"))
    assert not any(RulesInfo.of(rules).hints.values())
    ref = RuleFileRef.of(rules, "bare.yaml")
    roles = tuple(rules.presets()["duesterwald-12"].roles)
    games = [replay_game(Setup("bare", rules.id, roles, {}, None, ref), seed, "heuristic",
                         tracing=False) for seed in range(12)]
    acts = Counter(a for g in games for a in _acts(g))
    assert all(g.state.ended for g in games)
    for action in ("eat", "see", "bind", "poison", "vote"):
        assert acts[action] >= 12, (action, acts)
    assert acts["heal"] > 0 and acts["pass"] == 0
    setup = Setup("bare", rules.id, roles, {}, None, ref)
    assert all(play_game(setup, seed).rejected == 0 for seed in range(6))


@pytest.mark.parametrize(("hint", "message"), [
    ("{intent: charm}", "abilities.see.bots.intent"),
    ("{intent: investigate, learns: [{notice: vision, player: target, faction: faction}]}",
     "unknown notice kind 'vision'"),
])
def test_a_bad_hint_is_refused_by_key_and_line(tmp_path: Path, hint: str,
                                               message: str) -> None:
    text = SHIPPED["werwolf-classic"].read_text(encoding="utf-8")
    start = text.index("    bots: {intent: investigate, publish: found,")
    end = text.index("\n", text.index("\n", start) + 1)
    path = tmp_path / "bad.yaml"
    path.write_text(text[:start] + f"    bots: {hint}" + text[end:], encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "nightfall.cli", "rules", "check",
                             str(path), "--games", "0"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stdout + result.stderr


def _day_view(votes: dict[str, str]) -> dict[str, object]:
    players = [{"name": f"P0{n}", "alive": True, "role": None} for n in range(1, 7)]
    players[0]["role"] = "villager"
    return {"phase": "day 1", "players": players, "votes": {"vote": votes},
            "me": {"name": "P01", "role": "villager", "notices": []}}


def test_a_crowd_hint_joins_the_vote_leader_without_a_justified_suspect() -> None:
    """``crowd: 1``: a villager with no suspect joins the player with two votes; with
    ``crowd: 0`` he picks by his own suspicion (here: by chance, never always P05)."""
    classic = RulesInfo.of(shipped("werwolf-classic"))
    legal = [Command("vote", by="P01", target=f"P0{n}") for n in range(2, 7)]
    votes = {"P02": "P05", "P03": "P05", "P04": "P06"}
    picked: dict[float, set[str | None]] = {}
    for crowd in (1.0, 0.0):
        rules = replace(classic, hints={"vote": {"intent": "harm", "crowd": crowd}})
        picked[crowd] = {GenericBot("P01", rules, random.Random(seed)).act(
            _day_view(votes), legal)[0].target for seed in range(20)}
    assert picked[1.0] == {"P05"}
    assert len(picked[0.0]) > 1
